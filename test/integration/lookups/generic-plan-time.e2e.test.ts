/**
 * The Output form of the new policy lookups under the real `terraform`:
 * DataGoogleIamPolicy on an API with a GET getIamPolicy (Secret Manager) and
 * one with a POST (Resource Manager v3), and the authorization policy and
 * migration job lookups, read at plan time by the provider's data sources.
 */
import { TerraformOutput } from 'cdktf';
import { DataAuthorizationPolicyIamPolicy, DataGoogleIamPolicy, DataMigrationJobIamPolicy } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv } from '../../support/grant-env';
import { workspacesOfThisFile } from '../../support/terraform';

jest.setTimeout(240_000);

const PROJECT = 'plan-project';
const SECRET = `projects/${PROJECT}/secrets/db-password`;
const PROJECT_NAME = `projects/${PROJECT}`;
const AP = `projects/${PROJECT}/locations/global/authorizationPolicies/ap`;
const MJ = `projects/${PROJECT}/locations/us-central1/migrationJobs/mj`;
const CONDITION = { title: 'weekdays', description: 'office', expression: 'request.time.getDayOfWeek("Europe/Berlin") < 5' };
const AUDIT = [{ service: 'allServices', auditLogConfigs: [{ logType: 'ADMIN_READ', exemptedMembers: ['user:quiet@example.com'] }] }];

let emulator: GoogleApiEmulator;
let env: Record<string, string>;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  env = grantEnv(emulator, {
    ...emulator.env(GoogleApiEmulator.ACCESS_TOKEN, ['secretmanager', 'cloudresourcemanager']),
    GOOGLE_CLOUD_PROJECT: PROJECT,
  });
  emulator.addResource(SECRET, {
    version: 3,
    bindings: [
      {
        role: 'roles/secretmanager.secretAccessor',
        members: ['serviceAccount:app@plan-project.iam.gserviceaccount.com'],
        condition: CONDITION,
      },
    ],
  });
  emulator.addResource(PROJECT_NAME, { bindings: [{ role: 'roles/owner', members: ['user:owner@example.com'] }], auditConfigs: AUDIT });
  emulator.addResource(AP, { bindings: [{ role: 'roles/networksecurity.viewer', members: ['user:a@example.com'] }] });
  emulator.addResource(MJ, { bindings: [{ role: 'roles/datamigration.editor', members: ['group:dba@example.com'] }] });
});
afterAll(async () => {
  await emulator.close();
});

test("any resource's policy (GET and POST APIs), an authorization policy's and a migration job's, read at plan time", async () => {
  const ws = await workspace((s) => {
    const secret = new DataGoogleIamPolicy(s, 'Secret', { resource: { service: 'secretmanager', apiVersion: 'v1', name: SECRET } });
    const project = new DataGoogleIamPolicy(s, 'Project', {
      resource: { service: 'cloudresourcemanager', apiVersion: 'v3', name: PROJECT_NAME },
    });
    const ap = new DataAuthorizationPolicyIamPolicy(s, 'Ap', { authorizationPolicyId: 'ap', location: 'global' });
    const mj = new DataMigrationJobIamPolicy(s, 'Mj', { migrationJobId: 'mj', location: 'us-central1', project: PROJECT });
    new TerraformOutput(s, 'secret_bindings', { value: secret.bindings });
    new TerraformOutput(s, 'secret_version', { value: secret.version });
    new TerraformOutput(s, 'secret_project', { value: secret.project });
    new TerraformOutput(s, 'project_bindings', { value: project.bindings });
    new TerraformOutput(s, 'project_audit', { value: project.auditConfigs });
    new TerraformOutput(s, 'project_etag', { value: project.etag });
    new TerraformOutput(s, 'ap_bindings', { value: ap.bindings });
    new TerraformOutput(s, 'ap_project', { value: ap.project });
    new TerraformOutput(s, 'mj_bindings', { value: mj.bindings });
  });
  const applied = await ws.apply(env);
  expect({ code: applied.code, output: applied.code === 0 ? '' : applied.output }).toEqual({ code: 0, output: '' });
  const shown = await ws.run(['output', '-json'], env);
  const outputs = Object.fromEntries(
    Object.entries(JSON.parse(shown.stdout) as Record<string, { value: unknown }>).map(([k, v]) => [k, v.value]),
  );

  expect(outputs).toEqual({
    secret_bindings: [
      {
        role: 'roles/secretmanager.secretAccessor',
        members: ['serviceAccount:app@plan-project.iam.gserviceaccount.com'],
        condition: { ...CONDITION, location: null },
      },
    ],
    secret_version: 3,
    secret_project: PROJECT,
    project_bindings: [{ role: 'roles/owner', members: ['user:owner@example.com'], condition: null }],
    // Terraform values, in the data source's (snake_case) attribute names.
    project_audit: [
      { service: 'allServices', audit_log_configs: [{ log_type: 'ADMIN_READ', exempted_members: ['user:quiet@example.com'] }] },
    ],
    project_etag: emulator.policy(PROJECT_NAME).etag,
    ap_bindings: [{ role: 'roles/networksecurity.viewer', members: ['user:a@example.com'], condition: null }],
    ap_project: PROJECT, // the provider's default project (GOOGLE_CLOUD_PROJECT)
    mj_bindings: [{ role: 'roles/datamigration.editor', members: ['group:dba@example.com'], condition: null }],
  });
});

test("a missing resource fails the plan with Google's status and the data source's address", async () => {
  const ws = await workspace((s) => {
    new DataGoogleIamPolicy(s, 'Missing', {
      resource: { service: 'secretmanager', apiVersion: 'v1', name: `projects/${PROJECT}/secrets/gone` },
    });
  });
  const plan = await ws.plan(env);
  expect(plan.code).toBe(1);
  const text = plan.output.replace(/\s+/g, ' ');
  expect(text).toMatch(/data\.googleiam_iam_policy\.Missing/);
  expect(text).toMatch(/NOT_FOUND/);
  expect(text).toMatch(/secrets\/gone' was not found/);
});
