import type { GoogleService } from '../api/services';
import { AUTHORIZATION_POLICY, MIGRATION_JOB, type ResourceNameFormat } from '../iam/resource-name';

/**
 * What the grant engine needs to know about one kind of IAM-enabled resource.
 * Adding a resource type is one more entry here (and a thin construct).
 */
export interface GrantResourceType {
  /** Stable key written into the grant spec, e.g. `networksecurity.authorizationPolicies`. */
  readonly key: string;
  readonly service: GoogleService;
  readonly apiVersion: string;
  readonly nameFormat: ResourceNameFormat;
}

function resourceType(service: GoogleService, apiVersion: string, nameFormat: ResourceNameFormat): GrantResourceType {
  return { key: `${service}.${nameFormat.collection}`, service, apiVersion, nameFormat };
}

export const AUTHORIZATION_POLICY_TYPE = resourceType('networksecurity', 'v1', AUTHORIZATION_POLICY);
export const MIGRATION_JOB_TYPE = resourceType('datamigration', 'v1', MIGRATION_JOB);

const ALL_TYPES: readonly GrantResourceType[] = [AUTHORIZATION_POLICY_TYPE, MIGRATION_JOB_TYPE];

export function resourceTypeByKey(key: string): GrantResourceType {
  const type = ALL_TYPES.find((t) => t.key === key);
  if (!type) {
    throw new Error(`unknown resource type ${JSON.stringify(key)}; known: ${ALL_TYPES.map((t) => t.key).join(', ')}`);
  }
  return type;
}
