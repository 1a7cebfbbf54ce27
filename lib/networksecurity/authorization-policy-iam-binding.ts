import type { Construct } from 'constructs';
import { IamBindingGrant } from '../grant/iam-binding-grant';
import type { IamCondition } from '../grant/iam-condition';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { AUTHORIZATION_POLICY_TYPE, resourceOfType } from '../grant/resource-type';

/**
 * Properties of a {@link AuthorizationPolicyIamBinding}.
 */
export interface AuthorizationPolicyIamBindingProps extends IamGrantOptions {
  /**
   * Name of the authorization policy:
   * `projects/{project}/locations/{location}/authorizationPolicies/{id}`.
   */
  readonly name: string;
  /** The role that is applied. Only one binding construct can own a role (and condition) on a resource. */
  readonly role: string;
  /**
   * The identities granted `role`; the binding's member list becomes exactly this list.
   * Each is `user:{email}`, `serviceAccount:{email}`, `group:{email}`, `domain:{domain}`,
   * `principal://…` or `principalSet://…`.
   */
  readonly members: string[];
  /**
   * An IAM condition for the binding.
   * @default - the binding is unconditional
   */
  readonly condition?: IamCondition;
}

/**
 * Owns the full member list of one role (and condition) on a network-security authorization policy.
 * Other roles' bindings are left alone; changing `members` rewrites the list
 * in one write (nobody who stays loses access in between); deleting it
 * removes the binding.
 */
export class AuthorizationPolicyIamBinding extends IamBindingGrant {
  constructor(scope: Construct, id: string, props: AuthorizationPolicyIamBindingProps) {
    super(
      scope,
      id,
      {
        typeName: 'AuthorizationPolicyIamBinding',
        resource: resourceOfType(AUTHORIZATION_POLICY_TYPE, props.name),
        nameFormat: AUTHORIZATION_POLICY_TYPE.nameFormat,
      },
      props,
    );
  }
}
