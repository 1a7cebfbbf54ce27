import type { Construct } from 'constructs';
import { IamBindingGrant } from '../grant/iam-binding-grant';
import type { IamCondition } from '../grant/iam-condition';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { ADDRESS_GROUP_TYPE, resourceOfType } from '../grant/resource-type';

/**
 * Properties of a {@link AddressGroupIamBinding}.
 */
export interface AddressGroupIamBindingProps extends IamGrantOptions {
  /**
   * Name of the address group:
   * `projects/{project}/locations/{location}/addressGroups/{id}`.
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
 * Owns the full member list of one role (and condition) on a network-security address group.
 * Other roles' bindings are left alone; changing `members` rewrites the list
 * in one write (nobody who stays loses access in between); deleting it
 * removes the binding.
 */
export class AddressGroupIamBinding extends IamBindingGrant {
  constructor(scope: Construct, id: string, props: AddressGroupIamBindingProps) {
    super(
      scope,
      id,
      {
        typeName: 'AddressGroupIamBinding',
        resource: resourceOfType(ADDRESS_GROUP_TYPE, props.name),
        nameFormat: ADDRESS_GROUP_TYPE.nameFormat,
      },
      props,
    );
  }
}
