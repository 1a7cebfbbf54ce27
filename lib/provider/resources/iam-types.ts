import { TYPED_RESOURCE_TYPE_ROWS } from '../../resource-types/typed-resource-types';
import type { ResourceType } from '../framework/resource';
import type { GoogleIamContext } from '../provider-context';
import { iamBindingResource } from './iam-binding';
import { iamMemberResource } from './iam-member';
import { iamMemberRolesResource } from './iam-member-roles';
import { iamMembersResource } from './iam-members';
import { iamPolicyResource } from './iam-policy';
import { GENERIC_DESCRIPTOR, typedDescriptor, type IamTypeDescriptor } from './iam-type-descriptor';

/** Every IAM type family: one per row of lib/resource-types/typed-resource-types.ts, then the generic one. */
export const IAM_TYPE_DESCRIPTORS: readonly IamTypeDescriptor[] = [...TYPED_RESOURCE_TYPE_ROWS.map(typedDescriptor), GENERIC_DESCRIPTOR];

/** The member, binding, policy, bulk members and member roles resource types of every family. */
export const IAM_RESOURCE_TYPES: readonly ResourceType<GoogleIamContext>[] = IAM_TYPE_DESCRIPTORS.flatMap((descriptor) => [
  iamMemberResource(descriptor),
  iamBindingResource(descriptor),
  iamPolicyResource(descriptor),
  iamMembersResource(descriptor),
  iamMemberRolesResource(descriptor),
]);
