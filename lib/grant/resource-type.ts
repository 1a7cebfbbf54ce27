import { IamValidationError } from '../iam/errors';
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

export const AUTHORIZATION_POLICY_TYPE: IamResourceType = {
  service: 'networksecurity',
  apiVersion: 'v1',
  nameFormat: AUTHORIZATION_POLICY,
};
export const MIGRATION_JOB_TYPE: IamResourceType = { service: 'datamigration', apiVersion: 'v1', nameFormat: MIGRATION_JOB };
export const ADDRESS_GROUP_TYPE: IamResourceType = { service: 'networksecurity', apiVersion: 'v1', nameFormat: ADDRESS_GROUP };

/** The resource a grant of this type names. */
export function resourceOfType(type: IamResourceType, name: string): IamResource {
  return {
    service: type.service,
    apiVersion: type.apiVersion,
    name,
    ...(type.getIamPolicyMethod ? { getIamPolicyMethod: type.getIamPolicyMethod } : {}),
  };
}

/**
 * The APIs whose `getIamPolicy` is `POST {version}/{resource}:getIamPolicy`
 * with `{"options": {"requestedPolicyVersion": 3}}` in the body, as their
 * REST references (and discovery documents) define it; every other API is
 * taken to answer `GET {version}/{resource}:getIamPolicy?options.requestedPolicyVersion=3`
 * (Secret Manager, Pub/Sub, Cloud KMS, Cloud Run, Cloud Functions, Artifact
 * Registry, Network Security, Database Migration, ...). A generic grant's
 * explicit `policyReadMethod` wins over this table.
 *
 * BigQuery's is a POST too, but under a service path (`bigquery/v2/...`): see
 * UNREACHABLE_SERVICES.
 */
export const POST_GET_IAM_POLICY_SERVICES: ReadonlyMap<string, string> = new Map([
  ['cloudresourcemanager', 'Resource Manager: projects, folders, organizations, tag keys and values'],
  ['spanner', 'Cloud Spanner: instances, databases, backups'],
  ['bigtableadmin', 'Cloud Bigtable Admin: instances, tables, backups'],
  ['cloudtasks', 'Cloud Tasks: queues'],
  ['datacatalog', 'Data Catalog: entry groups, tag templates, taxonomies'],
  ['dataproc', 'Dataproc: clusters, jobs, operations, autoscaling and workflow templates'],
  ['iap', 'Identity-Aware Proxy: IAP-protected resources'],
  ['servicedirectory', 'Service Directory: namespaces and services'],
]);

/** How `service` exposes getIamPolicy when the grant does not say. */
export function defaultGetIamPolicyMethod(service: string): 'GET' | 'POST' {
  return POST_GET_IAM_POLICY_SERVICES.has(service) ? 'POST' : 'GET';
}

/**
 * APIs whose IAM methods are not at `{version}/{resource}:getIamPolicy` under
 * `https://{service}.googleapis.com/`, so a generic grant cannot reach them;
 * the google provider has resources for each.
 */
export const UNREACHABLE_SERVICES: ReadonlyMap<string, string> = new Map([
  ['bigquery', 'BigQuery serves IAM under bigquery/v2/...; use google_bigquery_table_iam_* or google_bigquery_dataset_iam_*'],
  ['storage', 'Cloud Storage serves IAM at storage/v1/b/{bucket}/iam; use google_storage_bucket_iam_*'],
  ['compute', 'Compute Engine serves IAM at compute/v1/.../getIamPolicy; use the google_compute_*_iam_* resources'],
  ['dns', 'Cloud DNS serves IAM under dns/v1/...; use google_dns_managed_zone_iam_*'],
]);

/** A generic resource as a grant or lookup declares it: the four fields, `getIamPolicyMethod` as given (not defaulted). */
export interface IamResourceInput {
  readonly service: string;
  readonly apiVersion: string;
  readonly name: string;
  readonly getIamPolicyMethod?: string;
}

const SERVICE = /^[a-z][a-z0-9]{0,62}$/;
/** What lib/api's IamPolicyApi accepts: v1, v2, v1beta1, v1p1beta1, v2alpha, ... */
const API_VERSION = /^v\d+(p\d+)?((alpha|beta)\d*)?$/;

/**
 * The resource a generic grant or lookup names, with `getIamPolicyMethod`
 * settled: the explicit value, else the service's default. `GET` is left out
 * (it is what the runner assumes), so a grant's JSON and identity do not
 * depend on whether it was spelled out.
 */
export function genericResource(input: IamResourceInput): IamResource {
  const method = input.getIamPolicyMethod ?? (typeof input.service === 'string' ? defaultGetIamPolicyMethod(input.service) : 'GET');
  return {
    service: input.service,
    apiVersion: input.apiVersion,
    name: input.name,
    ...(method === 'GET' ? {} : { getIamPolicyMethod: method as 'POST' }),
  };
}

/**
 * Checks a resource's known fields, each under `{prefix}{field}`: `service`
 * an API name (lowercase letters and digits) this library can reach,
 * `apiVersion` a Google API version, `name` a resource path (no `..` or `.`
 * segments, no `?`, `#`, `%`, `:`, backslash or whitespace, no leading,
 * trailing or double slash), the getIamPolicy method GET or POST (reported
 * as `methodField`: the generic constructs call it `policyReadMethod`).
 */
export function validateIamResource(
  resource: IamResourceInput,
  isKnown: (value: unknown) => boolean,
  prefix = 'resource.',
  methodField = 'policyReadMethod',
): void {
  if (typeof resource !== 'object' || resource === null) {
    throw new IamValidationError(prefix.replace(/\.$/, ''), resource, `expected { service, apiVersion, name, ${methodField}? }`);
  }
  const { service, apiVersion, name, getIamPolicyMethod } = resource;
  if (isKnown(service)) {
    if (typeof service === 'string' && /\.googleapis\.com$/.test(service)) {
      throw new IamValidationError(
        `${prefix}service`,
        service,
        `expected the API's name without .googleapis.com, e.g. ${JSON.stringify(service.replace(/\.googleapis\.com$/, ''))}`,
      );
    }
    if (typeof service !== 'string' || !SERVICE.test(service)) {
      throw new IamValidationError(
        `${prefix}service`,
        service,
        'expected a Google API name of lowercase letters and digits (the host name without .googleapis.com), e.g. secretmanager or cloudresourcemanager',
      );
    }
    const unreachable = UNREACHABLE_SERVICES.get(service);
    if (unreachable)
      throw new IamValidationError(
        `${prefix}service`,
        service,
        `not reachable through :getIamPolicy/:setIamPolicy on {version}/{name}: ${unreachable}`,
      );
  }
  if (isKnown(apiVersion) && (typeof apiVersion !== 'string' || !API_VERSION.test(apiVersion))) {
    throw new IamValidationError(`${prefix}apiVersion`, apiVersion, 'expected a Google API version such as v1, v2, v3, v1beta1 or v2alpha');
  }
  if (isKnown(name)) {
    const problem = resourceNameProblem(name);
    if (problem)
      throw new IamValidationError(
        `${prefix}name`,
        name,
        `${problem}; expected the resource's full name as the API's getIamPolicy takes it, e.g. projects/my-project/secrets/db-password`,
      );
  }
  if (getIamPolicyMethod !== undefined && isKnown(getIamPolicyMethod) && getIamPolicyMethod !== 'GET' && getIamPolicyMethod !== 'POST') {
    throw new IamValidationError(`${prefix}${methodField}`, getIamPolicyMethod, 'expected GET or POST');
  }
}

/** Why `name` cannot be put into `{version}/{name}:getIamPolicy`, or undefined. */
function resourceNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.length === 0) return 'a resource name is required';
  if (/\s/.test(name)) return 'contains whitespace';
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'contains a control character';
  const character = /[?#%\\]/.exec(name)?.[0];
  if (character) return `contains ${JSON.stringify(character)}, which would change the request URL`;
  // The library adds the :getIamPolicy verb after the last segment; a colon before it (a domain-scoped project) is fine.
  if (/:[^/]*$/.test(name)) return 'has ":" in its last segment (the library adds the :getIamPolicy and :setIamPolicy verbs itself)';
  if (name.startsWith('/') || name.endsWith('/')) return 'starts or ends with a slash';
  if (name.includes('//')) return 'contains an empty segment (//)';
  if (name.split('/').some((segment) => segment === '.' || segment === '..')) return 'contains a . or .. segment';
  return undefined;
}
