import { invalidArgument, notFound } from './api-error';

const VIEWS = ['IMPORT_JOB_VIEW_UNSPECIFIED', 'IMPORT_JOB_VIEW_BASIC', 'IMPORT_JOB_VIEW_FULL'];
/** Left out of the basic view (Google's default, for no view or IMPORT_JOB_VIEW_UNSPECIFIED, is the full view). */
const FULL_VIEW_ONLY = ['executionReport', 'validationReport'];

/** Migration Center import jobs, kept as wire JSON (unknown fields included, as the API may add some). */
export class ImportJobStore {
  private readonly jobs = new Map<string, Record<string, unknown>>();

  public add(job: Record<string, unknown>): void {
    if (typeof job.name !== 'string') throw new Error('an import job needs its full resource name in `name`');
    this.jobs.set(job.name, JSON.parse(JSON.stringify(job)) as Record<string, unknown>);
  }

  public get(name: string, view: string | null): Record<string, unknown> {
    if (view !== null && !VIEWS.includes(view)) {
      throw invalidArgument(`Invalid value at 'view' (type.googleapis.com/google.cloud.migrationcenter.v1alpha1.ImportJobView), "${view}"`);
    }
    const job = this.jobs.get(name);
    if (!job) throw notFound(`Resource '${name}' was not found`);
    if (view !== 'IMPORT_JOB_VIEW_BASIC') return job;
    return Object.fromEntries(Object.entries(job).filter(([key]) => !FULL_VIEW_ONLY.includes(key)));
  }
}
