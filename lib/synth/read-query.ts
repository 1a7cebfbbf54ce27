import type { IamResource } from '../iam/grant';
import { IMPORT_JOB, type ResourceNameFormat } from '../iam/resource-name';

/**
 * A read query for the runner (the shape lib/runner/read.ts parses as its
 * `ReadQuery`): a flat object of strings, what Terraform's `external` data
 * source can pass. Built here, in one place, for both forms of the lookups:
 * the Output form hands it to Terraform (values may be tokens), the Direct
 * form to the runner it starts itself.
 */
export interface RunnerQuery {
  readonly kind: 'iamPolicy' | 'importJob';
  readonly [field: string]: string | undefined;
}

/** A typed resource's policy: `projects/{project}/locations/{location}/{collection}/{id}`; no project means the runner's default. */
export function locatedPolicyQuery(
  type: { readonly service: string; readonly apiVersion: string; readonly nameFormat: ResourceNameFormat },
  where: { readonly project?: string; readonly location: string; readonly id: string },
  version: string,
): RunnerQuery {
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
export function namedPolicyQuery(resource: IamResource, version: string): RunnerQuery {
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
): RunnerQuery {
  return {
    kind: 'importJob',
    collection: IMPORT_JOB.collection,
    project: where.project,
    location: where.location,
    id: where.importJobId,
    view,
  };
}
