import type { GetIamPolicyShape } from '../api/iam-apis';
import { validateImportJobView } from '../api/import-job-view';
import { validateGetIamPolicyMethod, validateIamResource } from '../api/resource-validation';
import type { IamResource } from '../iam/grant';
import { validateLocatedResource, validatePolicyVersion, type PolicyVersion } from '../iam/located-resource';
import { IMPORT_JOB, type ResourceNameFormat } from '../iam/resource-name';
import { ContractError } from './contract-error';
import { MessageReader } from './message-reader';

/**
 * The read query: what a Direct-form lookup asks the provider's lookup mode
 * (`terraform-provider-googleiam.js lookup`, started by the synthesizing
 * process, the query on stdin), and what the provider's data sources build
 * from their configuration. A flat object of strings. The resource is either
 * `name` (a full resource name) or `collection`, `location`, `id` and an
 * optional `project` (else the provider's default project).
 */

/** The query as synth builds it, before it is written: values may be Terraform tokens, or absent. */
export interface ReadQueryFields {
  readonly kind: ReadQuery['kind'];
  readonly [field: string]: string | undefined;
}

/** A typed resource's policy: `projects/{project}/locations/{location}/{collection}/{id}`; no project means the provider's default. */
export function locatedPolicyQuery(
  type: { readonly service: string; readonly apiVersion: string; readonly nameFormat: ResourceNameFormat },
  where: { readonly project?: string; readonly location: string; readonly id: string },
  version: string,
): ReadQueryFields {
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
export function namedPolicyQuery(resource: IamResource, version: string): ReadQueryFields {
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
): ReadQueryFields {
  return {
    kind: 'importJob',
    collection: IMPORT_JOB.collection,
    project: where.project,
    location: where.location,
    id: where.importJobId,
    view,
  };
}

/**
 * The query as written, for both forms: absent fields left out, and `label`
 * (the reading construct's path, for messages) last. The Output form escapes
 * each value for Terraform's templates; the Direct form writes it as JSON.
 */
export function serializeReadQuery(fields: ReadQueryFields, label?: string): Record<string, string> {
  return Object.fromEntries(Object.entries({ ...fields, label }).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Where the resource read is: its full name, or where it is and the collection, its name built by the provider. */
export type ReadTarget =
  { readonly name: string } | { readonly collection: string; readonly project?: string; readonly location: string; readonly id: string };

/** A read of a resource's IAM policy. */
export interface IamPolicyRead {
  readonly kind: 'iamPolicy';
  /** The construct that reads, for messages. */
  readonly label?: string;
  readonly service: string;
  readonly apiVersion: string;
  readonly getIamPolicyMethod?: GetIamPolicyShape;
  readonly target: ReadTarget;
  /** The policy version to request; 3 unless the query says. */
  readonly version: PolicyVersion;
}

/** A read of a Migration Center import job. */
export interface ImportJobRead {
  readonly kind: 'importJob';
  readonly label?: string;
  readonly target: Extract<ReadTarget, { readonly collection: string }>;
  /** `IMPORT_JOB_VIEW_*`; Google's default when absent. */
  readonly view?: string;
}

/** A read query, parsed. */
export type ReadQuery = IamPolicyRead | ImportJobRead;

const reader = new MessageReader('read query');

/**
 * Parses a read query, checked by the validators the lookups run at synth
 * (service, API version and name against Google's published API, project,
 * location and id, policy version, view): a value Terraform resolved is
 * refused here as the construct would have refused it, naming the construct.
 */
export function parseReadQuery(json: string): ReadQuery {
  const query = reader.object(reader.json(json), 'the query');
  const fields: Record<string, string | undefined> = {};
  for (const [field, value] of Object.entries(query)) {
    // `external` passes strings only; an empty one is an absent value.
    fields[field] = reader.string(value, field) || undefined;
  }
  const label = fields.label;
  try {
    return queryOf(fields, label);
  } catch (error) {
    throw error instanceof ContractError ? error.from(label) : error;
  }
}

function queryOf(fields: Record<string, string | undefined>, label: string | undefined): ReadQuery {
  const kind = reader.oneOf(fields.kind, 'kind', ['iamPolicy', 'importJob'] as const);
  const withLabel = label === undefined ? {} : { label };
  if (kind === 'importJob') {
    const target = locatedTarget(fields);
    const view = fields.view;
    reader.check(() => validateImportJobView(view));
    return { kind, ...withLabel, target, ...(view === undefined ? {} : { view }) };
  }
  const service = reader.text(fields.service, 'service');
  const apiVersion = reader.text(fields.apiVersion, 'apiVersion');
  const method = fields.getIamPolicyMethod;
  const target: ReadTarget = fields.name === undefined ? locatedTarget(fields) : { name: fields.name };
  const name = 'name' in target ? target.name : undefined;
  const version = fields.version === undefined ? 3 : /^[0-9]+$/.test(fields.version) ? Number(fields.version) : fields.version;
  return reader.check(() => {
    // A located resource's name is built, and checked, by the runner (its project may be the default one): unknown here.
    const known = (value: unknown) => value !== undefined;
    if (method !== undefined) validateGetIamPolicyMethod(method);
    // Its advice names the constructs' property, the one a user sets.
    validateIamResource({ service, apiVersion, name: name as string, getIamPolicyMethod: method }, known, '', 'policyReadMethod');
    validatePolicyVersion(version);
    return {
      kind,
      ...withLabel,
      service,
      apiVersion,
      ...(method === undefined ? {} : { getIamPolicyMethod: method }),
      target,
      version: version ?? 3, // checked above: the default when absent
    };
  });
}

/** `collection`, `location`, `id` and an optional `project`, checked as the lookups check them at synth. */
function locatedTarget(fields: Record<string, string | undefined>): Extract<ReadTarget, { readonly collection: string }> {
  const collection = reader.text(fields.collection, 'collection');
  if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(collection)) {
    throw ContractError.shape('read query', 'collection', collection, 'expected the name of a collection, such as addressGroups');
  }
  const project = fields.project;
  const location = reader.text(fields.location, 'location');
  const id = reader.text(fields.id, 'id');
  reader.check(() => validateLocatedResource({ project, location, id, idField: 'id' }));
  return { collection, ...(project === undefined ? {} : { project }), location, id };
}
