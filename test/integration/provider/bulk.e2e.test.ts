/**
 * The bulk kinds under the real terraform against the emulator, written in HCL
 * (JSON) as users write them: `googleiam_*_iam_members` (many grants in one
 * resource, non-authoritative per entry) and `googleiam_*_iam_member_roles`
 * (one principal's roles, authoritative for that principal). Create, entries
 * added, removed and reordered, drift per entry, foreign grants kept, duplicates refused,
 * a member learned at apply, import, destroy, grants moved between member and
 * bulk resources in either direction with no gap, Ctrl-C, a write whose
 * outcome is unknown, -target and -replace, a failed create and the resource
 * deleted in Google, each checked against the emulator's write history.
 */
import type { Policy } from '../../../lib/iam/types';
import { GoogleApiEmulator } from '../../../lib/testing';
import { ApiError } from '../../../lib/testing/emulator/api-error';
import { GoogleIamWorkspace } from '../../support/googleiam-workspace';
import { exited, until } from '../../support/waiting';
import { expectNoGap, membersIn } from '../../support/write-history';

jest.setTimeout(180_000);

const VIEWER = 'roles/networksecurity.viewer';
const EDITOR = 'roles/networksecurity.editor';
const ADMIN = 'roles/networksecurity.admin';
const FOREIGN = 'user:foreign@example.com';
const user = (i: number | string) => `user:u${i}@example.com`;
const MEMBERS = 'googleiam_authorization_policy_iam_members';
const MEMBER = 'googleiam_authorization_policy_iam_member';
const ROLES = 'googleiam_authorization_policy_iam_member_roles';

let emulator: GoogleApiEmulator;
const workspaces: GoogleIamWorkspace[] = [];
let counter = 0;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterEach(() => {
  emulator.afterWrite = undefined;
  emulator.setFaults(undefined);
});
afterAll(async () => {
  for (const workspace of workspaces) workspace.remove();
  await emulator.close();
});

/** A policy where someone else already granted ADMIN to FOREIGN and VIEWER to FOREIGN. */
function newPolicy(): string {
  const name = `projects/p-123456/locations/global/authorizationPolicies/bulk-${++counter}`;
  emulator.addResource(name, {
    bindings: [
      { role: ADMIN, members: [FOREIGN] },
      { role: VIEWER, members: [FOREIGN] },
    ],
  });
  return name;
}

function workspace(env: Record<string, string> = {}): GoogleIamWorkspace {
  const created = GoogleIamWorkspace.create(emulator, env);
  workspaces.push(created);
  return created;
}

const entries = (role: string, ...members: string[]) => members.map((member) => ({ role, member }));
const members = (name: string, role = VIEWER) =>
  [...((emulator.policy(name).bindings ?? []).find((b) => b.role === role && !b.condition)?.members ?? [])].sort();
const writesAfter = (name: string, seq: number) => emulator.writes(name).filter((w) => w.seq > seq);
const lastSeq = (name: string) => emulator.writes(name).at(-1)?.seq ?? 0;

/** Someone else's setIamPolicy, as a console edit is. */
async function editElsewhere(name: string, edit: (policy: Policy) => Policy): Promise<void> {
  const response = await fetch(`${emulator.url}/networksecurity/v1/${name}:setIamPolicy`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${GoogleApiEmulator.ACCESS_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ policy: edit(emulator.policy(name)) }),
  });
  expect(response.status).toBe(200);
}

describe('googleiam_*_iam_members: many grants, one resource', () => {
  test('create: every entry in one write, foreign grants kept; a plan after is clean', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({
      resource: { [MEMBERS]: { team: { name, grant: [...entries(VIEWER, user(1), user(2)), ...entries(EDITOR, user(3))] } } },
    });
    const apply = await tf.apply();
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
    expect(emulator.writes(name)).toHaveLength(1);
    expect(members(name)).toEqual([FOREIGN, user(1), user(2)].sort());
    expect(members(name, EDITOR)).toEqual([user(3)]);
    expect(members(name, ADMIN)).toEqual([FOREIGN]);
    expect((await tf.plan()).code).toBe(0);
  });

  test('entries added and removed: an update in place, one write, only those entries; foreign grants kept', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: entries(VIEWER, user(1), user(2)) } } } });
    expect((await tf.apply()).code).toBe(0);
    const since = lastSeq(name);
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: entries(VIEWER, user(2), user(3)) } } } });
    const apply = await tf.apply();
    expect(apply.stdout).toContain('0 added, 1 changed, 0 destroyed');
    expect(writesAfter(name, since).map((w) => membersIn(w, VIEWER))).toEqual([[FOREIGN, user(2), user(3)].sort()]);
    expectNoGap(emulator, name, VIEWER, [FOREIGN, user(2)]);
    expect((await tf.plan()).code).toBe(0);
  });

  test('blocks reordered: an update that writes the same policy once, nothing revoked in any write', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: entries(VIEWER, user(1), user(2), user(3)) } } } });
    expect((await tf.apply()).code).toBe(0);
    const before = emulator.policy(name).bindings;
    const since = lastSeq(name);
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: entries(VIEWER, user(3), user(1), user(2)) } } } });
    const apply = await tf.apply();
    expect(apply.stdout).toContain('0 added, 1 changed, 0 destroyed');
    expect(writesAfter(name, since).map((w) => membersIn(w, VIEWER))).toEqual([[FOREIGN, user(1), user(2), user(3)].sort()]);
    expect(emulator.policy(name).bindings).toEqual(before);
    expect((await tf.plan()).code).toBe(0);
  });

  test('drift per entry: one entry removed in Google shows as that entry in plan (exit 2), one apply restores it in one write; an entry added by hand is no drift', async () => {
    const name = newPolicy();
    const tf = workspace();
    const many = entries(VIEWER, ...Array.from({ length: 30 }, (_, i) => user(i)));
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: many } } } });
    expect((await tf.apply()).code).toBe(0);
    await editElsewhere(name, (p) => ({
      ...p,
      bindings: p.bindings!.map((b) =>
        b.role === VIEWER ? { ...b, members: b.members!.filter((m) => m !== user(7)).concat('user:handmade@example.com') } : b,
      ),
    }));
    const plan = await tf.plan();
    expect(plan.code).toBe(2);
    // The one entry, readably: not the thirty (the refresh found it missing, the apply grants it again).
    expect(plan.stdout).toContain(`~ missing_grants = [\n          - "${VIEWER}: ${user(7)}",\n        ]`);
    expect(plan.stdout).toContain('# (30 unchanged blocks hidden)');
    expect(plan.stdout).not.toContain('handmade');
    const since = lastSeq(name);
    expect((await tf.apply()).code).toBe(0);
    expect(writesAfter(name, since)).toHaveLength(1);
    expect(members(name)).toContain(user(7));
    expect(members(name)).toContain('user:handmade@example.com');
    expect((await tf.plan()).code).toBe(0);
  });

  test('destroy revokes the entries only', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: [...entries(VIEWER, user(1)), ...entries(EDITOR, user(2))] } } } });
    expect((await tf.apply()).code).toBe(0);
    expect((await tf.terraform(['destroy', '-auto-approve'])).code).toBe(0);
    expect(emulator.policy(name).bindings).toEqual([
      { role: ADMIN, members: [FOREIGN] },
      { role: VIEWER, members: [FOREIGN] },
    ]);
  });

  test('an entry listed twice in one resource, or granted by two resources, is refused before anything is written', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({
      resource: { [MEMBERS]: { team: { name, grant: [...entries(VIEWER, user(1)), { role: VIEWER, member: 'user:U1@example.com' }] } } },
    });
    const twice = await tf.apply();
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('Invalid IAM grant');
    expect(twice.stderr).toMatch(
      /grants\[1\]\.role: grants\[0\] already lists roles\/networksecurity\.viewer for\s+user:U1@example\.com; list each once/,
    );
    tf.configure({
      resource: {
        [MEMBERS]: { team: { name, grant: entries(VIEWER, user(1), user(2)) } },
        [MEMBER]: { one: { name, role: VIEWER, member: user(2) } },
      },
    });
    const across = await tf.apply();
    expect(across.code).toBe(1);
    expect(across.stderr).toContain('The same grant twice');
    expect(across.stderr).toContain('declare each grant once');
    expect(emulator.writes(name)).toEqual([]);
  });

  test('a member learned at apply (another resource creates it) is granted with the others', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({
      resource: {
        terraform_data: { sa: { input: 'serviceAccount:made-now@p-123456.iam.gserviceaccount.com' } },
        [MEMBERS]: { team: { name, grant: [...entries(VIEWER, user(1)), { role: VIEWER, member: '${terraform_data.sa.output}' }] } },
      },
    });
    const apply = await tf.apply();
    expect(apply.code).toBe(0);
    expect(members(name)).toContain('serviceAccount:made-now@p-123456.iam.gserviceaccount.com');
    expect((await tf.plan()).code).toBe(0);
  });

  test('import adopts nothing and revokes nothing: the next apply grants what the configuration lists, foreign grants stay', async () => {
    const name = newPolicy();
    emulator.addResource(name, {
      bindings: [
        { role: ADMIN, members: [FOREIGN] },
        { role: VIEWER, members: [FOREIGN, user(1)] },
      ],
    });
    const tf = workspace();
    tf.configure({
      resource: { [MEMBERS]: { team: { name, grant: entries(VIEWER, user(1), user(2)) } } },
      import: [{ to: `${MEMBERS}.team`, id: name }],
    });
    const apply = await tf.apply();
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('1 imported, 0 added, 1 changed, 0 destroyed');
    expect(members(name)).toEqual([FOREIGN, user(1), user(2)].sort());
    for (const write of emulator.writes(name)) expect(membersIn(write, VIEWER)).toEqual(expect.arrayContaining([FOREIGN, user(1)]));
    expect((await tf.plan()).code).toBe(0);
  });

  for (const direction of ['member grants → a bulk resource', 'a bulk resource → member grants'] as const) {
    test(`grants moved from ${direction} in one apply: nothing lost, no gap in any write`, async () => {
      const name = newPolicy();
      const tf = workspace();
      const moved = [user(1), user(2), user(3), user(4)];
      const asMembers = { [MEMBER]: Object.fromEntries(moved.map((m, i) => [`m${i}`, { name, role: VIEWER, member: m }])) };
      const asBulk = { [MEMBERS]: { team: { name, grant: entries(VIEWER, ...moved) } } };
      const [from, to] = direction === 'member grants → a bulk resource' ? [asMembers, asBulk] : [asBulk, asMembers];
      tf.configure({ resource: from });
      expect((await tf.apply()).code).toBe(0);
      const since = lastSeq(name);
      tf.configure({ resource: to });
      expect((await tf.apply()).code).toBe(0);
      expect(writesAfter(name, since).length).toBeGreaterThan(0);
      expectNoGap(emulator, name, VIEWER, [FOREIGN, ...moved]);
      expect(members(name)).toEqual([FOREIGN, ...moved].sort());
      expect((await tf.plan()).code).toBe(0);
    });
  }

  test('a write whose answer was lost and that no later write confirms: the resource is kept (tainted), so destroy revokes its entries', async () => {
    const name = newPolicy();
    const tf = workspace({ CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '0' });
    emulator.afterWrite = () => {
      emulator.setFaults({ rate: 1, kinds: ['503'] }); // every call after this write fails, the settling one too
      throw new ApiError(503, 'UNAVAILABLE', 'carried out, and the answer lost');
    };
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: entries(VIEWER, user(1), user(2)) } } } });
    const apply = await tf.apply();
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('whether Google carried it out is unknown');
    expect(tf.state().find((r) => r.type === MEMBERS)?.instances[0].status).toBe('tainted');
    expect(members(name)).toEqual([FOREIGN, user(1), user(2)].sort()); // it was carried out
    emulator.afterWrite = undefined;
    emulator.setFaults(undefined);
    expect((await tf.terraform(['destroy', '-auto-approve'])).code).toBe(0);
    expect(members(name)).toEqual([FOREIGN]);
  });

  test('Ctrl-C while the write waits: terraform stops, and the state holds what Google holds', async () => {
    const name = newPolicy();
    const tf = workspace();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let writing = false;
    emulator.afterWrite = () => {
      writing = true;
      return held;
    };
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: entries(VIEWER, user(1)) } } } });
    const child = await tf.start(['apply', '-auto-approve', '-input=false']);
    const done = exited(child);
    await until(() => writing, 60_000);
    child.kill('SIGINT');
    setTimeout(release, 500);
    const { output } = await done;
    expect(output).toContain('Stopping operation');
    emulator.afterWrite = undefined;
    // The write in flight was answered and recorded: state and Google agree.
    expect(members(name)).toEqual([FOREIGN, user(1)].sort());
    expect(tf.addresses()).toEqual([`${MEMBERS}.team`]);
    expect((await tf.plan()).code).toBe(0);
  });
});

describe('googleiam_*_iam_members: -target, -replace, a failed create, the resource deleted in Google', () => {
  test('-target applies that resource alone; -replace revokes and grants its entries again, nothing else lost', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({
      resource: {
        [MEMBERS]: { team: { name, grant: entries(VIEWER, user(1), user(2)) }, admins: { name, grant: entries(EDITOR, user(3)) } },
      },
    });
    const targeted = await tf.apply(`-target=${MEMBERS}.team`);
    expect(targeted.stdout).toContain('Resources: 1 added, 0 changed, 0 destroyed.');
    expect(members(name)).toEqual([FOREIGN, user(1), user(2)].sort());
    expect(members(name, EDITOR)).toEqual([]);
    expect((await tf.apply()).stdout).toContain('Resources: 1 added, 0 changed, 0 destroyed.');
    expect(members(name, EDITOR)).toEqual([user(3)]);
    const since = lastSeq(name);
    const replaced = await tf.apply(`-replace=${MEMBERS}.team`);
    expect(replaced.stdout).toContain('Resources: 1 added, 0 changed, 1 destroyed.');
    // Destroy then create: at most a revoke and a grant; the other resource's and the foreign grants stay in every write.
    const writes = writesAfter(name, since);
    expect(writes.length).toBeGreaterThanOrEqual(1);
    expect(writes.length).toBeLessThanOrEqual(2);
    for (const write of writes) {
      expect(membersIn(write, VIEWER)).toContain(FOREIGN);
      expect(membersIn(write, EDITOR)).toEqual([user(3)]);
    }
    expect(members(name)).toEqual([FOREIGN, user(1), user(2)].sort());
    expect((await tf.plan()).code).toBe(0);
  });

  test('a failed create (the policy does not exist yet) leaves no state for it; the next apply grants every entry', async () => {
    const name = newPolicy();
    const later = `projects/p-123456/locations/global/authorizationPolicies/later-${++counter}`;
    const tf = workspace();
    tf.configure({
      resource: {
        [MEMBERS]: { now: { name, grant: entries(VIEWER, user(1)) }, later: { name: later, grant: entries(VIEWER, user(2), user(3)) } },
      },
    });
    const failed = await tf.apply();
    expect(failed.code).toBe(1);
    expect(failed.output).toContain('NOT_FOUND');
    expect(tf.addresses()).toEqual([`${MEMBERS}.now`]);
    expect(emulator.writes(later)).toEqual([]);
    emulator.addResource(later, { bindings: [] });
    const completed = await tf.apply();
    expect(completed.stdout).toContain('Resources: 1 added, 0 changed, 0 destroyed.');
    expect(emulator.writes(later)).toHaveLength(1);
    expect(members(later)).toEqual([user(2), user(3)]);
    expect(members(name)).toEqual([FOREIGN, user(1)].sort());
  });

  test('the resource deleted in Google: plan shows it (exit 2) with a warning, destroy succeeds and writes nothing', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: entries(VIEWER, user(1), user(2)) } } } });
    expect((await tf.apply()).code).toBe(0);
    const since = lastSeq(name);
    emulator.removeResource(name);
    const plan = await tf.plan();
    expect(plan.code).toBe(2);
    expect(plan.output).toContain(`${name} no longer exists`);
    const destroy = await tf.terraform(['destroy', '-auto-approve', '-input=false']);
    expect(destroy.code).toBe(0);
    expect(writesAfter(name, since)).toEqual([]);
    expect(tf.state()).toEqual([]);
  });
});

describe("googleiam_*_iam_member_roles: one principal's roles, authoritatively", () => {
  test('create: the principal holds exactly these roles; its other role is removed and the plan said so; others untouched', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: { [ROLES]: { foreign: { name, member: FOREIGN, grant: [{ role: EDITOR }, { role: VIEWER }] } } } });
    const plan = await tf.plan();
    expect(plan.code).toBe(2);
    // A warning, on stdout with the plan.
    expect(plan.stdout).toContain(`Warning: ${ROLES} removes grants the configuration does not list`);
    expect(plan.stdout.replace(/\s+/g, ' ')).toContain(`${ADMIN}: ${FOREIGN}`);
    expect((await tf.apply()).code).toBe(0);
    expect(emulator.policy(name).bindings).toEqual([
      { role: VIEWER, members: [FOREIGN] },
      { role: EDITOR, members: [FOREIGN] },
    ]);
    expect((await tf.plan()).code).toBe(0);
  });

  test('drift: a role added to the principal by hand shows in plan (exit 2) and apply removes it; a role of another principal is no drift', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: { [ROLES]: { alice: { name, member: user('alice'), grant: [{ role: VIEWER }] } } } });
    expect((await tf.apply()).code).toBe(0);
    await editElsewhere(name, (p) => ({ ...p, bindings: [...p.bindings!, { role: EDITOR, members: [user('alice'), user('bob')] }] }));
    const plan = await tf.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(`- grant {\n          - role = "${EDITOR}" -> null\n        }`);
    expect((await tf.apply()).code).toBe(0);
    expect(members(name, EDITOR)).toEqual([user('bob')]);
    expect(members(name)).toEqual([FOREIGN, user('alice')].sort());
    expect((await tf.plan()).code).toBe(0);
  });

  test('import "<resource> <member>" adopts its roles; destroy revokes the declared roles only', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({
      resource: { [ROLES]: { foreign: { name, member: FOREIGN, grant: [{ role: ADMIN }, { role: VIEWER }] } } },
      import: [{ to: `${ROLES}.foreign`, id: `${name} ${FOREIGN}` }],
    });
    const apply = await tf.apply();
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('1 imported, 0 added, 0 changed, 0 destroyed');
    await editElsewhere(name, (p) => ({ ...p, bindings: [...p.bindings!, { role: EDITOR, members: [user('bob')] }] }));
    expect((await tf.terraform(['destroy', '-auto-approve'])).code).toBe(0);
    expect(emulator.policy(name).bindings).toEqual([{ role: EDITOR, members: [user('bob')] }]);
  });
});
