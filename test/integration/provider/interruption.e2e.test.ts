/**
 * The googleiam provider under the real terraform against the emulator when
 * things go wrong: a failed create (the state stays true, the next apply
 * completes), SIGINT mid-apply of 40 slow grants, SIGKILL of terraform
 * mid-apply, two terraform runs on one policy at once, and a token in the
 * provider block under TF_LOG=trace.
 */
import * as fs from 'fs';
import * as path from 'path';
import { GoogleApiEmulator } from '../../../lib/testing';
import { GoogleIamWorkspace } from '../../support/googleiam-workspace';
import { exited, sleep, until } from '../../support/waiting';
import { membersOf } from '../../support/grant-env';

jest.setTimeout(180_000);

const ROLE = 'roles/networksecurity.viewer';
const user = (i: number | string) => `user:u${i}@example.com`;

let emulator: GoogleApiEmulator;
const workspaces: GoogleIamWorkspace[] = [];
let counter = 0;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterEach(() => {
  emulator.afterWrite = undefined;
});
afterAll(async () => {
  for (const workspace of workspaces) workspace.remove();
  await emulator.close();
});

function newPolicy(): string {
  const name = `projects/p-123456/locations/global/authorizationPolicies/interrupt-${++counter}`;
  emulator.addResource(name, { bindings: [] });
  return name;
}

function workspaceWith(name: string, members: readonly string[], env: Record<string, string> = {}): GoogleIamWorkspace {
  const workspace = GoogleIamWorkspace.create(emulator, env);
  workspaces.push(workspace);
  workspace.configure({
    resource: {
      googleiam_authorization_policy_iam_member: Object.fromEntries(members.map((m, i) => [`m${i}`, { name, role: ROLE, member: m }])),
    },
  });
  return workspace;
}

/** The members the state holds (every instance's `member`). */
function stateMembers(workspace: GoogleIamWorkspace): string[] {
  return workspace
    .state()
    .flatMap((r) => r.instances.map((i) => i.attributes.member as string))
    .sort();
}

const FORTY = Array.from({ length: 40 }, (_, i) => user(i));

test('a failed create leaves no state for it (not tainted); the next apply completes, nothing lost', async () => {
  const name = newPolicy();
  const later = `projects/p-123456/locations/global/authorizationPolicies/later-${counter}`;
  const workspace = GoogleIamWorkspace.create(emulator);
  workspaces.push(workspace);
  workspace.configure({
    resource: {
      googleiam_authorization_policy_iam_member: {
        now: { name, role: ROLE, member: user(1) },
        later: { name: later, role: ROLE, member: user(2) },
      },
    },
  });
  const failed = await workspace.apply();
  expect(failed.code).toBe(1);
  expect(failed.output).toContain('NOT_FOUND');
  expect(workspace.addresses()).toEqual(['googleiam_authorization_policy_iam_member.now']);
  emulator.addResource(later, { bindings: [] });
  const completed = await workspace.apply();
  expect(completed.stdout).toContain('Resources: 1 added, 0 changed, 0 destroyed.');
  expect([membersOf(emulator, name, ROLE), membersOf(emulator, later, ROLE)]).toEqual([[user(1)], [user(2)]]);
});

test('SIGINT mid-apply of 40 slow grants: what the state holds is true, and the next apply completes with nothing extra', async () => {
  const name = newPolicy();
  const workspace = workspaceWith(name, FORTY);
  emulator.afterWrite = () => sleep(400);
  const child = await workspace.start(['apply', '-auto-approve', '-input=false']);
  const done = exited(child);
  await until(() => emulator.writes(name).length >= 1);
  child.kill('SIGINT');
  const { code, output } = await done;
  expect(code).not.toBe(0);
  // Terraform sends nothing new after the interrupt; the calls it had sent are answered.
  expect(output).toContain('Interrupt received');
  const granted = membersOf(emulator, name, ROLE);
  expect(granted.length).toBeLessThan(40);
  expect(stateMembers(workspace)).toEqual(granted);

  emulator.afterWrite = undefined;
  const apply = await workspace.apply();
  expect(apply.code).toBe(0);
  expect(stateMembers(workspace)).toEqual([...FORTY].sort());
  expect(membersOf(emulator, name, ROLE)).toEqual([...FORTY].sort());
});

test('SIGKILL of terraform mid-apply: the next plan shows what Google has, and apply completes', async () => {
  const name = newPolicy();
  const workspace = workspaceWith(name, FORTY);
  emulator.afterWrite = () => sleep(300);
  const child = await workspace.start(['apply', '-auto-approve', '-input=false']);
  const done = exited(child);
  await until(() => emulator.writes(name).length >= 1);
  child.kill('SIGKILL');
  await done;
  emulator.afterWrite = undefined;
  await sleep(500); // the write the provider had in flight lands
  const plan = await workspace.plan();
  expect(plan.code).toBe(2);
  const apply = await workspace.apply();
  expect(apply.code).toBe(0);
  expect(stateMembers(workspace)).toEqual([...FORTY].sort());
  expect(membersOf(emulator, name, ROLE)).toEqual([...FORTY].sort());
  expect((await workspace.plan()).code).toBe(0);
});

test('two terraform runs on one policy at once: no update is lost', async () => {
  const name = newPolicy();
  const first = workspaceWith(
    name,
    Array.from({ length: 15 }, (_, i) => user(`a${i}`)),
  );
  const second = workspaceWith(
    name,
    Array.from({ length: 15 }, (_, i) => user(`b${i}`)),
  );
  await Promise.all([first.terraform(['version']), second.terraform(['version'])]);
  emulator.afterWrite = () => sleep(20);
  const [a, b] = await Promise.all([first.apply(), second.apply()]);
  expect([a.code, b.code]).toEqual([0, 0]);
  expect(membersOf(emulator, name, ROLE)).toEqual([...stateMembers(first), ...stateMembers(second)].sort());
  expect(membersOf(emulator, name, ROLE)).toHaveLength(30);
});

test('TF_LOG=trace with an access token in the provider block: the token is nowhere in the output, the plan or the state', async () => {
  const token = 'ya29.provider-block-token-7c1e5b';
  emulator.auth.acceptToken(token);
  const name = newPolicy();
  const workspace = GoogleIamWorkspace.create(emulator, { GOOGLE_OAUTH_ACCESS_TOKEN: '', TF_LOG: 'trace' });
  workspaces.push(workspace);
  workspace.configure(
    { resource: { googleiam_authorization_policy_iam_member: { m: { name, role: ROLE, member: user(1) } } } },
    { access_token: token },
  );
  const plan = await workspace.terraform(['plan', '-input=false', '-out=tfplan']);
  expect(plan.code).toBe(0);
  // (`terraform show -json` of the plan repeats the configuration's literal values: Terraform's, whatever the provider does.)
  const show = await workspace.terraform(['show', 'tfplan']);
  const apply = await workspace.terraform(['apply', '-input=false', 'tfplan']);
  expect(apply.code).toBe(0);
  expect(membersOf(emulator, name, ROLE)).toEqual([user(1)]);
  const state = fs.readFileSync(path.join(workspace.dir, 'terraform.tfstate'), 'utf8');
  expect(plan.output).toContain('[TRACE]');
  const texts = { plan: plan.output, show: show.output, apply: apply.output, state };
  expect(Object.entries(texts).filter(([, text]) => text.includes(token))).toEqual([]);
});
