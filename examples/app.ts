/**
 * The example app: what a user of cdktf-google-iam writes.
 *
 * - Stack `iam-grants`: grants. Each is a resource of the library's own
 *   `googleiam` provider, which synth lays out in the stack's folder;
 *   `terraform plan` refreshes them from Google, so drift shows as a change.
 * - Stack `iam-lookups` reads an address group's IAM policy and an import job
 *   at plan time (Output form), through the same provider's data sources.
 * - The Direct form (`GoogleLookups`) runs while synthesizing and decides what
 *   to synthesize: the migration operators only get their binding once the
 *   inventory import job has COMPLETED.
 * - Google's IAM security rules check every grant (`GoogleIamChecks`): an
 *   error would fail synth; each stack's folder gets iam-report.md (who gets
 *   what), iam-report.json and iam-report.sarif.
 */
import * as path from 'path';
import { App, Aspects, LocalBackend, TerraformOutput, TerraformStack } from 'cdktf';
import {
  AuthorizationPolicyIamMember,
  DataAddressGroupIamPolicy,
  DataImportJob,
  GoogleIamChecks,
  GoogleLookups,
  MigrationJobIamBinding,
} from '../lib';

export const PROJECT = 'demo-project';
export const AUTHORIZATION_POLICY = `projects/${PROJECT}/locations/global/authorizationPolicies/internal-apis`;
export const MIGRATION_JOB = `projects/${PROJECT}/locations/us-central1/migrationJobs/orders-db`;
export const ADDRESS_GROUP = { project: PROJECT, location: 'global', addressGroupId: 'office-ranges' };
export const IMPORT_JOB = { project: PROJECT, location: 'us-central1', importJobId: 'inventory-2026' };
/** The Direct-form lookup's result, committed (an app's is `cdktf-google-iam.context.json` beside its `cdktf.json`). */
export const EXAMPLE_CONTEXT_FILE = path.join(__dirname, 'cdktf-google-iam.context.json');

export interface ExampleOptions {
  /** Where cdktf writes the stacks. @default cdktf's default, ./cdktf.out */
  readonly outdir?: string;
  /** Keep each stack's local Terraform state in this folder. @default cdktf's default, ./terraform.<stack>.tfstate */
  readonly stateDir?: string;
}

export async function buildExampleApp(options: ExampleOptions = {}): Promise<App> {
  const app = new App(options.outdir ? { outdir: options.outdir } : {});
  // Members only from the company's domain and the project's service accounts (docs/checks.md).
  Aspects.of(app).add(new GoogleIamChecks({ allowedMemberDomains: ['example.com', `${PROJECT}.iam.gserviceaccount.com`] }));
  const stack = (name: string) => {
    const created = new TerraformStack(app, name);
    if (options.stateDir) new LocalBackend(created, { path: `${options.stateDir}/terraform.${name}.tfstate` });
    return created;
  };

  const grants = stack('iam-grants');
  new AuthorizationPolicyIamMember(grants, 'ApiReaders', {
    name: AUTHORIZATION_POLICY,
    role: 'roles/networksecurity.viewer',
    member: 'group:api-readers@example.com',
  });
  new AuthorizationPolicyIamMember(grants, 'OnCallUntilNewYear', {
    name: AUTHORIZATION_POLICY,
    role: 'roles/networksecurity.admin',
    member: 'user:oncall@example.com',
    condition: {
      title: 'until-new-year',
      description: 'Temporary admin for the December freeze',
      expression: 'request.time < timestamp("2027-01-01T00:00:00Z")',
    },
  });
  new MigrationJobIamBinding(grants, 'DmsEditors', {
    name: MIGRATION_JOB,
    role: 'roles/datamigration.editor',
    members: ['user:alice@example.com', 'serviceAccount:reporting@demo-project.iam.gserviceaccount.com'],
  });

  // Direct form: decide at synth time from Google's data, kept in the example's context file (read afresh
  // with CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS=*), so synth is repeatable and needs no Google.
  const job = new GoogleLookups({ project: PROJECT, contextFile: EXAMPLE_CONTEXT_FILE }).getImportJob({
    ...IMPORT_JOB,
    view: 'IMPORT_JOB_VIEW_BASIC',
  });
  if (job.state === 'IMPORT_JOB_STATE_COMPLETED') {
    new MigrationJobIamBinding(grants, 'MigrationOperators', {
      name: MIGRATION_JOB,
      role: 'roles/datamigration.admin',
      members: ['group:migration-operators@example.com'],
    });
  }

  // Output form: read at plan time; attributes are Terraform expressions.
  const lookups = stack('iam-lookups');
  const policy = new DataAddressGroupIamPolicy(lookups, 'OfficeRangesPolicy', { ...ADDRESS_GROUP, optionsRequestedPolicyVersion: 3 });
  const importJob = new DataImportJob(lookups, 'Inventory', { ...IMPORT_JOB, view: 'IMPORT_JOB_VIEW_FULL' });
  new TerraformOutput(lookups, 'address_group_policy_etag', { value: policy.etag });
  new TerraformOutput(lookups, 'address_group_bindings', { value: policy.bindings });
  new TerraformOutput(lookups, 'import_job_state', { value: importJob.state });
  new TerraformOutput(lookups, 'import_job_report', { value: importJob.executionReport });

  return app;
}
