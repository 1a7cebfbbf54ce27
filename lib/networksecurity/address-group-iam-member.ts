import type { Construct } from 'constructs';
import type { IamCondition } from '../grant/iam-condition';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { IamMemberGrant } from '../grant/iam-member-grant';
import { ADDRESS_GROUP_TYPE, resourceOfType } from '../grant/resource-type';

/**
 * Properties of an {@link AddressGroupIamMember}.
 */
export interface AddressGroupIamMemberProps extends IamGrantOptions {
  /**
   * Name of the address group:
   * `projects/{project}/locations/{location}/addressGroups/{id}`.
   */
  readonly name: string;
  /** The role that is applied, e.g. a predefined role or a custom role. */
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
 * Grants one principal a role on a network-security address group, leaving every other grant on
 * the policy alone. Deleting it (from the code, or with `terraform destroy`)
 * removes only that principal from that role and condition.
 *
 * The grant is made at `terraform apply` by a read-modify-write of the
 * policy (etag, retries, per-policy lock); no Terraform provider is needed.
 */
export class AddressGroupIamMember extends IamMemberGrant {
  constructor(scope: Construct, id: string, props: AddressGroupIamMemberProps) {
    super(
      scope,
      id,
      {
        typeName: 'AddressGroupIamMember',
        resource: resourceOfType(ADDRESS_GROUP_TYPE, props.name),
        nameFormat: ADDRESS_GROUP_TYPE.nameFormat,
      },
      props,
    );
  }
}
