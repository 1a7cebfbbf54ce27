/**
 * The construct-level lifecycle, end to end: what a user's edits of the code
 * (delete, rename, move, the last grant of a stack) and the Terraform
 * commands on a construct's `fqn` do, checked on the emulator's full history
 * of writes. The provider's own lifecycle paths (change in one write, drift,
 * import, failures, interruptions) are tested at provider level
 * (test/integration/provider). The real `terraform` runs the provider synth laid out.
 */
import * as fs from 'fs';
import * as path from 'path';
import { TerraformLocal, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import { AuthorizationPolicyIamMember, GoogleIamProvider, MigrationJobIamBinding, type IamCondition } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { TerraformWorkspace, workspacesOfThisFile } from '../../support/terraform';
import { resolveIn } from '../../support/resolve';
import { expectNoGap, historyOf } from '../../support/write-history';

jest.setTimeout(240_000);

const VIEWER = 'roles/networksecurity.viewer';
const ADMIN = 'roles/networksecurity.admin';
const DMS_EDITOR = 'roles/datamigration.editor';
const DMS_ADMIN = 'roles/datamigration.admin';
const FOREIGN = { role: ADMIN, members: ['user:owner@example.com'] };
const X: IamCondition = { title: 'until-2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };

let emulator: GoogleApiEmulator;
let env: Record<string, string>;
let counter = 0;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  env = grantEnv(emulator);
});
afterAll(async () => {
  await emulator.close();
});

/** A fresh authorization policy and migration job with someone else's binding on each. */
function resources(): { ap: string; mj: string } {
  counter++;
  const ap = `projects/demo-project/locations/global/authorizationPolicies/life-${counter}`;
  const mj = `projects/demo-project/locations/us-central1/migrationJobs/life-${counter}`;
  emulator.addResource(ap, { bindings: [FOREIGN] });
  emulator.addResource(mj, { bindings: [{ role: DMS_ADMIN, members: ['user:owner@example.com'] }] });
  return { ap, mj };
}

async function deployed(build: (stack: TerraformStack) => void): Promise<TerraformWorkspace> {
  const ws = await workspace(build);
  const applied = await ws.apply(env);
  expect(applied.output).toContain('Apply complete');
  return ws;
}

async function expectApplied(ws: TerraformWorkspace, summary: RegExp, extra: string[] = []): Promise<string> {
  const result = await ws.apply(env, extra);
  expect({ code: result.code, summary: summary.exec(result.output)?.[0] ?? result.output }).toEqual({
    code: 0,
    summary: expect.stringMatching(summary),
  });
  return result.output;
}

test('a member grant deleted from the code is revoked by the next apply, and nothing else is touched', async () => {
  const { ap } = resources();
  const grants = (names: string[]) => (s: TerraformStack) =>
    names.forEach((n) => new AuthorizationPolicyIamMember(s, n, { name: ap, role: VIEWER, member: `user:${n.toLowerCase()}@example.com` }));
  const ws = await deployed(grants(['Alice', 'Bob']));
  emulator.clearWrites();

  ws.resynth(grants(['Alice']));
  await expectApplied(ws, /0 added, 0 changed, 1 destroyed/);
  expect(historyOf(emulator, ap, VIEWER)).toEqual([['user:alice@example.com']]);
  expect(emulator.policy(ap).bindings).toEqual([FOREIGN, { role: VIEWER, members: ['user:alice@example.com'] }]);
});

test('renaming or moving a construct changes nothing in Terraform or Google (a grant is named by what it grants)', async () => {
  const { ap, mj } = resources();
  const ws = await deployed((s) => {
    new AuthorizationPolicyIamMember(s, 'Alice', { name: ap, role: VIEWER, member: 'user:alice@example.com', condition: X });
    new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_EDITOR, members: ['user:a@example.com'] });
  });
  emulator.clearWrites();

  ws.resynth((s) => {
    const team = new Construct(s, 'Team');
    new AuthorizationPolicyIamMember(team, 'AliceRenamed', { name: ap, role: VIEWER, member: 'user:alice@example.com', condition: X });
    new MigrationJobIamBinding(s, 'DmsEditors', { name: mj, role: DMS_EDITOR, members: ['user:a@example.com'] });
  });
  await expectApplied(ws, /0 added, 0 changed, 0 destroyed/);
  expect(emulator.writes()).toEqual([]);
  expect(membersOf(emulator, ap, VIEWER, X.title)).toEqual(['user:alice@example.com']);
  expect(membersOf(emulator, mj, DMS_EDITOR)).toEqual(['user:a@example.com']);
});

test("a member grant's address is made from what it grants: another role or member plans a destroy and a create, applied in one write", async () => {
  const { ap } = resources();
  const grant = (role: string, member: string) => (s: TerraformStack) =>
    new AuthorizationPolicyIamMember(s, 'Reader', { name: ap, role, member });
  const ws = await deployed(grant(VIEWER, 'user:alice@example.com'));
  emulator.clearWrites();

  ws.resynth(grant(ADMIN, 'user:alice@example.com'));
  expect((await ws.plan(env)).output).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');
  await expectApplied(ws, /1 added, 0 changed, 1 destroyed/);
  ws.resynth(grant(ADMIN, 'user:bob@example.com'));
  await expectApplied(ws, /1 added, 0 changed, 1 destroyed/);
  // Each change: one write, the old grant revoked and the new one made together.
  expect(emulator.writes(ap).map((w) => w.policy.bindings)).toEqual([
    [{ role: ADMIN, members: ['user:owner@example.com', 'user:alice@example.com'] }],
    [{ role: ADMIN, members: ['user:owner@example.com', 'user:bob@example.com'] }],
  ]);
});

test('a literal that becomes a reference moves the address: the plan destroys the grant at one address and creates it at the other', async () => {
  const { ap } = resources();
  const ws = await deployed(
    (s) => new AuthorizationPolicyIamMember(s, 'Reader', { name: ap, role: VIEWER, member: 'user:alice@example.com' }),
  );
  const before = await ws.stateList(env);
  emulator.clearWrites();

  ws.resynth((s) => {
    const who = new TerraformLocal(s, 'who', 'user:alice@example.com');
    new AuthorizationPolicyIamMember(s, 'Reader', { name: ap, role: VIEWER, member: who.asString });
  });
  expect((await ws.plan(env)).output).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');
  await expectApplied(ws, /1 added, 0 changed, 1 destroyed/);
  const after = await ws.stateList(env);
  expect(after).toHaveLength(1);
  expect(after).not.toEqual(before);
  expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:alice@example.com']);
  expectNoGap(emulator, ap, VIEWER, ['user:alice@example.com']);
});

test("a stack's last grant deleted while the stack keeps a GoogleIamProvider: the next apply revokes it", async () => {
  const { ap } = resources();
  const ws = await deployed(
    (s) => new AuthorizationPolicyIamMember(s, 'Only', { name: ap, role: VIEWER, member: 'user:only@example.com' }),
  );
  expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:only@example.com']);

  // Terraform destroys a resource through its provider: the stack keeps the provider for that apply.
  ws.resynth((s) => new GoogleIamProvider(s, 'googleiam'));
  await expectApplied(ws, /0 added, 0 changed, 1 destroyed/);
  expect(emulator.policy(ap).bindings).toEqual([FOREIGN]);
  expect(await ws.stateList()).toEqual([]);
});

test('every grant removed, deployed from a fresh cdktf.out as a CI run does: terraform init finds the provider, the apply revokes', async () => {
  const { ap, mj } = resources();
  const ws = await deployed((s) => {
    new GoogleIamProvider(s, 'googleiam');
    new AuthorizationPolicyIamMember(s, 'Reader', { name: ap, role: VIEWER, member: 'user:reader@example.com' });
    new MigrationJobIamBinding(s, 'Editors', { name: mj, role: DMS_EDITOR, members: ['user:editor@example.com'] });
  });
  expect(membersOf(emulator, mj, DMS_EDITOR)).toEqual(['user:editor@example.com']);

  // A new checkout: a new synth in a new folder (no .terraform, no plugin cache), the state from the backend.
  const fresh = TerraformWorkspace.synth((s) => new GoogleIamProvider(s, 'googleiam'));
  try {
    fs.copyFileSync(path.join(ws.dir, 'terraform.tfstate'), path.join(fresh.dir, 'terraform.tfstate'));
    expect(fs.existsSync(path.join(fresh.dir, '.terraform'))).toBe(false);
    await fresh.init();
    emulator.clearWrites();
    await expectApplied(fresh, /0 added, 0 changed, 2 destroyed/);
    expect(emulator.policy(ap).bindings).toEqual([FOREIGN]);
    expect(membersOf(emulator, mj, DMS_EDITOR)).toEqual([]);
    expect(emulator.writes(ap)).toHaveLength(1);
    expect(emulator.writes(mj)).toHaveLength(1);
    expect(await fresh.stateList()).toEqual([]);
  } finally {
    fresh.dispose();
  }
});

test("a construct's fqn is what -target and -replace take", async () => {
  const { ap, mj } = resources();
  let bob = '';
  const three = (s: TerraformStack) => {
    new AuthorizationPolicyIamMember(s, 'Alice', { name: ap, role: VIEWER, member: 'user:alice@example.com' });
    const grant = new AuthorizationPolicyIamMember(s, 'Bob', { name: ap, role: VIEWER, member: 'user:bob@example.com' });
    bob = String(resolveIn(s, grant.fqn)).replace(/^\$\{|\}$/g, '');
    new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_EDITOR, members: ['user:a@example.com'] });
  };
  const ws = await deployed(three);
  expect(bob).toMatch(/^googleiam_authorization_policy_iam_member\.life-\d+_networksecurity_viewer_user_bob_example_com_[0-9a-f]{8}$/);
  expect(await ws.stateList()).toContain(bob);
  emulator.clearWrites();

  expect((await ws.destroy(env, [`-target=${bob}`])).code).toBe(0);
  expect(historyOf(emulator, ap, VIEWER)).toEqual([['user:alice@example.com']]);
  expect(emulator.writes(mj)).toEqual([]);

  emulator.clearWrites();
  await expectApplied(ws, /1 added, 0 changed, 0 destroyed/, [`-target=${bob}`]);
  expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:alice@example.com', 'user:bob@example.com']);

  // -replace re-grants with no gap for anyone.
  emulator.clearWrites();
  await expectApplied(ws, /1 added, 0 changed, 1 destroyed/, [`-replace=${bob}`]);
  expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:alice@example.com', 'user:bob@example.com']);
  expectNoGap(emulator, ap, VIEWER, ['user:alice@example.com']);

  // Someone removes bob in the console: the refresh drops him from the state, and a plain apply grants him again.
  emulator.addResource(ap, { bindings: [FOREIGN, { role: VIEWER, members: ['user:alice@example.com'] }] });
  await expectApplied(ws, /1 added, 0 changed, 0 destroyed/);
  expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:alice@example.com', 'user:bob@example.com']);
});
