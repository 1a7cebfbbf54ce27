import { IamValidationError } from '../iam/errors';
import type { PolicyAddress } from '../iam/identity';
import { GET_IAM_POLICY_SHAPES, GoogleIamApis, type GetIamPolicyShape } from './iam-apis';

/**
 * The checks of a resource's API and name, in one place for every side that
 * takes one: the constructs at synth (on what is known), the provider at
 * plan, the parser of the lookup query (lib/contract), and the REST client
 * before it builds a URL. Each throws an IamValidationError naming the field.
 */

/** A generic resource as a grant or lookup declares it: the four fields, `getIamPolicyMethod` as given (not defaulted). */
export interface IamResourceInput extends PolicyAddress {
  readonly getIamPolicyMethod?: string;
}

const SERVICE = /^[a-z][a-z0-9]{0,62}$/;
/** v1, v2, v1beta1, v1p1beta1, v2alpha, ... */
/** v1, v1beta1, v1p1beta1, v2alpha, ...; Compute Engine's and Deployment Manager's `alpha` and `beta`. */
const API_VERSION = /^(v\d+(p\d+)?((alpha|beta)\d*)?|alpha|beta)$/;
const RESOURCE_NAME_EXAMPLE =
  "expected the resource's full name as the API's getIamPolicy takes it, e.g. projects/my-project/secrets/db-password";

/** What a generic grant does with the resource's policy: `read` (a lookup), `write` (a grant), `write-audit-configs` (a policy grant with audit configs). */
export type IamResourceUse = 'read' | 'write' | 'write-audit-configs';

/**
 * Checks a resource's known fields against Google's published API, each under
 * `{prefix}{field}`: `service` an API with IAM-enabled collections (at
 * whatever paths it serves them), `apiVersion` one of its versions, `name` a
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
  if (getIamPolicyMethod !== undefined && isKnown(getIamPolicyMethod))
    validateGetIamPolicyMethod(getIamPolicyMethod, `${prefix}${methodField}`);
  if (isKnown(service)) validateServiceName(service, `${prefix}service`);
  if (isKnown(apiVersion)) validateApiVersion(apiVersion, `${prefix}apiVersion`);
  if (isKnown(name)) validateResourceName(name, `${prefix}name`);
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
  const collection = GoogleIamApis.collection(service, apiVersion, name);
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

/** A Google API by its host name's first label (it becomes a host name and a variable name): `secretmanager`, not `secretmanager.googleapis.com`. */
export function validateServiceName(service: unknown, field = 'service'): asserts service is string {
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

/** A Google API version: v1, v2, v3, v1beta1, v1p1beta1, v2alpha, ... */
export function validateApiVersion(apiVersion: unknown, field = 'apiVersion'): asserts apiVersion is string {
  if (typeof apiVersion !== 'string' || !API_VERSION.test(apiVersion)) {
    throw new IamValidationError(field, apiVersion, 'expected a Google API version such as v1, v2, v3, v1beta1, v2alpha or beta');
  }
}

/** How getIamPolicy is called: one of `GET_IAM_POLICY_SHAPES`. */
export function validateGetIamPolicyMethod(method: unknown, field = 'getIamPolicyMethod'): asserts method is GetIamPolicyShape {
  if (!GET_IAM_POLICY_SHAPES.includes(method as GetIamPolicyShape)) {
    throw new IamValidationError(field, method, `expected ${GET_IAM_POLICY_SHAPES.join(', ')}`);
  }
}

/**
 * A resource name that can be put into `{version}/{name}:getIamPolicy` as it
 * is: no `..` or `.` segments, no `?`, `#`, `%`, backslash, whitespace or
 * control character, no leading, trailing or double slash, no `:` in its last segment.
 */
export function validateResourceName(name: unknown, field = 'name'): asserts name is string {
  const problem = resourceNameProblem(name);
  if (problem) throw new IamValidationError(field, name, `${problem}; ${RESOURCE_NAME_EXAMPLE}`);
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
