import type { IamResourceType } from '../grant/resource-type';
import type { IamResource } from '../iam/grant';
import { IMPORT_JOB } from '../iam/resource-name';
import type { ReadQuery } from '../runner/read';

/**
 * The runner's read queries (lib/runner/read.ts), built in one place for both
 * forms: the Output form hands them to Terraform (values may be tokens), the
 * Direct form to the runner it starts itself.
 */

/** A typed resource's policy: `projects/{project}/locations/{location}/{collection}/{id}`; no project means the runner's default. */
export function locatedPolicyQuery(
  type: Pick<IamResourceType, 'service' | 'apiVersion' | 'nameFormat'>,
  where: { readonly project?: string; readonly location: string; readonly id: string },
  version: string,
): ReadQuery {
  return {
    kind: 'iamPolicy',
    service: type.service,
    apiVersion: type.apiVersion,
    collection: type.nameFormat.collection,
    project: where.project,
    location: where.location,
    id: where.id,
    version,
  };
}

/** Any resource's policy, by full name. */
export function namedPolicyQuery(resource: IamResource, version: string): ReadQuery {
  return {
    kind: 'iamPolicy',
    service: resource.service,
    apiVersion: resource.apiVersion,
    getIamPolicyMethod: resource.getIamPolicyMethod,
    name: resource.name,
    version,
  };
}

/** A Migration Center import job. */
export function importJobQuery(
  where: { readonly project?: string; readonly location: string; readonly importJobId: string },
  view: string | undefined,
): ReadQuery {
  return {
    kind: 'importJob',
    collection: IMPORT_JOB.collection,
    project: where.project,
    location: where.location,
    id: where.importJobId,
    view,
  };
}
