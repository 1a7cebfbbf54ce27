import { genericResource, validateIamResource } from './resource-type';
import type { IamResource } from '../iam/grant';
import type { GetIamPolicyMethod, GoogleIamResource } from './google-iam-resource';

/**
 * The resource a generic construct or lookup names, as the grant model and
 * the runner take it: its getIamPolicy method settled (see resource-type.ts). @internal
 */
export function settledResource(resource: GoogleIamResource): IamResource {
  const { service, apiVersion, name, policyReadMethod } =
    typeof resource === 'object' && resource !== null ? resource : ({} as GoogleIamResource);
  // A missing name reads as '' here, so that the construct gets as far as reporting it.
  return genericResource({ service, apiVersion, name: name ?? '', getIamPolicyMethod: policyReadMethod });
}

/** Checks a generic resource's known fields, under `{prefix}service`, `{prefix}apiVersion`, `{prefix}name`, `{prefix}policyReadMethod`. @internal */
export function validateGoogleIamResource(resource: GoogleIamResource, isKnown: (value: unknown) => boolean, prefix = 'resource.'): void {
  if (typeof resource !== 'object' || resource === null) {
    validateIamResource(resource, isKnown, prefix);
    return;
  }
  const { service, apiVersion, name, policyReadMethod } = resource;
  validateIamResource({ service, apiVersion, name, getIamPolicyMethod: policyReadMethod }, isKnown, prefix, 'policyReadMethod');
}

/** The resource as the construct shows it: the method spelled out. @internal */
export function shownResource(resource: IamResource): GoogleIamResource {
  const { service, apiVersion, name, getIamPolicyMethod } = resource;
  return { service, apiVersion, name, policyReadMethod: (getIamPolicyMethod ?? 'GET') as GetIamPolicyMethod };
}
