import type { Construct } from 'constructs';
import type { IamCondition } from '../grant/iam-condition';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { IamMemberGrant } from '../grant/iam-member-grant';
import { AUTHORIZATION_POLICY_TYPE, resourceOfType } from '../grant/resource-type';

/**
 * Properties of an {@link AuthorizationPolicyIamMember}.
 */
export interface AuthorizationPolicyIamMemberProps extends IamGrantOptions {
  /**
   * Name of the authorization policy:
   * `projects/{project}/locations/{location}/authorizationPolicies/{id}`.
   */
  readonly name: string;
  /** The role that is applied, e.g. `roles/networksecurity.authorizationPolicyViewer` or a custom role. */
  readonly role: string;
  /**
   * One identity that is granted `role`: `user:{email}`, `serviceAccount:{email}`,
   * `group:{email}`, `domain:{domain}`, `principal://…` or `principalSet://…`.
   */
  readonly member: string;
  /**
   * An IAM condition for the binding.
   * @default - the grant is unconditional
   */
  readonly condition?: IamCondition;
}

/**
 * Grants one principal a role on a network-security authorization policy,
 * leaving every other grant on the policy alone. Deleting it (from the code,
 * or with `terraform destroy`) removes only that principal from that role
 * and condition.
 *
 * The grant is made at `terraform apply` by a read-modify-write of the
 * policy (etag, retries, per-policy lock); no Terraform provider is needed.
 */
export class AuthorizationPolicyIamMember extends IamMemberGrant {
  constructor(scope: Construct, id: string, props: AuthorizationPolicyIamMemberProps) {
    super(
      scope,
      id,
      {
        typeName: 'AuthorizationPolicyIamMember',
        resource: resourceOfType(AUTHORIZATION_POLICY_TYPE, props.name),
        nameFormat: AUTHORIZATION_POLICY_TYPE.nameFormat,
      },
      props,
    );
  }
}
