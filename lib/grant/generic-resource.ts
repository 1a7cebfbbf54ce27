import { GoogleIamApis } from '../api/iam-apis';
import type { IamResource } from '../iam/grant';
import { isKnown as isKnownAtSynth } from '../synth/known-values';
import type { GetIamPolicyMethod, GoogleIamResource } from './google-iam-resource';
import { validateIamResource, type IamResourceUse } from '../api/resource-validation';
import { genericResource } from './resource-type';

/**
 * The resource a generic construct or lookup names, as the grant model and
 * the provider take it: its getIamPolicy method settled (see resource-type.ts). @internal
 */
export function settledResource(resource: GoogleIamResource): IamResource {
  const { service, apiVersion, name, policyReadMethod } =
    typeof resource === 'object' && resource !== null ? resource : ({} as GoogleIamResource);
  // A missing name reads as '' here, so that the construct gets as far as reporting it.
  return genericResource({ service, apiVersion, name: name ?? '', getIamPolicyMethod: policyReadMethod });
}

/**
 * Checks a generic resource's known fields, under `{prefix}service`, `{prefix}apiVersion`, `{prefix}name`,
 * `{prefix}policyReadMethod`, against Google's published API for what the construct does with it. @internal
 */
export function validateGoogleIamResource(
  resource: GoogleIamResource,
  isKnown: (value: unknown) => boolean,
  prefix = 'resource.',
  use: IamResourceUse = 'read',
): void {
  if (typeof resource !== 'object' || resource === null) {
    validateIamResource(resource, isKnown, prefix);
    return;
  }
  const { service, apiVersion, name, policyReadMethod } = resource;
  validateIamResource({ service, apiVersion, name, getIamPolicyMethod: policyReadMethod }, isKnown, prefix, 'policyReadMethod', use);
}

/**
 * The resource as the construct shows it: the method spelled out, as given or as Google publishes it for the
 * collection; undefined when only apply time knows (a name that is a Terraform token). @internal
 */
export function shownResource(resource: IamResource): GoogleIamResource {
  const { service, apiVersion, name, getIamPolicyMethod } = resource;
  const known = [service, apiVersion, name].every(isKnownAtSynth);
  const method = getIamPolicyMethod ?? (known && GoogleIamApis.collection(service, apiVersion, name) ? 'GET' : undefined);
  return { service, apiVersion, name, ...(method ? { policyReadMethod: method as GetIamPolicyMethod } : {}) };
}

/** The fields a generic grant resource adds to the typed ones' configuration: the API that serves the policy. @internal */
export function genericResourceConfig(resource: IamResource): { service: string; apiVersion: string; getIamPolicyMethod?: string } {
  const { service, apiVersion, getIamPolicyMethod } = resource;
  return { service, apiVersion, ...(getIamPolicyMethod ? { getIamPolicyMethod } : {}) };
}
