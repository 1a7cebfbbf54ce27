import { IamPolicyApi } from '../../api/iam-policy';
import { importJobFromWire } from '../../api/import-job-result-wire';
import { ImportJobsApi } from '../../api/import-jobs';
import { iamPolicyFromWire } from '../../api/policy-result-wire';
import { retrying } from '../../api/retrying';
import { PROJECT_VARIABLES } from '../../api/project-variables';
import type { ReadQuery, ReadTarget } from '../../contract/read-query';
import { IamValidationError } from '../../iam/errors';
import { validateProjectId } from '../../iam/resource-name';
import type { GoogleIamContext } from '../provider-context';

/** One read, typed: the resource's name and project, Google's answer, and the value the lookups return. */
export interface GoogleRead {
  readonly name: string;
  readonly project: string;
  /** The answer as the API returned it. */
  readonly raw: unknown;
  /** What the Direct form returns (an IamPolicy or an ImportJob, lib/api). */
  readonly value: object;
}

/**
 * The one read path of the data sources and the Direct-form lookup mode:
 * the provider's client (its credentials, endpoint overrides), the `read`
 * retry budget, and the values mapped once, by lib/api, so both forms see the same shapes.
 */
export async function readGoogle(query: ReadQuery, context: GoogleIamContext): Promise<GoogleRead> {
  const { name, project } = await resourceName(query.target, context);
  if (query.kind === 'iamPolicy') {
    const api = new IamPolicyApi(context.client, { ...query, name });
    const { value: raw } = await retrying(() => api.getIamPolicy(query.version), context.readRetry);
    return { name, project, raw, value: iamPolicyFromWire(raw) };
  }
  const jobs = new ImportJobsApi(context.client);
  const { value: raw } = await retrying(() => jobs.get(name, query.view), context.readRetry);
  return { name, project, raw, value: importJobFromWire(raw) };
}

/** The resource's name: as the query gives it, or built in the default project when the query names none. */
async function resourceName(target: ReadTarget, context: GoogleIamContext): Promise<{ name: string; project: string }> {
  if ('name' in target) return { name: target.name, project: target.name.split('/')[1] ?? '' };
  const project = target.project ?? (await context.defaultProject());
  if (!project) {
    throw new IamValidationError(
      'project',
      project,
      `no project given and none configured; set project here or in the provider block, or set one of ${PROJECT_VARIABLES.join(', ')}`,
    );
  }
  validateProjectId(project, 'project');
  return { name: `projects/${project}/locations/${target.location}/${target.collection}/${target.id}`, project };
}
