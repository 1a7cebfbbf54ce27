import type { IamResource } from '../iam/grant';
import { ADDRESS_GROUP, AUTHORIZATION_POLICY, MIGRATION_JOB, type ResourceNameFormat } from '../iam/resource-name';

/**
 * What the grant constructs need to know about one kind of IAM-enabled
 * resource: which API serves its policy and what its names look like.
 * Adding a resource type is one more descriptor here and three thin
 * constructs (member, binding, policy) that pass it on.
 */
export interface IamResourceType {
  readonly service: string;
  readonly apiVersion: string;
  readonly nameFormat: ResourceNameFormat;
  /** @default 'GET' */
  readonly getIamPolicyMethod?: 'GET' | 'POST';
}

export const AUTHORIZATION_POLICY_TYPE: IamResourceType = { service: 'networksecurity', apiVersion: 'v1', nameFormat: AUTHORIZATION_POLICY };
export const MIGRATION_JOB_TYPE: IamResourceType = { service: 'datamigration', apiVersion: 'v1', nameFormat: MIGRATION_JOB };
export const ADDRESS_GROUP_TYPE: IamResourceType = { service: 'networksecurity', apiVersion: 'v1', nameFormat: ADDRESS_GROUP };

/** The resource a grant of this type names. */
export function resourceOfType(type: IamResourceType, name: string): IamResource {
  return { service: type.service, apiVersion: type.apiVersion, name, ...(type.getIamPolicyMethod ? { getIamPolicyMethod: type.getIamPolicyMethod } : {}) };
}
