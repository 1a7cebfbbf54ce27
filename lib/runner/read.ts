import { GoogleRestClient } from '../api/client';
import { defaultProject, PROJECT_VARIABLES } from '../api/credentials';
import { GET_IAM_POLICY_SHAPES, type GetIamPolicyShape } from '../api/iam-apis';
import { IamPolicyApi } from '../api/iam-policy';
import { ImportJobsApi } from '../api/import-jobs';
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

/**
 * Reads Google for the `external` data source: the same credentials, endpoint
 * overrides and client as the grants, so the access token never leaves this
 * process; only the query and the result (no credential in either) reach
 * Terraform's plan and state. Values are mapped exactly as the Direct-form
 * lookups map them, so both forms see the same shapes.
 */
export async function runRead(query: ReadQuery, env: NodeJS.ProcessEnv): Promise<ReadResult> {
  const client = new GoogleRestClient({ env });
  const { name, project } = await resourceName(query, env);
  if (query.kind === 'iamPolicy') {
    const version = query.version === undefined || query.version === '' ? 3 : Number(query.version);
    validatePolicyVersion(version);
    const api = new IamPolicyApi(client, {
      service: required(query.service, 'service'),
      apiVersion: required(query.apiVersion, 'apiVersion'),
      getIamPolicyMethod: method(query.getIamPolicyMethod),
    });
    const raw = await api.getIamPolicy(name, version);
    const policy = iamPolicyFromWire(raw);
    return {
      project,
      name,
      etag: policy.etag,
      version: String(policy.version),
      bindings: JSON.stringify(policy.bindings),
      auditConfigs: JSON.stringify(policy.auditConfigs),
      body: JSON.stringify(raw),
    };
  }
  if (query.kind === 'importJob') {
    const view = query.view || undefined;
    validateImportJobView(view);
    const raw = await new ImportJobsApi(client).get(name, view);
    const job = importJobFromWire(raw);
    const result: ReadResult = { project, body: JSON.stringify(raw) };
    for (const [field, value] of Object.entries(job)) result[field] = typeof value === 'string' ? value : JSON.stringify(value);
    return result;
  }
  throw RunnerErrors.malformedQuery(`unknown read kind ${JSON.stringify((query as { kind?: unknown }).kind)}`);
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
      `no project given and none configured; set project, or one of ${PROJECT_VARIABLES.join(', ')}`,
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
