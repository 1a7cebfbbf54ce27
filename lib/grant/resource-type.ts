import { IamValidationError } from '../iam/errors';
import type { IamResource } from '../iam/grant';
import type { PolicyAddress } from '../iam/identity';
import type { ResourceNameFormat } from '../iam/resource-name';
import { isKnown as isKnownAtSynth } from '../synth/known-values';
import { GET_IAM_POLICY_SHAPES, GoogleIamApis, type GetIamPolicyShape } from '../api/iam-apis';
import type { GrantTarget } from './iam-grant';
import { TYPED_RESOURCE_TYPE_ROWS } from './typed-resource-types';

/**
 * What the grant constructs need to know about one kind of IAM-enabled
 * resource: which API serves its policy, what its names look like, and how
 * its getIamPolicy is called, the last from Google's published API
 * (GoogleIamApis). The typed ones are rows of typed-resource-types.ts,
 * from which scripts/generate-resource-types.js writes their constructs and
 * lookups.
 */
export interface IamResourceType {
  readonly service: string;
  readonly apiVersion: string;
  readonly nameFormat: ResourceNameFormat;
  /** @default 'GET' */
  readonly getIamPolicyMethod?: GetIamPolicyShape;
}

/** The type of `projects/{p}/locations/{l}/{collection}/{id}` in `service` `apiVersion`, as Google publishes it (throws if it does not). */
function publishedType(service: string, apiVersion: string, nameFormat: ResourceNameFormat): IamResourceType {
  const template = `projects/*/locations/*/${nameFormat.collection}/*`;
  const collection = GoogleIamApis.apiVersion(service, apiVersion)?.collections.find((c) => c.template === template);
  if (!collection?.writable)
    throw new Error(`${service} ${apiVersion} ${template} is not an IAM-enabled collection in ${GoogleIamApis.SOURCE}`);
  return { service, apiVersion, nameFormat, ...(collection.shape === 'GET' ? {} : { getIamPolicyMethod: collection.shape }) };
}

/** The typed resource types by class name stem (`AuthorizationPolicy`), each checked against Google's published API as the library loads. */
export const TYPED_RESOURCE_TYPES: Readonly<Record<string, IamResourceType>> = Object.fromEntries(
  TYPED_RESOURCE_TYPE_ROWS.map((row) => [
    row.stem,
    publishedType(row.service, row.apiVersion, { collection: row.collection, label: row.label }),
  ]),
);

/** The authorization policy type by name, for the runner tests that build its grants by hand. */
export const AUTHORIZATION_POLICY_TYPE: IamResourceType = TYPED_RESOURCE_TYPES.AuthorizationPolicy;

/** What a typed grant construct named `typeName` hands its base: the resource `name` of `type`, and the name's required form. */
export function typedGrantTarget(typeName: string, type: IamResourceType, name: string): GrantTarget {
  return { typeName, resource: resourceOfType(type, name), nameFormat: type.nameFormat };
}

/** The resource a grant of this type names. */
export function resourceOfType(type: IamResourceType, name: string): IamResource {
  return {
    service: type.service,
    apiVersion: type.apiVersion,
    name,
    ...(type.getIamPolicyMethod ? { getIamPolicyMethod: type.getIamPolicyMethod } : {}),
  };
}

/** A generic resource as a grant or lookup declares it: `getIamPolicyMethod` as given (not defaulted, not yet checked). */
export interface IamResourceInput extends PolicyAddress {
  readonly getIamPolicyMethod?: string;
}

const SERVICE = /^[a-z][a-z0-9]{0,62}$/;
/** What lib/api's IamPolicyApi accepts: v1, v2, v1beta1, v1p1beta1, v2alpha, ... */
const API_VERSION = /^v\d+(p\d+)?((alpha|beta)\d*)?$/;

/**
 * The resource a generic grant or lookup names, with `getIamPolicyMethod`
 * settled: the explicit value, else the shape Google publishes for the
 * collection the name belongs to. It is left out only where it is `GET` and
 * Google publishes `GET` (what the runner then finds in the table itself), so
 * a grant's JSON and identity do not depend on whether that was spelled out;
 * an override that departs from the table travels with the grant. A name
 * Terraform knows only at apply is settled by the runner.
 */
export function genericResource(input: IamResourceInput): IamResource {
  const published = publishedShape(input);
  const method = input.getIamPolicyMethod ?? published;
  const implied = method === 'GET' && published === 'GET';
  return {
    service: input.service,
    apiVersion: input.apiVersion,
    name: input.name,
    ...(method === undefined || implied ? {} : { getIamPolicyMethod: method as GetIamPolicyShape }),
  };
}

function publishedShape({ service, apiVersion, name }: IamResourceInput): GetIamPolicyShape | undefined {
  if (![service, apiVersion, name].every((v) => typeof v === 'string' && isKnownAtSynth(v))) return undefined;
  return GoogleIamApis.collection(service, apiVersion, name)?.shape;
}

/** What a generic grant does with the resource's policy: `read` (a lookup), `write` (a grant), `write-audit-configs` (a policy grant with audit configs). */
export type IamResourceUse = 'read' | 'write' | 'write-audit-configs';

/**
 * Checks a resource's known fields against Google's published API, each under
 * `{prefix}{field}`: `service` an API with IAM-enabled collections at
 * `{version}/{name}:getIamPolicy` (an API served elsewhere is refused, naming
 * the google provider's resource), `apiVersion` one of its versions, `name` a
 * resource path (no `..` or `.` segments, no `?`, `#`, `%`, backslash or
 * whitespace, no leading, trailing or double slash) in one of that version's
 * collections, the getIamPolicy method one of the three shapes (reported as
 * `methodField`: the generic constructs call it `policyReadMethod`). An
 * explicit method lets an API version the table does not know through (a
 * newer one), its name checked only as a path. A write needs a collection
 * with setIamPolicy, and audit configs an API whose setIamPolicy has `updateMask` and whose Policy has `auditConfigs`.
 */
export function validateIamResource(
  resource: IamResourceInput,
  isKnown: (value: unknown) => boolean,
  prefix = 'resource.',
  methodField = 'policyReadMethod',
  use: IamResourceUse = 'read',
): void {
  if (typeof resource !== 'object' || resource === null) {
    throw new IamValidationError(prefix.replace(/\.$/, ''), resource, `expected { service, apiVersion, name, ${methodField}? }`);
  }
  const { service, apiVersion, name, getIamPolicyMethod } = resource;
  if (
    getIamPolicyMethod !== undefined &&
    isKnown(getIamPolicyMethod) &&
    !GET_IAM_POLICY_SHAPES.includes(getIamPolicyMethod as GetIamPolicyShape)
  ) {
    throw new IamValidationError(`${prefix}${methodField}`, getIamPolicyMethod, `expected ${GET_IAM_POLICY_SHAPES.join(', ')}`);
  }
  if (isKnown(service)) {
    checkService(service, `${prefix}service`);
    checkServedHere(service, isKnown(apiVersion) ? apiVersion : undefined, isKnown(name) ? name : undefined, `${prefix}service`);
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
  if (!isKnown(service) || !isKnown(apiVersion)) return;
  const api = GoogleIamApis.apiVersion(service, apiVersion);
  if (!api) {
    if (getIamPolicyMethod !== undefined && use !== 'write-audit-configs') return;
    const versions = GoogleIamApis.versionsOf(service);
    if (versions.length === 0) {
      throw new IamValidationError(
        `${prefix}service`,
        service,
        `not an API with IAM-enabled collections in Google's published API (${GoogleIamApis.SOURCE})` +
          (use === 'write-audit-configs' ? '' : ` (set ${methodField} to reach an API published since)`),
      );
    }
    throw new IamValidationError(
      `${prefix}apiVersion`,
      apiVersion,
      `${service} has no IAM-enabled collection in version ${apiVersion} in Google's published API (${GoogleIamApis.SOURCE}); ` +
        `its versions with IAM: ${versions.join(', ')}` +
        (use === 'write-audit-configs' ? '' : ` (set ${methodField} to reach a version published since)`),
    );
  }
  if (!isKnown(name)) return;
  const collection = api.collections.find((c) => GoogleIamApis.matches(c.template, name));
  if (!collection) {
    throw new IamValidationError(
      `${prefix}name`,
      name,
      `not in any IAM-enabled collection of ${service} ${apiVersion} (${GoogleIamApis.SOURCE}); ` +
        `its collections with IAM: ${api.collections.map((c) => c.template).join(', ')} (* is one segment, ** any rest)`,
    );
  }
  if (use !== 'read' && !collection.writable) {
    throw new IamValidationError(
      `${prefix}name`,
      name,
      `Google publishes getIamPolicy but no setIamPolicy for ${service} ${apiVersion} ${collection.template}: its policy can be read, not granted on`,
    );
  }
  if (use === 'write-audit-configs' && !(api.updateMask && api.auditConfigs)) {
    throw new IamValidationError(
      'auditConfigs',
      `${service} ${apiVersion}`,
      `in Google's published API (${GoogleIamApis.SOURCE}) ${service} ${apiVersion}'s setIamPolicy ` +
        (api.updateMask
          ? 'takes a Policy without auditConfigs'
          : 'has no updateMask, and without one Google updates only bindings and etag') +
        ': audit configs cannot be set here',
    );
  }
}

/** Refuses an API that serves IAM elsewhere, naming the google provider's resource for the name's collection (or the API's). */
function checkServedHere(service: string, apiVersion: string | undefined, name: string | undefined, field: string): void {
  const elsewhere = GoogleIamApis.elsewhere(service);
  if (elsewhere.length === 0) return;
  const match = elsewhere.find(
    (e) =>
      name !== undefined && GoogleIamApis.matches(e.template, name) && (apiVersion === undefined || e.apiVersions.includes(apiVersion)),
  );
  const resources = [...new Set((match ? [match] : elsewhere).map((e) => e.providerResource).filter((r) => r !== undefined))];
  const instead =
    resources.length > 0
      ? `use the google provider's ${resources.map((r) => `${r}_member, ${r}_binding or ${r}_policy`).join('; or ')}`
      : `the google provider has no IAM resource for ${match ? match.template : 'its collections'}`;
  throw new IamValidationError(
    field,
    service,
    `not reachable by a generic grant: ${service} serves IAM at other paths than {version}/{name}:getIamPolicy (${GoogleIamApis.SOURCE}); ${instead}`,
  );
}

function checkService(service: unknown, field: string): asserts service is string {
  if (typeof service === 'string' && /\.googleapis\.com$/.test(service)) {
    throw new IamValidationError(
      field,
      service,
      `expected the API's name without .googleapis.com, e.g. ${JSON.stringify(service.replace(/\.googleapis\.com$/, ''))}`,
    );
  }
  if (typeof service !== 'string' || !SERVICE.test(service)) {
    throw new IamValidationError(
      field,
      service,
      'expected a Google API name of lowercase letters and digits (the host name without .googleapis.com), e.g. secretmanager or cloudresourcemanager',
    );
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
