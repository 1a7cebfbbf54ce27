/**
 * Failed applies, repeated, with the real `terraform` (issue 23): no deposed
 * objects pile up in the state, the next good apply makes the grant with no
 * member lacking the role in between, and a grant whose change failed is
 * still revoked when it is deleted or destroyed. A create that fails is
 * played with credentials Google refuses (PERMISSION_DENIED), so nothing is
 * written; each step is checked on the state (`terraform show -json`), the
 * apply's summary and the emulator's full history of writes.
 *
 * Before the fix, each failed apply of a changed grant left one more deposed
 * object (the tainted new one, replaced create-before-destroy by the next
 * apply: the plan after three failures was `1 to add, 0 to change, 4 to
 * destroy`), and a changed grant
 * whose apply failed, then deleted from the code, was dropped without its
 * revoke: the old binding stayed in Google with nothing in Terraform.
 */
import { TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, MigrationJobIamBinding } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { workspacesOfThisFile, type StateObject, type TerraformWorkspace } from '../../support/terraform';
import { expectNoGap, historyOf } from '../../support/write-history';

jest.setTimeout(300_000);

const VIEWER = 'roles/networksecurity.authorizationPolicyViewer';
const DMS_VIEWER = 'roles/datamigration.viewer';
const OWNER = { role: 'roles/datamigration.admin', members: ['user:owner@example.com'] };
const GRANTS = 'terraform_data.google_iam_grants[';
const APPLIED = 'terraform_data.google_iam_grants_applied[';
const FAILURES = 3;

let emulator: GoogleApiEmulator;
let counter = 0;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(() => emulator.close());

/** A fresh migration job (someone else's binding on it) and authorization policy. */
function resources(): { mj: string; ap: string } {
  counter++;
  const mj = `projects/demo-project/locations/us-central1/migrationJobs/failed-${counter}`;
  const ap = `projects/demo-project/locations/global/authorizationPolicies/failed-${counter}`;
  emulator.addResource(mj, { bindings: [OWNER] });
  emulator.addResource(ap);
  return { mj, ap };
}

const denied = () => grantEnv(emulator, { GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.DENIED_TOKEN });

/** The binding under test, and a member grant that keeps the stack's grants resource when the binding is deleted. */
const stack = (mj: string, ap: string, members: string[] | undefined) => (s: TerraformStack) => {
  if (members) new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_VIEWER, members });
  new AuthorizationPolicyIamMember(s, 'Other', { name: ap, role: VIEWER, member: 'user:other@example.com' });
};

/** The objects of the grant under test (its key holds the migration job's name), without their keys. */
async function objectsOf(ws: TerraformWorkspace, mj: string): Promise<Array<Omit<StateObject, 'address'> & { resource: string }>> {
  return (await ws.objects())
    .filter((o) => o.address.includes(mj))
    .map(({ address, deposed, tainted }) => ({
      resource: address.slice(0, address.indexOf('[') + 1),
      ...(deposed ? { deposed: 'deposed' } : {}),
      tainted,
    }))
    .sort((a, b) => (a.resource === b.resource ? (a.deposed ?? '').length - (b.deposed ?? '').length : a.resource < b.resource ? -1 : 1));
}

async function failedApply(ws: TerraformWorkspace): Promise<string> {
  const failed = await ws.apply(denied());
  expect({ code: failed.code, denied: /PERMISSION_DENIED/.test(failed.output) }).toEqual({ code: 1, denied: true });
  return /Plan: .*/.exec(failed.output)?.[0] ?? failed.output;
}

function summary(output: string): string {
  return /Resources: .*/.exec(output)?.[0] ?? output;
}

test(`a changed binding whose apply fails ${FAILURES} times, then succeeds: one deposed object at most, none after; no member lacks the role, none is lost`, async () => {
  const { mj, ap } = resources();
  const env = grantEnv(emulator);
  const ws = await workspace(stack(mj, ap, ['user:a@example.com', 'user:b@example.com']));
  expect((await ws.apply(env)).code).toBe(0);
  emulator.clearWrites();

  ws.resynth(stack(mj, ap, ['user:a@example.com', 'user:b@example.com', 'user:c@example.com']));
  const plans: string[] = [];
  for (let i = 0; i < FAILURES; i++) {
    plans.push(await failedApply(ws));
    // The grant's new object stands (never tainted: deleting it revokes); its apply is tainted; the replaced object waits.
    expect(await objectsOf(ws, mj)).toEqual([
      { resource: GRANTS, tainted: false },
      { resource: GRANTS, deposed: 'deposed', tainted: false },
      { resource: APPLIED, tainted: true },
    ]);
  }
  // The first replaces the grant; each later one re-creates only its apply and still waits to drop the replaced object.
  expect(plans).toEqual([
    'Plan: 2 to add, 0 to change, 2 to destroy.',
    'Plan: 1 to add, 0 to change, 2 to destroy.',
    'Plan: 1 to add, 0 to change, 2 to destroy.',
  ]);
  expect(emulator.writes(mj)).toEqual([]);
  expect(emulator.policy(mj).bindings).toEqual([OWNER, { role: DMS_VIEWER, members: ['user:a@example.com', 'user:b@example.com'] }]);

  // A pending apply is not drift: the plan warns about nothing.
  const plan = await ws.plan(env);
  expect(plan.output).toMatch(/Plan: 1 to add, 0 to change, 2 to destroy\./);
  expect(plan.output).not.toMatch(/Check block assertion failed/);

  const applied = await ws.apply(env);
  expect({ code: applied.code, summary: summary(applied.output) }).toEqual({
    code: 0,
    summary: 'Resources: 1 added, 0 changed, 2 destroyed.',
  });
  expect(await objectsOf(ws, mj)).toEqual([
    { resource: GRANTS, tainted: false },
    { resource: APPLIED, tainted: false },
  ]);
  expect(historyOf(emulator, mj, DMS_VIEWER)).toEqual([['user:a@example.com', 'user:b@example.com', 'user:c@example.com']]);
  expectNoGap(emulator, mj, DMS_VIEWER, ['user:a@example.com', 'user:b@example.com']);
  expect((await ws.plan(env)).code).toBe(0);
});

test(`a new grant whose apply fails ${FAILURES} times, then succeeds: nothing is ever deposed`, async () => {
  const { mj, ap } = resources();
  const env = grantEnv(emulator);
  const ws = await workspace(stack(mj, ap, undefined));
  expect((await ws.apply(env)).code).toBe(0);
  emulator.clearWrites();

  ws.resynth(stack(mj, ap, ['user:new@example.com']));
  const plans: string[] = [];
  for (let i = 0; i < FAILURES; i++) {
    plans.push(await failedApply(ws));
    expect(await objectsOf(ws, mj)).toEqual([
      { resource: GRANTS, tainted: false },
      { resource: APPLIED, tainted: true },
    ]);
  }
  expect(plans).toEqual([
    'Plan: 2 to add, 0 to change, 0 to destroy.',
    'Plan: 1 to add, 0 to change, 1 to destroy.',
    'Plan: 1 to add, 0 to change, 1 to destroy.',
  ]);
  expect(emulator.writes(mj)).toEqual([]);

  const applied = await ws.apply(env);
  expect({ code: applied.code, summary: summary(applied.output) }).toEqual({
    code: 0,
    summary: 'Resources: 1 added, 0 changed, 1 destroyed.',
  });
  expect(await objectsOf(ws, mj)).toEqual([
    { resource: GRANTS, tainted: false },
    { resource: APPLIED, tainted: false },
  ]);
  expect(historyOf(emulator, mj, DMS_VIEWER)).toEqual([['user:new@example.com']]);
});

test.each(['delete from the code', 'destroy'] as const)(
  'a changed binding whose apply failed, then %s: the binding is revoked, not left behind',
  async (kind) => {
    const { mj, ap } = resources();
    const env = grantEnv(emulator);
    const ws = await workspace(stack(mj, ap, ['user:a@example.com']));
    expect((await ws.apply(env)).code).toBe(0);
    ws.resynth(stack(mj, ap, ['user:a@example.com', 'user:b@example.com']));
    await failedApply(ws);
    expect(membersOf(emulator, mj, DMS_VIEWER)).toEqual(['user:a@example.com']);
    emulator.clearWrites();

    let result;
    if (kind === 'destroy') {
      result = await ws.destroy(env);
    } else {
      ws.resynth(stack(mj, ap, undefined));
      result = await ws.apply(env);
    }
    expect({ code: result.code, removed: /Viewers .*removed/.test(result.output) }).toEqual({ code: 0, removed: true });
    expect(historyOf(emulator, mj, DMS_VIEWER)).toEqual([[]]);
    expect(emulator.policy(mj).bindings).toEqual([OWNER]);
    expect(await objectsOf(ws, mj)).toEqual([]);
  },
);
