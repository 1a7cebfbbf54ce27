/**
 * Trust across kinds and failures (issue 49), under the real terraform against the emulator, in HCL (JSON) as
 * users write it, each checked against the emulator's write history:
 * - an update whose outcome is unknown keeps what it was revoking, so the next apply finishes the job;
 * - an authoritative kind and another kind claiming one (principal, role) on one policy are refused at plan,
 *   before anything is written, on both resources (Terraform names each one's address);
 * - such a finding never traps `terraform destroy`;
 * - an authoritative kind's removal warning names only what the configuration never listed.
 */
import { GoogleApiEmulator } from '../../../lib/testing';
import { ApiError } from '../../../lib/testing/emulator/api-error';
import { GoogleIamWorkspace } from '../../support/googleiam-workspace';
import { membersIn } from '../../support/write-history';

jest.setTimeout(180_000);

const VIEWER = 'roles/networksecurity.viewer';
const EDITOR = 'roles/networksecurity.editor';
const FOREIGN = 'user:foreign@example.com';
const user = (name: string) => `user:${name}@example.com`;
const MEMBER = 'googleiam_authorization_policy_iam_member';
const MEMBERS = 'googleiam_authorization_policy_iam_members';
const BINDING = 'googleiam_authorization_policy_iam_binding';
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

/** A policy where someone else granted VIEWER to FOREIGN. */
function newPolicy(): string {
  const name = `projects/p-123456/locations/global/authorizationPolicies/trust-${++counter}`;
  emulator.addResource(name, { bindings: [{ role: VIEWER, members: [FOREIGN] }] });
  return name;
}

/** A workspace whose writes give up within a second, so a fault outlasts them. */
function workspace(): GoogleIamWorkspace {
  const created = GoogleIamWorkspace.create(emulator, { CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '600' });
  workspaces.push(created);
  return created;
}

const entries = (role: string, ...members: string[]) => members.map((member) => ({ role, member }));
const members = (name: string, role = VIEWER) =>
  [...((emulator.policy(name).bindings ?? []).find((b) => b.role === role && !b.condition)?.members ?? [])].sort();
const seqOf = (name: string) => emulator.writes(name).at(-1)?.seq ?? 0;
const writesAfter = (name: string, seq: number) => emulator.writes(name).filter((w) => w.seq > seq);
/** What terraform printed, its lines joined as one (Terraform wraps its messages at 80 columns). */
const text = (output: string) => output.replace(/\s+/g, ' ');

/** Every setIamPolicy answered 503 before anything is done, until the returned function is called. */
function refuseWrites(): () => void {
  emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['setIamPolicy'] });
  return () => emulator.setFaults(undefined);
}

/** The next setIamPolicy is carried out and answered 503, and every read fails, until the returned function is called. */
function loseTheNextAnswer(): () => void {
  let lost = false;
  emulator.afterWrite = () => {
    if (lost) return;
    lost = true;
    emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['getIamPolicy', 'setIamPolicy'] });
    throw new ApiError(503, 'UNAVAILABLE', 'The service is currently unavailable (the write was carried out).');
  };
  return () => {
    emulator.afterWrite = undefined;
    emulator.setFaults(undefined);
  };
}

describe('an update whose outcome is unknown keeps what it was revoking (finding 2)', () => {
  test('a bulk resource cut from 5 entries to 3 while every write fails: the next apply revokes the 2', async () => {
    const name = newPolicy();
    const tf = workspace();
    const five = entries(EDITOR, user('a'), user('b'), user('c'), user('d'), user('e'));
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: five } } } });
    expect((await tf.apply()).code).toBe(0);
    tf.configure({ resource: { [MEMBERS]: { team: { name, grant: five.slice(0, 3) } } } });
    const before = seqOf(name);
    const recover = refuseWrites();
    const failed = await tf.apply();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('whether Google carried it out is unknown');
    expect(text(failed.stderr)).toContain('Terraform keeps the values from before this change in its state');
    // What the update was revoking is still in the state, so nothing is lost track of.
    expect((tf.state()[0].instances[0].attributes.grant as unknown[]).length).toBe(5);
    expect(writesAfter(name, before)).toEqual([]);
    recover();
    const plan = await tf.plan();
    expect(plan.code).toBe(2);
    const apply = await tf.apply();
    expect(apply.code).toBe(0);
    expect(members(name, EDITOR)).toEqual([user('a'), user('b'), user('c')]);
    const [write] = writesAfter(name, before);
    expect(membersIn(write, EDITOR)).toEqual([user('a'), user('b'), user('c')]);
    expect(members(name)).toEqual([FOREIGN]);
    expect((await tf.plan()).code).toBe(0);
  });

  test("an _iam_member whose role changes while the write's answer is lost: the next plan takes the new role, nothing left of the old", async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: { [MEMBER]: { alice: { name, role: VIEWER, member: user('alice') } } } });
    expect((await tf.apply()).code).toBe(0);
    tf.configure({ resource: { [MEMBER]: { alice: { name, role: EDITOR, member: user('alice') } } } });
    const recover = loseTheNextAnswer();
    const failed = await tf.apply();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('whether Google carried it out is unknown');
    // The write was carried out: Google holds the new role only; the state keeps the old one (and the new, privately).
    expect(members(name)).toEqual([FOREIGN]);
    expect(members(name, EDITOR)).toEqual([user('alice')]);
    expect(tf.state()[0].instances[0].attributes.role).toBe(VIEWER);
    recover();
    const before = seqOf(name);
    // The refresh sees the old role gone and the new one held: the update went through, and nothing is left to do.
    expect((await tf.plan()).code).toBe(0);
    const apply = await tf.apply('-refresh=true');
    expect(apply.code).toBe(0);
    expect(tf.state()[0].instances[0].attributes.role).toBe(EDITOR);
    expect(writesAfter(name, before)).toEqual([]);
  });

  test("a create whose answer is lost, then deleted from the code while Google's reads lag that write: the refresh keeps it, and an apply revokes it", async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: { [MEMBER]: { alice: { name, role: EDITOR, member: user('alice') } } } });
    const recover = loseTheNextAnswer();
    const failed = await tf.apply();
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('whether Google carried it out is unknown');
    expect(tf.state()[0].instances[0].status).toBe('tainted');
    recover();
    // The write was carried out; reads now answer the version from before it, which the provider never saw replaced.
    expect(members(name, EDITOR)).toEqual([user('alice')]);
    tf.configure({ resource: {} });
    emulator.setReadLag(60_000);
    try {
      const lagging = await tf.apply();
      // The refresh keeps the grant (it used to drop it from the state, leaving it in Google with nothing to revoke it).
      expect(text(lagging.stdout + lagging.stderr)).toContain('lacks what a write of moments ago may have granted');
      // Its delete meets the lagging version's etag and gives up (the writes retry for 600 ms here): the state keeps it.
      expect(lagging.code).toBe(1);
      expect(tf.addresses()).toEqual([`${MEMBER}.alice`]);
    } finally {
      emulator.setReadLag(0);
    }
    // Once reads have caught up, a plain apply revokes it.
    const applied = await tf.apply();
    expect(applied.code).toBe(0);
    expect(members(name, EDITOR)).toEqual([]);
    expect(members(name)).toEqual([FOREIGN]);
    expect(tf.addresses()).toEqual([]);
    expect((await tf.plan()).code).toBe(0);
  });

  test("an _iam_member whose role changes while the write's answer is lost, then deleted from the code: both roles revoked", async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: { [MEMBER]: { alice: { name, role: VIEWER, member: user('alice') } } } });
    expect((await tf.apply()).code).toBe(0);
    tf.configure({ resource: { [MEMBER]: { alice: { name, role: EDITOR, member: user('alice') } } } });
    const recover = refuseWrites();
    expect((await tf.apply()).code).toBe(1);
    recover();
    // Google still holds the old role (nothing was written); the user gives up on the change and on the grant.
    expect(members(name)).toEqual([FOREIGN, user('alice')].sort());
    tf.configure({ resource: {} });
    const before = seqOf(name);
    const apply = await tf.apply();
    expect(apply.code).toBe(0);
    expect(members(name)).toEqual([FOREIGN]);
    expect(members(name, EDITOR)).toEqual([]);
    expect(writesAfter(name, before)).toHaveLength(1);
  });
});

describe('overlapping claims are refused at plan, on both resources, before anything is written (finding 3)', () => {
  /** The addresses Terraform names in the errors (`with <address>,`). */
  const erroredAddresses = (stderr: string) =>
    [...new Set([...stderr.matchAll(/with (googleiam_[a-z_]+\.[a-z0-9_]+),/g)].map((m) => m[1]))].sort();

  test("a principal's roles beside a bulk grant of the same principal", async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({
      resource: {
        [ROLES]: { alice: { name, member: user('alice'), grant: [{ role: VIEWER }] } },
        [MEMBERS]: { team: { name, grant: entries(EDITOR, user('alice'), user('bob')) } },
      },
    });
    const plan = await tf.plan();
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('Two resources claim one grant');
    expect(text(plan.stderr)).toContain('one of them owns every role of user:alice@example.com');
    expect(erroredAddresses(plan.stderr)).toEqual([`${ROLES}.alice`, `${MEMBERS}.team`]);
    const apply = await tf.apply();
    expect(apply.code).toBe(1);
    expect(emulator.writes(name)).toEqual([]);
    expect(tf.addresses()).toEqual([]);
  });

  test("a binding beside two principals' roles, one of which holds the binding's role", async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({
      resource: {
        [BINDING]: { viewers: { name, role: VIEWER, members: [user('carol')] } },
        [ROLES]: {
          alice: { name, member: user('alice'), grant: [{ role: VIEWER }] },
          bob: { name, member: user('bob'), grant: [{ role: VIEWER }, { role: EDITOR }] },
        },
      },
    });
    const apply = await tf.apply();
    expect(apply.code).toBe(1);
    expect(text(apply.stderr)).toContain('one of them owns the whole member list of roles/networksecurity.viewer');
    expect(erroredAddresses(apply.stderr)).toEqual([`${BINDING}.viewers`, `${ROLES}.alice`, `${ROLES}.bob`]);
    expect(emulator.writes(name)).toEqual([]);
  });

  test('the same grant in a member resource and a bulk resource: named on both', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({
      resource: {
        [MEMBERS]: { team: { name, grant: entries(VIEWER, user('a'), user('b')) } },
        [MEMBER]: { one: { name, role: VIEWER, member: user('b') } },
      },
    });
    const plan = await tf.plan();
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('The same grant twice');
    expect(erroredAddresses(plan.stderr)).toEqual([`${MEMBER}.one`, `${MEMBERS}.team`]);
  });

  test('a member learned only at apply is refused at apply, before its policy is written', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({
      resource: {
        terraform_data: { who: { input: user('alice') } },
        [ROLES]: { alice: { name, member: user('alice'), grant: [{ role: VIEWER }] } },
        [MEMBER]: { late: { name, role: EDITOR, member: '${terraform_data.who.output}', depends_on: [`${ROLES}.alice`] } },
      },
    });
    const apply = await tf.apply();
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('Two resources claim one grant');
    expect(apply.stderr).toMatch(/with googleiam_authorization_policy_iam_member\.late,/);
    // The principal's roles went first (depends_on); the member grant that contradicts them wrote nothing.
    expect(emulator.writes(name).every((w) => membersIn(w, EDITOR).length === 0)).toBe(true);
    expect(tf.addresses()).not.toContain(`${MEMBER}.late`);
  });
});

test('"The same grant twice" never traps terraform destroy (finding 4)', async () => {
  const name = newPolicy();
  const tf = workspace();
  tf.configure({ resource: { [MEMBERS]: { a: { name, grant: entries(EDITOR, user('a'), user('b')) } } } });
  expect((await tf.apply()).code).toBe(0);
  tf.configure({
    resource: {
      [MEMBERS]: { a: { name, grant: entries(EDITOR, user('a'), user('b')) }, b: { name, grant: entries(EDITOR, user('b'), user('c')) } },
    },
  });
  const plan = await tf.plan();
  expect(plan.code).toBe(1);
  expect(plan.stderr).toContain('The same grant twice');
  const before = seqOf(name);
  const destroy = await tf.terraform(['destroy', '-auto-approve', '-input=false']);
  expect(destroy.code).toBe(0);
  expect(destroy.stdout).toContain('1 destroyed');
  expect(members(name, EDITOR)).toEqual([]);
  expect(members(name)).toEqual([FOREIGN]);
  expect(writesAfter(name, before)).toHaveLength(1);
  expect(tf.addresses()).toEqual([]);
});

test("a binding's plan warns of the members the configuration never listed, not of one the user took out", async () => {
  const name = newPolicy();
  const tf = workspace();
  tf.configure({
    resource: {
      [BINDING]: { editors: { name, role: EDITOR, members: [user('ann'), 'serviceAccount:reporting@p-123456.iam.gserviceaccount.com'] } },
    },
  });
  expect((await tf.apply()).code).toBe(0);
  // Someone adds a member by hand (a console edit); the user takes reporting out of the configuration.
  const policy = emulator.policy(name);
  const edited = (policy.bindings ?? []).map((b) => (b.role === EDITOR ? { ...b, members: [...(b.members ?? []), user('byhand')] } : b));
  const response = await fetch(`${emulator.url}/networksecurity/v1/${name}:setIamPolicy`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${GoogleApiEmulator.ACCESS_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ policy: { ...policy, bindings: edited } }),
  });
  expect(response.status).toBe(200);
  tf.configure({ resource: { [BINDING]: { editors: { name, role: EDITOR, members: [user('ann')] } } } });
  const plan = await tf.plan();
  expect(plan.code).toBe(2);
  const printed = text(plan.stdout + plan.stderr);
  expect(printed).toContain('removes grants the configuration does not list');
  expect(printed).toContain(`does not list: ${EDITOR}: ${user('byhand')}. List them`);
  // reporting shows in the plan's diff as the removal the user asked for, and nowhere in the warning.
  expect(printed.slice(printed.indexOf('Warning:'))).not.toContain('reporting@');
});

/**
 * A saved plan is applied in a run of its own, whose walk holds only the plan's changes (no validation, no
 * unchanged resource), and Terraform gives a destroy's ApplyResourceChange the state's private data, not what its
 * plan left (terraform 1.11.4). So the provider reads the plan file (lib/provider/protocol/saved-plan.ts): what the
 * resources it leaves as they are grant, no delete of the apply revokes.
 */
describe('the apply of a saved plan spares what the resources it leaves as they are hold', () => {
  /** `old` and `moved` both grant EDITOR to alice (a targeted apply made `moved` and left `old`); the configuration holds `moved`. */
  async function bothInTheState() {
    const name = newPolicy();
    const tf = workspace();
    const grant = { name, role: EDITOR, member: user('alice') };
    tf.configure({ resource: { [MEMBER]: { old: grant } } });
    expect((await tf.apply()).code).toBe(0);
    tf.configure({ resource: { [MEMBER]: { moved: grant } } });
    expect((await tf.apply(`-target=${MEMBER}.moved`)).code).toBe(0);
    expect(tf.addresses().sort()).toEqual([`${MEMBER}.moved`, `${MEMBER}.old`]);
    return { name, tf };
  }

  /** Applies `plan.tfplan` (made by `plan -out` with `options`); the writes it made. */
  async function applySaved(tf: GoogleIamWorkspace, name: string, options: string[], summary: string) {
    const saved = await tf.terraform(['plan', '-input=false', ...options, '-out=plan.tfplan']);
    expect(saved.code).toBe(0);
    expect(saved.stdout).toContain(summary);
    const before = seqOf(name);
    const applied = await tf.terraform(['apply', '-input=false', 'plan.tfplan']);
    expect(applied.code).toBe(0);
    expect(text(applied.stdout + applied.stderr)).not.toContain('could not be read');
    return writesAfter(name, before);
  }

  test('the delete of an old address, while the unchanged new one grants the same: nothing is revoked, and the next plan is clean', async () => {
    const { name, tf } = await bothInTheState();
    const writes = await applySaved(tf, name, [], '0 to add, 0 to change, 1 to destroy');
    expect(writes.filter((write) => !membersIn(write, EDITOR).includes(user('alice')))).toEqual([]);
    expect(members(name, EDITOR)).toEqual([user('alice')]);
    expect(tf.addresses()).toEqual([`${MEMBER}.moved`]);
    expect((await tf.plan()).code).toBe(0);
    expect(members(name)).toEqual([FOREIGN]);
  });

  test('a targeted saved plan (-target the old address: the new one is not in the plan at all): nothing is revoked', async () => {
    const { name, tf } = await bothInTheState();
    const writes = await applySaved(tf, name, [`-target=${MEMBER}.old`], '0 to add, 0 to change, 1 to destroy');
    expect(writes.filter((write) => !membersIn(write, EDITOR).includes(user('alice')))).toEqual([]);
    expect(members(name, EDITOR)).toEqual([user('alice')]);
    expect((await tf.plan()).code).toBe(0);
  });

  test('both addresses deleted by the saved plan: the grant is revoked (an object the plan deletes spares nothing)', async () => {
    const { name, tf } = await bothInTheState();
    tf.configure({ resource: { [MEMBERS]: { other: { name, grant: entries(EDITOR, user('bob')) } } } });
    const writes = await applySaved(tf, name, [], '1 to add, 0 to change, 2 to destroy');
    expect(writes.length).toBeGreaterThan(0);
    expect(members(name, EDITOR)).toEqual([user('bob')]);
    expect(members(name)).toEqual([FOREIGN]);
    expect(tf.addresses()).toEqual([`${MEMBERS}.other`]);
    expect((await tf.plan()).code).toBe(0);
  });
});
