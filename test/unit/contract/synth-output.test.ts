/**
 * What synth hands Terraform (each construct's resource or data source of the googleiam provider, its address and
 * arguments, with Terraform's template escapes; the provider blocks and required_providers) is pinned byte for
 * byte: a changed address or argument replaces or updates every user's grants on upgrade. Regenerate the fixture
 * (UPDATE_SYNTH_FIXTURE=1) only for a change that is meant, and say so in the changelog.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, TerraformStack, TerraformVariable, Testing } from 'cdktf';
import {
  AddressGroupIamPolicy,
  AuthorizationPolicyIamMember,
  DataAddressGroupIamPolicy,
  DataGoogleIamPolicy,
  DataImportJob,
  GetIamPolicyMethod,
  GoogleIamBinding,
  GoogleIamProvider,
  GoogleIamMember,
  GoogleIamPolicy,
  MigrationJobIamBinding,
} from '../../../lib';

const FIXTURE = path.join(__dirname, 'fixtures', 'representative-app.json');
const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const MJ = 'projects/p-123456/locations/us-central1/migrationJobs/mj';
const ROLE = 'roles/networksecurity.viewer';

/** Member, binding and policy grants; conditions whose text Terraform would read as templates; tokens; lookups; an aliased provider. */
function representativeApp(): App {
  const app = Testing.app();
  const stack = new TerraformStack(app, 'grants');
  const member = new TerraformVariable(stack, 'member', { type: 'string' });
  const secret = new TerraformVariable(stack, 'secret', { type: 'string' });

  new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: ROLE, member: 'user:alice@example.com' });
  const conditional = new AuthorizationPolicyIamMember(stack, 'Conditional', {
    name: AP,
    role: ROLE,
    member: 'group:ops@example.com',
    condition: {
      title: 'until ${end} %{x} "quoted" \\ back',
      description: 'tabs\tand\nlines',
      expression: 'request.time < timestamp("2030-01-01T00:00:00Z") && resource.name.startsWith("${x}")',
    },
  });
  new AuthorizationPolicyIamMember(stack, 'FromVariable', { name: AP, role: ROLE, member: member.stringValue });
  new MigrationJobIamBinding(stack, 'Viewers', {
    name: MJ,
    role: 'roles/datamigration.editor',
    members: ['user:a@example.com', 'group:g@example.com'],
  });
  new AddressGroupIamPolicy(stack, 'Owned', {
    name: 'projects/p-123456/locations/global/addressGroups/owned',
    bindings: [
      { role: 'roles/compute.networkUser', members: ['user:a@example.com'] },
      {
        role: 'roles/compute.networkUser',
        members: ['serviceAccount:sa@p-123456.iam.gserviceaccount.com'],
        condition: { title: 't', expression: 'true' },
      },
    ],
  });
  new GoogleIamPolicy(stack, 'Project', {
    resource: { service: 'cloudresourcemanager', apiVersion: 'v1', name: 'projects/p-123456' },
    bindings: [{ role: 'roles/browser', members: ['domain:example.com'] }],
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:a@example.com'] }] }],
  });
  new GoogleIamBinding(stack, 'Model', {
    resource: { service: 'aiplatform', apiVersion: 'v1', name: 'projects/p-123456/locations/us-central1/models/m' },
    role: 'roles/aiplatform.user',
    members: ['user:a@example.com'],
  });
  new GoogleIamMember(stack, 'ForcedPost', {
    resource: {
      service: 'secretmanager',
      apiVersion: 'v1',
      name: 'projects/p-123456/secrets/s',
      policyReadMethod: GetIamPolicyMethod.POST,
    },
    role: 'roles/secretmanager.secretAccessor',
    member: 'user:a@example.com',
  });
  new GoogleIamMember(stack, 'TokenName', {
    resource: { service: 'secretmanager', apiVersion: 'v1', name: secret.stringValue },
    role: 'roles/secretmanager.secretAccessor',
    member: 'user:a@example.com',
  });
  new DataAddressGroupIamPolicy(stack, 'AgPolicy', {
    addressGroupId: 'ag',
    location: 'global',
    project: 'p-123456',
    optionsRequestedPolicyVersion: 1,
  });
  new DataImportJob(stack, 'Job', { importJobId: 'job', location: 'us-central1', view: 'IMPORT_JOB_VIEW_FULL' });
  new DataGoogleIamPolicy(stack, 'Generic', {
    resource: { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p-123456/secrets/s' },
  });
  new AuthorizationPolicyIamMember(stack, 'DependsOnEtag', { name: AP, role: ROLE, member: `user:${conditional.etag}@example.com` });

  const other = new TerraformStack(app, 'other');
  const admin = new GoogleIamProvider(other, 'Admin', {
    alias: 'admin',
    impersonateServiceAccount: 'admin@p-123456.iam.gserviceaccount.com',
  });
  new MigrationJobIamBinding(other, 'Admins', {
    name: MJ,
    role: 'roles/datamigration.admin',
    members: ['user:b@example.com'],
    provider: admin,
  });
  return app;
}

/** Each stack's cdk.tf.json as `cdktf synth` writes it, with the folder the app runs in (the local backend's path) left out. */
function synthesized(): Record<string, unknown> {
  const app = representativeApp();
  app.synth();
  return Object.fromEntries(
    ['grants', 'other'].map((stack) => [
      stack,
      JSON.parse(
        fs
          .readFileSync(path.join(app.outdir, 'stacks', stack, 'cdk.tf.json'), 'utf8')
          .split(`"${process.cwd()}/`)
          .join('"<cwd>/'),
      ),
    ]),
  );
}

test('the configuration synth writes is byte-identical to what this release pinned', () => {
  const now = `${JSON.stringify(synthesized(), null, 1)}\n`;
  if (process.env.UPDATE_SYNTH_FIXTURE === '1') fs.writeFileSync(FIXTURE, now);
  expect(now).toBe(fs.readFileSync(FIXTURE, 'utf8'));
});
