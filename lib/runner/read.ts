import { GoogleRestClient } from '../api/client';
import { defaultProject, PROJECT_VARIABLES } from '../api/credentials';
import { CredentialsError, GoogleApiError } from '../api/errors';
import { IamPolicyApi } from '../api/iam-policy';
import { importJobFromWire } from '../api/import-job-result-wire';
import { ImportJobsApi } from '../api/import-jobs';
import { retrying } from '../api/retrying';
import { retrySchedule } from '../api/retry-policy';
import { iamPolicyFromWire } from '../api/policy-result-wire';
import { ContractError } from '../contract/contract-error';
import type { LookupAnswer } from '../contract/lookup-answer';
import { parseReadQuery, type ReadQuery, type ReadTarget } from '../contract/read-query';
import { IamValidationError } from '../iam/errors';
import { validateProjectId } from '../iam/resource-name';

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
  const { name, project } = await resourceName(query.target, env);
  if (query.kind === 'iamPolicy') {
    const api = new IamPolicyApi(client, query);
    const { value: raw } = await retrying(() => api.getIamPolicy(name, query.version), retry);
    return { name, project, raw, value: iamPolicyFromWire(raw) };
  }
  const jobs = new ImportJobsApi(client);
  const { value: raw } = await retrying(() => jobs.get(name, query.view), retry);
  return { name, project, raw, value: importJobFromWire(raw) };
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

/**
 * Runs one Direct-form read and answers it; never throws for an error of the
 * read itself. A query refused for one of its values is answered as a refused
 * argument, as the lookup would have refused it.
 */
export async function runLookup(json: string, env: NodeJS.ProcessEnv): Promise<LookupAnswer> {
  try {
    const { value, project } = await readTyped(parseReadQuery(json), env);
    return { value, project };
  } catch (error) {
    if (error instanceof CredentialsError) {
      return { error: { kind: 'credentials', httpStatus: error.httpStatus, apiMessage: error.apiMessage } };
    }
    if (error instanceof GoogleApiError) {
      return { error: { kind: 'google', httpStatus: error.httpStatus, status: error.status, apiMessage: error.apiMessage } };
    }
    if (error instanceof IamValidationError || (error instanceof ContractError && error.kind === 'value')) {
      return { error: { kind: 'argument', field: error.field, value: error.value, reason: error.reason } };
    }
    return { error: { kind: 'other', message: (error as Error).message } };
  }
}

/** The resource's name: as the query gives it, or built in the runner's default project when the query names none. */
async function resourceName(target: ReadTarget, env: NodeJS.ProcessEnv): Promise<{ name: string; project: string }> {
  if ('name' in target) return { name: target.name, project: target.name.split('/')[1] ?? '' };
  const project = target.project ?? (await defaultProject(env));
  if (!project) {
    throw new IamValidationError(
      'project',
      project,
      `no project given and none configured; pass project, or set one of ${PROJECT_VARIABLES.join(', ')}`,
    );
  }
  validateProjectId(project, 'project');
  return { name: `projects/${project}/locations/${target.location}/${target.collection}/${target.id}`, project };
}
