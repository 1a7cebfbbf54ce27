import type { LookupAnswer } from '../contract/lookup-answer';
import { GoogleRestClient } from '../api/client';
import { CredentialsError, GoogleApiError } from '../api/errors';
import { defaultProject, PROJECT_VARIABLES } from '../api/credentials';
import { GET_IAM_POLICY_SHAPES, type GetIamPolicyShape } from '../api/iam-apis';
import { IamPolicyApi } from '../api/iam-policy';
import { ImportJobsApi } from '../api/import-jobs';
import { retrying } from '../api/retrying';
import { retrySchedule } from '../api/retry-policy';
import { IamValidationError } from '../iam/errors';
import { validateLocatedResource, validatePolicyVersion } from '../iam/located-resource';
import { validateImportJobView } from '../migrationcenter/import-job-view';
import { validateProjectId } from '../iam/resource-name';
import { iamPolicyFromWire } from '../api/policy-result-wire';
import { importJobFromWire } from '../migrationcenter/import-job-wire';
import { RunnerErrors } from './errors';

/**
 * A plan-time read, as Terraform's `external` data source hands it to the
 * runner on stdin: a flat JSON object of strings (what `external` allows).
 * The resource is either `name` (a full resource name) or `collection`,
 * `location`, `id` and an optional `project` (else the runner's default
 * project, as the Direct-form lookups find it).
 */
export interface ReadQuery {
  readonly kind: 'iamPolicy' | 'importJob';
  /** The construct that reads, for messages. */
  readonly label?: string;
  readonly service?: string;
  readonly apiVersion?: string;
  readonly getIamPolicyMethod?: string;
  readonly name?: string;
  readonly collection?: string;
  readonly project?: string;
  readonly location?: string;
  readonly id?: string;
  /** iamPolicy: the policy version to request (`0`, `1` or `3`). */
  readonly version?: string;
  /** importJob: `IMPORT_JOB_VIEW_*`. */
  readonly view?: string;
}

/** What `external` hands back to Terraform: a flat map of strings; lists and objects travel as JSON text. */
export type ReadResult = Record<string, string>;

/** One read, typed: the resource's name and project, Google's answer, and the value the lookups return. */
export interface TypedRead {
  readonly name: string;
  readonly project: string;
  /** The answer as the API returned it. */
  readonly raw: unknown;
  /** What the Direct form returns (an IamPolicy or an ImportJob). */
  readonly value: object;
}

/**
 * Reads Google for either form of the lookups: the same credentials, endpoint
 * overrides and client as the grants, so the access token never leaves this
 * process, and the same retries of transient failures, within a read's budget
 * (retry-policy.ts). Values are mapped once, here, so both forms see the same shapes.
 */
export async function readTyped(query: ReadQuery, env: NodeJS.ProcessEnv): Promise<TypedRead> {
  const client = new GoogleRestClient({ env });
  const retry = retrySchedule('read', env);
  const { name, project } = await resourceName(query, env);
  if (query.kind === 'iamPolicy') {
    const version = query.version === undefined || query.version === '' ? 3 : Number(query.version);
    validatePolicyVersion(version);
    const api = new IamPolicyApi(client, {
      service: required(query.service, 'service'),
      apiVersion: required(query.apiVersion, 'apiVersion'),
      getIamPolicyMethod: method(query.getIamPolicyMethod),
    });
    const { value: raw } = await retrying(() => api.getIamPolicy(name, version), retry);
    return { name, project, raw, value: iamPolicyFromWire(raw) };
  }
  if (query.kind === 'importJob') {
    const view = query.view || undefined;
    validateImportJobView(view);
    const jobs = new ImportJobsApi(client);
    const { value: raw } = await retrying(() => jobs.get(name, view), retry);
    return { name, project, raw, value: importJobFromWire(raw) };
  }
  throw RunnerErrors.malformedQuery(`unknown read kind ${JSON.stringify((query as { kind?: unknown }).kind)}`);
}

/**
 * The Output form's read, for the `external` data source: only the query and
 * this flat map of strings (no credential in either) reach Terraform's plan
 * and state; lists and objects travel as JSON text.
 */
export async function runRead(query: ReadQuery, env: NodeJS.ProcessEnv): Promise<ReadResult> {
  const { name, project, raw, value } = await readTyped(query, env);
  const result: ReadResult = query.kind === 'iamPolicy' ? { project, name } : { project };
  for (const [field, fieldValue] of Object.entries(value)) {
    result[field] = typeof fieldValue === 'string' ? fieldValue : JSON.stringify(fieldValue);
  }
  result.body = JSON.stringify(raw);
  return result;
}

/** Runs one Direct-form read and answers it; never throws for an error of the read itself. */
export async function runLookup(query: ReadQuery, env: NodeJS.ProcessEnv): Promise<LookupAnswer> {
  try {
    const { value, project } = await readTyped(query, env);
    return { value, project };
  } catch (error) {
    if (error instanceof CredentialsError) {
      return { error: { kind: 'credentials', httpStatus: error.httpStatus, apiMessage: error.apiMessage } };
    }
    if (error instanceof GoogleApiError) {
      return { error: { kind: 'google', httpStatus: error.httpStatus, status: error.status, apiMessage: error.apiMessage } };
    }
    if (error instanceof IamValidationError) {
      return { error: { kind: 'argument', field: error.field, value: error.value, reason: error.reason } };
    }
    return { error: { kind: 'other', message: (error as Error).message } };
  }
}

/** Checks the query's shape: `external` guarantees strings, the rest is ours to check. */
export function parseReadQuery(json: string): ReadQuery {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw RunnerErrors.queryNotJson((e as Error).message);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw RunnerErrors.malformedQuery('it must be a JSON object of strings');
  }
  return value as ReadQuery;
}

async function resourceName(query: ReadQuery, env: NodeJS.ProcessEnv): Promise<{ name: string; project: string }> {
  if (query.name) return { name: query.name, project: query.name.split('/')[1] ?? '' };
  const location = required(query.location, 'location');
  const id = required(query.id, 'id');
  validateLocatedResource({ project: query.project || undefined, location, id, idField: 'id' });
  const project = query.project || (await defaultProject(env));
  if (!project) {
    throw new IamValidationError(
      'project',
      project,
      `no project given and none configured; pass project, or set one of ${PROJECT_VARIABLES.join(', ')}`,
    );
  }
  validateProjectId(project, 'project');
  return { name: `projects/${project}/locations/${location}/${required(query.collection, 'collection')}/${id}`, project };
}

function required(value: string | undefined, field: string): string {
  if (!value) throw new IamValidationError(field, value, 'is required');
  return value;
}

function method(value: string | undefined): GetIamPolicyShape | undefined {
  if (value === undefined || value === '') return undefined;
  if (!GET_IAM_POLICY_SHAPES.includes(value as GetIamPolicyShape))
    throw new IamValidationError('getIamPolicyMethod', value, `expected ${GET_IAM_POLICY_SHAPES.join(', ')}`);
  return value as GetIamPolicyShape;
}
