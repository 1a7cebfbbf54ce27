import type { Construct } from 'constructs';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { IamPolicyGrant, type IamAuditConfigProps, type IamPolicyBindingProps } from '../grant/iam-policy-grant';
import { ADDRESS_GROUP_TYPE, resourceOfType } from '../grant/resource-type';

/**
 * Properties of a {@link AddressGroupIamPolicy}.
 */
export interface AddressGroupIamPolicyProps extends IamGrantOptions {
  /**
   * Name of the address group:
   * `projects/{project}/locations/{location}/addressGroups/{id}`.
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
 * Owns the whole IAM policy of a network-security address group: at each apply its
 * bindings become exactly `bindings`, and its audit configs `auditConfigs`
 * when given.
 *
 * Destroying it (deleting it from the code, or `terraform destroy`) removes
 * the declared bindings only; the google provider's `google_*_iam_policy`
 * resources empty the whole policy instead. No member or binding construct
 * may grant on the same address group (synth fails, naming both).
 */
export class AddressGroupIamPolicy extends IamPolicyGrant {
  constructor(scope: Construct, id: string, props: AddressGroupIamPolicyProps) {
    super(
      scope,
      id,
      {
        typeName: 'AddressGroupIamPolicy',
        resource: resourceOfType(ADDRESS_GROUP_TYPE, props.name),
        nameFormat: ADDRESS_GROUP_TYPE.nameFormat,
      },
      props,
    );
  }
}
