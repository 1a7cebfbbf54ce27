/**
 * The googleiam provider under the real terraform against the emulator:
 * drift (plan -detailed-exitcode exits 2, a plain apply repairs it with one
 * write per policy, others' grants are no diff), import (import blocks and
 * `terraform import`, no write), and a resource deleted in Google (plan and
 * destroy succeed).
 */
import { GoogleApiEmulator } from '../../../lib/testing';
import { GoogleIamWorkspace } from '../../support/googleiam-workspace';
import { membersOf } from '../../support/grant-env';

jest.setTimeout(120_000);

const ROLE = 'roles/networksecurity.viewer';
const EDITOR = 'roles/networksecurity.editor';
const user = (i: number | string) => `user:u${i}@example.com`;
const CONDITION = { expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', title: 'until 2030' };

let emulator: GoogleApiEmulator;
const workspaces: GoogleIamWorkspace[] = [];
let counter = 0;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(async () => {
  for (const workspace of workspaces) workspace.remove();
  await emulator.close();
});

function setUp(policy: Parameters<GoogleApiEmulator['addResource']>[1]): { name: string; workspace: GoogleIamWorkspace } {
  const name = `projects/p-123456/locations/global/authorizationPolicies/drift-${++counter}`;
  emulator.addResource(name, policy);
  const workspace = GoogleIamWorkspace.create(emulator);
  workspaces.push(workspace);
  return { name, workspace };
}

test("drift: the plan exits 2, a plain apply repairs it in one write; others' members are no diff", async () => {
  const { name, workspace } = setUp({ bindings: [] });
  workspace.configure({
    resource: {
      googleiam_authorization_policy_iam_member: Object.fromEntries([0, 1, 2].map((i) => [`m${i}`, { name, role: ROLE, member: user(i) }])),
      googleiam_authorization_policy_iam_binding: { editors: { name, role: EDITOR, members: [user('e')] } },
    },
  });
  expect((await workspace.apply()).code).toBe(0);
  expect((await workspace.plan()).code).toBe(0);

  // Someone removes u1 and adds an editor of their own; someone else's viewer is no business of member grants.
  emulator.addResource(name, {
    bindings: [
      { role: ROLE, members: [user(0), user(2), 'user:other@example.com'] },
      { role: EDITOR, members: [user('e'), 'user:intruder@example.com'] },
    ],
  });
  const plan = await workspace.plan();
  expect(plan.code).toBe(2);
  expect(plan.stdout).toContain('Plan: 1 to add, 1 to change, 0 to destroy.');
  expect(plan.stdout).toContain('- "user:intruder@example.com"');

  const before = emulator.writes(name).length;
  const apply = await workspace.apply();
  expect(apply.stdout).toContain('Resources: 1 added, 1 changed, 0 destroyed.');
  expect(emulator.writes(name).length - before).toBe(1);
  expect(membersOf(emulator, name, ROLE)).toEqual(['user:other@example.com', user(0), user(1), user(2)]);
  expect(membersOf(emulator, name, EDITOR)).toEqual([user('e')]);
  expect((await workspace.plan()).code).toBe(0);
});

test('import: an import block and `terraform import`, conditional grants by title; nothing is written', async () => {
  const { name, workspace } = setUp({
    bindings: [
      { role: ROLE, members: [user(1)] },
      { role: EDITOR, members: [user(2), user(3)], condition: CONDITION },
    ],
  });
  workspace.configure({
    resource: {
      googleiam_authorization_policy_iam_member: { viewer: { name, role: ROLE, member: user(1) } },
      googleiam_iam_binding: {
        editors: { service: 'networksecurity', api_version: 'v1', name, role: EDITOR, members: [user(2), user(3)], condition: CONDITION },
      },
    },
    import: [{ to: 'googleiam_authorization_policy_iam_member.viewer', id: `${name} ${ROLE} ${user(1)}` }],
  });
  const imported = await workspace.terraform([
    'import',
    'googleiam_iam_binding.editors',
    `//networksecurity.googleapis.com/${name} ${EDITOR} ${CONDITION.title}`,
  ]);
  expect(imported.stdout).toContain('Import successful!');
  const plan = await workspace.plan();
  expect(plan.stdout).toContain('Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.');
  const apply = await workspace.apply();
  expect(apply.stdout).toContain('Resources: 1 imported, 0 added, 0 changed, 0 destroyed.');
  expect(emulator.writes(name)).toEqual([]);
  expect(workspace.addresses().sort()).toEqual(['googleiam_authorization_policy_iam_member.viewer', 'googleiam_iam_binding.editors']);
});

test('a resource deleted in Google: plan and destroy succeed, with a warning', async () => {
  const { name, workspace } = setUp({ bindings: [] });
  workspace.configure({ resource: { googleiam_authorization_policy_iam_member: { m: { name, role: ROLE, member: user(1) } } } });
  expect((await workspace.apply()).code).toBe(0);
  emulator.removeResource(name);
  const plan = await workspace.plan();
  expect(plan.code).toBe(2);
  expect(plan.output).toContain(`${name} no longer exists`);
  const destroy = await workspace.terraform(['destroy', '-auto-approve', '-input=false']);
  expect(destroy.code).toBe(0);
  expect(workspace.state()).toEqual([]);
});

test('the data sources under terraform: the policy (version 3 by default) and an import job, as outputs', async () => {
  const { name, workspace } = setUp({ bindings: [{ role: ROLE, members: [user(1)], condition: CONDITION }] });
  emulator.addImportJob({
    name: 'projects/p-123456/locations/us-central1/importJobs/job',
    displayName: 'Job',
    state: 'IMPORT_JOB_STATE_COMPLETED',
  });
  workspace.configure(
    {
      data: {
        googleiam_authorization_policy_iam_policy: { ap: { authorization_policy_id: name.split('/').pop(), location: 'global' } },
        googleiam_import_job: { job: { import_job_id: 'job', location: 'us-central1' } },
      },
      output: {
        title: { value: '${data.googleiam_authorization_policy_iam_policy.ap.bindings[0].condition.title}' },
        project: { value: '${data.googleiam_authorization_policy_iam_policy.ap.project}' },
        state: { value: '${data.googleiam_import_job.job.state}' },
      },
    },
    { project: 'p-123456' },
  );
  const apply = await workspace.apply();
  expect(apply.code).toBe(0);
  const outputs = await workspace.terraform(['output', '-json']);
  expect(JSON.parse(outputs.stdout)).toMatchObject({
    title: { value: CONDITION.title },
    project: { value: 'p-123456' },
    state: { value: 'IMPORT_JOB_STATE_COMPLETED' },
  });
});

test('a generic policy resource: authoritative for bindings (and audit configs when given); a binding added by others is drift', async () => {
  const { name, workspace } = setUp({ bindings: [{ role: EDITOR, members: [user('before')] }] });
  const audit = [{ service: 'allServices', audit_log_configs: [{ log_type: 'DATA_READ', exempted_members: [user('quiet')] }] }];
  workspace.configure({
    resource: {
      googleiam_iam_policy: {
        all: {
          service: 'networksecurity',
          api_version: 'v1',
          name,
          bindings: [
            { role: ROLE, members: [user(1), user(2)] },
            { role: EDITOR, members: [user(3)], condition: CONDITION },
          ],
          audit_configs: audit,
        },
      },
    },
  });
  expect((await workspace.apply()).code).toBe(0);
  expect(emulator.writes(name)).toHaveLength(1);
  expect(emulator.policy(name)).toMatchObject({
    bindings: [
      { role: ROLE, members: [user(1), user(2)] },
      { role: EDITOR, members: [user(3)], condition: CONDITION },
    ],
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: [user('quiet')] }] }],
  });
  expect((await workspace.plan()).code).toBe(0);

  emulator.addResource(name, {
    ...emulator.policy(name),
    bindings: [...emulator.policy(name).bindings!, { role: EDITOR, members: [user('added')] }],
  });
  const drift = await workspace.plan();
  expect(drift.code).toBe(2);
  expect(drift.stdout).toContain('1 to change');
  const before = emulator.writes(name).length;
  expect((await workspace.apply()).code).toBe(0);
  expect(emulator.writes(name).length - before).toBe(1);
  expect(membersOf(emulator, name, EDITOR)).toEqual([]);

  expect((await workspace.terraform(['destroy', '-auto-approve', '-input=false'])).code).toBe(0);
  expect(emulator.policy(name).bindings ?? []).toEqual([]);
});
