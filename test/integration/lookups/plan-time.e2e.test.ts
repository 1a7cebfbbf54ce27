/**
 * Plan-time reads under the real `terraform`, offline: the Output-form
 * lookups are data sources of the library's provider (synth laid it out),
 * which talks to the emulator over HTTP. The access token must appear in no
 * plan and no state.
 */
import * as fs from 'fs';
import * as path from 'path';
import { TerraformOutput, TerraformStack, TerraformVariable } from 'cdktf';
import { AuthorizationPolicyIamMember, DataAddressGroupIamPolicy, DataImportJob } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv } from '../../support/grant-env';
import { TerraformWorkspace, workspacesOfThisFile } from '../../support/terraform';

jest.setTimeout(240_000);

const PROJECT = 'demo-project';
const TOKEN = 'ya29.plan-time-secret-token-0123456789';
const AG = `projects/${PROJECT}/locations/global/addressGroups/office`;
const AP = `projects/${PROJECT}/locations/global/authorizationPolicies/etag`;
const JOB = `projects/${PROJECT}/locations/us-central1/importJobs/inventory`;
const OFFICE_HOURS = { title: 'office-hours', description: 'weekdays', expression: 'request.time.getHours("Europe/Berlin") >= 8' };

let emulator: GoogleApiEmulator;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(AG, {
    version: 3,
    bindings: [
      { role: 'roles/compute.networkUser', members: ['group:network@example.com'], condition: OFFICE_HOURS },
      { role: 'roles/compute.networkViewer', members: ['user:viewer@example.com'] },
    ],
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:quiet@example.com'] }] }],
  });
  emulator.addImportJob({
    name: JOB,
    displayName: 'Inventory',
    state: 'IMPORT_JOB_STATE_COMPLETED',
    labels: { team: 'migration' },
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://inventory/rvtools.csv' },
    executionReport: { framesReported: 412, totalRowsCount: 412 },
    futureField: 'ignored',
  });
});
afterAll(async () => {
  await emulator.close();
});

/** `terraform apply` then the outputs, decoded. */
async function outputsOf(ws: TerraformWorkspace, env: Record<string, string>): Promise<Record<string, unknown>> {
  const applied = await ws.apply(env);
  expect({ code: applied.code, output: applied.code === 0 ? '' : applied.output }).toEqual({ code: 0, output: '' });
  const shown = await ws.run(['output', '-json'], env);
  return Object.fromEntries(Object.entries(JSON.parse(shown.stdout) as Record<string, { value: unknown }>).map(([k, v]) => [k, v.value]));
}

test('the address group policy at versions 3 and 1, and the import job in both views', async () => {
  const ws = await workspace((s) => {
    const v3 = new DataAddressGroupIamPolicy(s, 'V3', { addressGroupId: 'office', location: 'global', project: PROJECT });
    const v1 = new DataAddressGroupIamPolicy(s, 'V1', { addressGroupId: 'office', location: 'global', optionsRequestedPolicyVersion: 1 });
    const full = new DataImportJob(s, 'Full', {
      importJobId: 'inventory',
      location: 'us-central1',
      project: PROJECT,
      view: 'IMPORT_JOB_VIEW_FULL',
    });
    const basic = new DataImportJob(s, 'Basic', { importJobId: 'inventory', location: 'us-central1', view: 'IMPORT_JOB_VIEW_BASIC' });
    new TerraformOutput(s, 'v3_bindings', { value: v3.bindings });
    new TerraformOutput(s, 'v3_version', { value: v3.version });
    new TerraformOutput(s, 'v3_audit', { value: v3.auditConfigs });
    new TerraformOutput(s, 'v3_etag', { value: v3.etag });
    new TerraformOutput(s, 'v1_roles', { value: v1.bindings });
    new TerraformOutput(s, 'v1_project', { value: v1.project });
    new TerraformOutput(s, 'full_state', { value: full.state });
    new TerraformOutput(s, 'full_report', { value: full.executionReport });
    new TerraformOutput(s, 'full_payload', { value: full.objectStoragePayload });
    new TerraformOutput(s, 'full_labels', { value: full.labels });
    new TerraformOutput(s, 'basic_report', { value: basic.executionReport });
    new TerraformOutput(s, 'basic_name', { value: basic.name });
  });
  emulator.auth.acceptToken(TOKEN);
  const outputs = await outputsOf(ws, { ...grantEnv(emulator), GOOGLE_OAUTH_ACCESS_TOKEN: TOKEN, GOOGLE_CLOUD_PROJECT: PROJECT });

  expect(outputs.v3_bindings).toEqual([
    {
      role: 'roles/compute.networkUser',
      members: ['group:network@example.com'],
      condition: { ...OFFICE_HOURS, location: null },
    },
    { role: 'roles/compute.networkViewer', members: ['user:viewer@example.com'], condition: null },
  ]);
  expect(outputs.v3_version).toBe(3);
  expect(outputs.v3_etag).toBe(emulator.policy(AG).etag);
  // Terraform values, in the data source's (snake_case) attribute names.
  expect(outputs.v3_audit).toEqual([
    { service: 'allServices', audit_log_configs: [{ log_type: 'DATA_READ', exempted_members: ['user:quiet@example.com'] }] },
  ]);
  // Version 1 of a conditional policy: Google mangles the conditional role and drops its condition.
  expect(
    (outputs.v1_roles as Array<{ role: string; condition?: unknown }>).map((b) => [
      b.role.replace(/_withcond_.*/, '_withcond_…'),
      b.condition,
    ]),
  ).toEqual([
    ['roles/compute.networkUser_withcond_…', null],
    ['roles/compute.networkViewer', null],
  ]);
  expect(outputs.v1_project).toBe(PROJECT); // the provider's default project (GOOGLE_CLOUD_PROJECT)
  expect(outputs.full_state).toBe('IMPORT_JOB_STATE_COMPLETED');
  // What Google left out of the report is null, not an empty value.
  expect(outputs.full_report).toEqual({ executionErrors: null, framesReported: 412, jobErrors: null, totalRowsCount: 412 });
  expect(outputs.full_payload).toEqual({ format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://inventory/rvtools.csv' });
  expect(outputs.full_labels).toEqual({ team: 'migration' });
  // The basic view has no report: null (and Terraform keeps no output whose value is null).
  expect(outputs.basic_report ?? null).toBeNull();
  expect(outputs.basic_name).toBe(JOB);

  // The token went to Google (the emulator) and nowhere else.
  const stateFiles = fs
    .readdirSync(ws.dir)
    .filter((f) => f.endsWith('.tfstate'))
    .map((f) => fs.readFileSync(path.join(ws.dir, f), 'utf8'));
  expect(stateFiles.join('')).toContain('IMPORT_JOB_STATE_COMPLETED');
  expect(stateFiles.join('')).not.toContain(TOKEN);
  const plan = await ws.run(['plan', '-input=false', '-no-color', '-out=plan.bin'], {
    ...grantEnv(emulator),
    GOOGLE_OAUTH_ACCESS_TOKEN: TOKEN,
    GOOGLE_CLOUD_PROJECT: PROJECT,
  });
  expect(plan.code).toBe(0);
  const shown = await ws.run(['show', '-json', 'plan.bin'], {});
  expect(shown.stdout).toContain('compute.networkUser');
  expect(shown.stdout).not.toContain(TOKEN);
  expect(plan.output).not.toContain(TOKEN);
});

test("a grant's etag is read after the grant is applied, and a lookup can use values only Terraform knows", async () => {
  emulator.addResource(AP);
  const ws = await workspace((s) => {
    const grant = new AuthorizationPolicyIamMember(s, 'Alice', {
      name: AP,
      role: 'roles/networksecurity.viewer',
      member: 'user:alice@example.com',
    });
    new TerraformOutput(s, 'etag', { value: grant.etag });
    const group = new TerraformVariable(s, 'group', { type: 'string', default: 'office' });
    const policy = new DataAddressGroupIamPolicy(s, 'FromVariable', {
      addressGroupId: group.stringValue,
      location: 'global',
      project: PROJECT,
    });
    new TerraformOutput(s, 'group_etag', { value: policy.etag });
  });
  const outputs = await outputsOf(ws, grantEnv(emulator));
  expect(emulator.policy(AP).bindings).toEqual([{ role: 'roles/networksecurity.viewer', members: ['user:alice@example.com'] }]);
  expect(outputs.etag).toBe(emulator.policy(AP).etag);
  expect(outputs.group_etag).toBe(emulator.policy(AG).etag);
});

describe("errors fail the plan with Google's status and message and the data source's address", () => {
  test.each([
    [
      'a missing address group',
      (s: TerraformStack) => new DataAddressGroupIamPolicy(s, 'Missing', { addressGroupId: 'gone', location: 'global', project: PROJECT }),
      {},
      [/data\.googleiam_address_group_iam_policy\.Missing/, /NOT_FOUND/, /addressGroups\/gone' was not found/],
    ],
    [
      'a missing import job',
      (s: TerraformStack) => new DataImportJob(s, 'Gone', { importJobId: 'gone', location: 'us-central1', project: PROJECT }),
      {},
      [/data\.googleiam_import_job\.Gone/, /NOT_FOUND/],
    ],
    [
      'a denied token',
      (s: TerraformStack) => new DataAddressGroupIamPolicy(s, 'Denied', { addressGroupId: 'office', location: 'global', project: PROJECT }),
      { GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.DENIED_TOKEN },
      [/data\.googleiam_address_group_iam_policy\.Denied/, /PERMISSION_DENIED/],
    ],
    [
      'no project anywhere',
      (s: TerraformStack) => new DataImportJob(s, 'NoProject', { importJobId: 'inventory', location: 'us-central1' }),
      { GOOGLE_CLOUD_PROJECT: '' },
      [/data\.googleiam_import_job\.NoProject/, /project: no project given and none configured/],
    ],
    [
      'a bad value only Terraform knew',
      (s: TerraformStack) => {
        const view = new TerraformVariable(s, 'view', { type: 'string', default: 'FULL' });
        new DataImportJob(s, 'BadView', { importJobId: 'inventory', location: 'us-central1', project: PROJECT, view: view.stringValue });
      },
      {},
      [/data\.googleiam_import_job\.BadView/, /view: expected one of IMPORT_JOB_VIEW_UNSPECIFIED/],
    ],
  ] as const)('%s', async (_label, build, env, messages) => {
    const ws = await workspace(build);
    const plan = await ws.plan({ ...grantEnv(emulator), ...env });
    expect(plan.code).toBe(1);
    // Terraform wraps the program's message; compare it as one line.
    for (const message of messages) expect(plan.output.replace(/\s+/g, ' ')).toMatch(message);
  });
});
