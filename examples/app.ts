/**
 * The example app: what a user of cdktf-google-iam writes.
 *
 * - Stack `iam-grants` deploys with no provider plugin at all: its grants
 *   are `terraform_data` resources whose provisioners run the bundled runner.
 * - Stack `iam-lookups` reads an address group's IAM policy and an import job
 *   at plan time (Output form); it needs the google and http providers.
 * - The Direct form (`GoogleLookups`) runs while synthesizing and decides what
 *   to synthesize: the migration operators only get their binding once the
 *   inventory import job has COMPLETED.
 */
import { App, TerraformOutput, TerraformStack } from 'cdktf';
import {
  AuthorizationPolicyIamMember,
  DataAddressGroupIamPolicy,
  DataImportJob,
  GoogleLookups,
  MigrationJobIamBinding,
} from '../lib';

export const PROJECT = 'demo-project';
export const AUTHORIZATION_POLICY = `projects/${PROJECT}/locations/global/authorizationPolicies/internal-apis`;
export const MIGRATION_JOB = `projects/${PROJECT}/locations/us-central1/migrationJobs/orders-db`;
export const ADDRESS_GROUP = { project: PROJECT, location: 'global', addressGroupId: 'office-ranges' };
export const IMPORT_JOB = { project: PROJECT, location: 'us-central1', importJobId: 'inventory-2026' };

export async function buildExampleApp(outdir?: string): Promise<App> {
  const app = new App(outdir ? { outdir } : {});

  const grants = new TerraformStack(app, 'iam-grants');
  new AuthorizationPolicyIamMember(grants, 'ApiReaders', {
    name: AUTHORIZATION_POLICY,
    role: 'roles/networksecurity.authorizationPolicyViewer',
    member: 'group:api-readers@example.com',
  });
  new AuthorizationPolicyIamMember(grants, 'OnCallUntilNewYear', {
    name: AUTHORIZATION_POLICY,
    role: 'roles/networksecurity.authorizationPolicyAdmin',
    member: 'user:oncall@example.com',
    condition: {
      title: 'until-new-year',
      description: 'Temporary admin for the December freeze',
      expression: 'request.time < timestamp("2027-01-01T00:00:00Z")',
    },
  });
  new MigrationJobIamBinding(grants, 'DmsViewers', {
    name: MIGRATION_JOB,
    role: 'roles/datamigration.viewer',
    members: ['user:alice@example.com', 'serviceAccount:reporting@demo-project.iam.gserviceaccount.com'],
  });

  // Direct form: decide at synth time from live data.
  const job = await new GoogleLookups({ project: PROJECT }).getImportJob({ ...IMPORT_JOB, view: 'IMPORT_JOB_VIEW_BASIC' });
  if (job.state === 'IMPORT_JOB_STATE_COMPLETED') {
    new MigrationJobIamBinding(grants, 'MigrationOperators', {
      name: MIGRATION_JOB,
      role: 'roles/datamigration.admin',
      members: ['group:migration-operators@example.com'],
    });
  }

  // Output form: read at plan time; attributes are Terraform expressions.
  const lookups = new TerraformStack(app, 'iam-lookups');
  const policy = new DataAddressGroupIamPolicy(lookups, 'OfficeRangesPolicy', { ...ADDRESS_GROUP, optionsRequestedPolicyVersion: 3 });
  const importJob = new DataImportJob(lookups, 'Inventory', { ...IMPORT_JOB, view: 'IMPORT_JOB_VIEW_FULL' });
  new TerraformOutput(lookups, 'address_group_policy_etag', { value: policy.etag });
  new TerraformOutput(lookups, 'import_job_state', { value: importJob.state });

  return app;
}
