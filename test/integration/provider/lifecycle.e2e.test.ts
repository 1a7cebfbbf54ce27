/**
 * The googleiam provider under the real terraform (the bundle, installed as
 * the implied local mirror) against the emulator, with hand-written
 * configurations: add, change members (one write, no gap), delete from the
 * configuration (revoked, others' grants kept), -target, -replace, destroy.
 * What each step writes is read from the emulator's write history.
 */
import { GoogleApiEmulator } from '../../../lib/testing';
import { GoogleIamWorkspace } from '../../support/googleiam-workspace';
import { expectNoGap, historyOf } from '../../support/write-history';

jest.setTimeout(120_000);

const ROLE = 'roles/networksecurity.viewer';
const EDITOR = 'roles/networksecurity.editor';
const OTHERS = { role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] };
const user = (i: number | string) => `user:u${i}@example.com`;

let emulator: GoogleApiEmulator;
let workspace: GoogleIamWorkspace;
const NAME = 'projects/p-123456/locations/global/authorizationPolicies/lifecycle';

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(NAME, { bindings: [OTHERS, { role: ROLE, members: ['user:someone-else@example.com'] }] });
  workspace = GoogleIamWorkspace.create(emulator);
});
afterAll(async () => {
  workspace.remove();
  await emulator.close();
});

/** `count` members of ROLE, and a binding of EDITOR with `editors`. */
function configure(members: readonly string[], editors: readonly string[]): void {
  workspace.configure({
    resource: {
      googleiam_authorization_policy_iam_member: Object.fromEntries(
        members.map((m, i) => [`m${i}`, { name: NAME, role: ROLE, member: m }]),
      ),
      googleiam_authorization_policy_iam_binding: editors.length ? { editors: { name: NAME, role: EDITOR, members: editors } } : {},
    },
  });
}

test('add: ten members and a binding are applied in a few batched writes; a plan after shows no change', async () => {
  configure(
    Array.from({ length: 10 }, (_, i) => user(i)),
    [user('e1'), user('e2')],
  );
  const apply = await workspace.apply();
  expect(apply.code).toBe(0);
  expect(apply.stdout).toContain('Apply complete! Resources: 11 added, 0 changed, 0 destroyed.');
  expect(emulator.writes(NAME).length).toBeLessThanOrEqual(3);
  expect(historyOf(emulator, NAME, ROLE).at(-1)).toEqual(
    ['user:someone-else@example.com', ...Array.from({ length: 10 }, (_, i) => user(i))].sort(),
  );
  const plan = await workspace.plan();
  expect(plan.code).toBe(0);
});

test("change a binding's members: one write, in place, no gap for the principals kept", async () => {
  const before = emulator.writes(NAME).length;
  configure(
    Array.from({ length: 10 }, (_, i) => user(i)),
    [user('e2'), user('e3')],
  );
  const apply = await workspace.apply();
  expect(apply.stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
  // The one write holds e2 throughout: it was never taken away in between.
  expect(historyOf(emulator, NAME, EDITOR).slice(before)).toEqual([[user('e2'), user('e3')]]);
  expectNoGap(emulator, NAME, ROLE, ['user:someone-else@example.com']);
});

test("delete from the configuration: revoked, others' grants kept", async () => {
  configure(
    Array.from({ length: 8 }, (_, i) => user(i)),
    [user('e2'), user('e3')],
  );
  const apply = await workspace.apply();
  expect(apply.stdout).toContain('Resources: 0 added, 0 changed, 2 destroyed.');
  expect(historyOf(emulator, NAME, ROLE).at(-1)).toEqual(
    ['user:someone-else@example.com', ...Array.from({ length: 8 }, (_, i) => user(i))].sort(),
  );
  expect(emulator.policy(NAME).bindings).toContainEqual(OTHERS);
});

test('-target and -replace', async () => {
  configure(
    Array.from({ length: 9 }, (_, i) => user(i)),
    [user('e2'), user('e3'), user('e4')],
  );
  const targeted = await workspace.apply('-target=googleiam_authorization_policy_iam_member.m8');
  expect(targeted.stdout).toContain('Resources: 1 added, 0 changed, 0 destroyed.');
  expect(historyOf(emulator, NAME, EDITOR).at(-1)).toEqual([user('e2'), user('e3')]);
  const before = emulator.writes(NAME).length;
  const replaced = await workspace.apply('-replace=googleiam_authorization_policy_iam_member.m0');
  expect(replaced.stdout).toContain('Resources: 1 added, 1 changed, 1 destroyed.');
  // Destroy then create: the member is revoked and granted again; nothing else is lost.
  expect(historyOf(emulator, NAME, ROLE).at(-1)).toContain(user(0));
  expect(emulator.writes(NAME).length - before).toBeLessThanOrEqual(3);
});

test("destroy: everything this configuration granted is revoked; others' grants are kept", async () => {
  const destroy = await workspace.terraform(['destroy', '-auto-approve', '-input=false']);
  expect(destroy.code).toBe(0);
  expect(emulator.policy(NAME).bindings).toEqual([OTHERS, { role: ROLE, members: ['user:someone-else@example.com'] }]);
  expect(workspace.state()).toEqual([]);
});
