import type { Construct } from 'constructs';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { IamPolicyGrant, type IamAuditConfigProps, type IamPolicyBindingProps } from '../grant/iam-policy-grant';
import { AUTHORIZATION_POLICY_TYPE, resourceOfType } from '../grant/resource-type';

/**
 * Properties of a {@link AuthorizationPolicyIamPolicy}.
 */
export interface AuthorizationPolicyIamPolicyProps extends IamGrantOptions {
  /**
   * Name of the authorization policy:
   * `projects/{project}/locations/{location}/authorizationPolicies/{id}`.
   */
  readonly name: string;
  /** Every binding of the policy: the policy's bindings become exactly these (one entry per role and condition). */
  readonly bindings: IamPolicyBindingProps[];
  /**
   * The policy's audit configs, replaced at each apply when given (`[]` clears them).
   * @default - audit configs are left as they are
   */
  readonly auditConfigs?: IamAuditConfigProps[];
}

/**
 * Owns the whole IAM policy of a network-security authorization policy: at each apply its
 * bindings become exactly `bindings`, and its audit configs `auditConfigs`
 * when given.
 *
 * Destroying it (deleting it from the code, or `terraform destroy`) removes
 * the declared bindings only; the google provider's `google_*_iam_policy`
 * resources empty the whole policy instead. No member or binding construct
 * may grant on the same authorization policy (synth fails, naming both).
 */
export class AuthorizationPolicyIamPolicy extends IamPolicyGrant {
  constructor(scope: Construct, id: string, props: AuthorizationPolicyIamPolicyProps) {
    super(
      scope,
      id,
      {
        typeName: 'AuthorizationPolicyIamPolicy',
        resource: resourceOfType(AUTHORIZATION_POLICY_TYPE, props.name),
        nameFormat: AUTHORIZATION_POLICY_TYPE.nameFormat,
      },
      props,
    );
  }
}
