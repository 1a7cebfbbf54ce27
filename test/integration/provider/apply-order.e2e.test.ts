/**
 * Issue 41's eight defects, each as the real terraform meets it: a grant moved
 * between addresses and kinds with the create written before the delete, a
 * read that lags, a resource deleted and created again outside Terraform, an
 * interrupt during a wait, a lost answer. Each test fails on the engine before
 * issue 41 (the "granted here" filter, no-op writes skipped, own-write memory
 * that kept the empty policy's etag, sleeps Ctrl-C could not cut short) and
 * checks the emulator's write history, not only the end state.
 *
 * The order is forced with Terraform's own graph: a delete waits for the
 * destroy of a `terraform_data` whose old object depended on it and whose
 * replacement runs a destroy-time `sleep` (its provisioner is still in the
 * configuration, so it runs); an update waits for a dependency's create-time
 * `sleep`. The create meanwhile goes out at once, in a batch of its own.
 */
import type { Policy } from '../../../lib/iam/types';
import { GoogleApiEmulator } from '../../../lib/testing';
import { ApiError } from '../../../lib/testing/emulator/api-error';
import { GoogleIamWorkspace } from '../../support/googleiam-workspace';
import { exited, sleep, until } from '../../support/waiting';
import { historyOf } from '../../support/write-history';

jest.setTimeout(180_000);

const VIEWER = 'roles/networksecurity.viewer';
const OWNER = { role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] };
const user = (i: number | string) => `user:u${i}@example.com`;
const MEMBER = 'googleiam_authorization_policy_iam_member';

let emulator: GoogleApiEmulator;
const workspaces: GoogleIamWorkspace[] = [];
let counter = 0;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addProject('p-123456', '123456789012');
});
afterEach(() => {
  emulator.afterWrite = undefined;
  emulator.setReadLag(0);
});
afterAll(async () => {
  for (const workspace of workspaces) workspace.remove();
  await emulator.close();
});

function newPolicy(policy: Policy = { bindings: [OWNER] }): string {
  const name = `projects/p-123456/locations/global/authorizationPolicies/order-${++counter}`;
  emulator.addResource(name, policy);
  return name;
}

function workspace(env: Record<string, string> = {}): GoogleIamWorkspace {
  const created = GoogleIamWorkspace.create(emulator, env);
  workspaces.push(created);
  return created;
}

type Resources = Record<string, Record<string, Record<string, unknown>>>;

/** `resources` and, for the first apply, a gate whose old object depends on `lateDelete` (the address deleted late). */
function withLateDelete(resources: Resources, lateDelete: string, step: 1 | 2): Resources {
  return {
    ...resources,
    terraform_data: {
      gate: {
        triggers_replace: String(step),
        ...(step === 1 ? { depends_on: [lateDelete] } : {}),
        // Runs when the first gate is destroyed (the configuration still holds it): the delete of
        // `lateDelete`, which that gate depended on, waits for it.
        provisioner: [{ 'local-exec': { when: 'destroy', command: 'sleep 3' } }],
      },
    },
  };
}

/** The sequence number of the first write after `since` in which `member` holds (true) or lacks (false) `role`. */
function firstWrite(name: string, role: string, member: string, holds: boolean, since = 0): number | undefined {
  return emulator
    .writes(name)
    .filter((w) => w.seq > since)
    .find((w) => ((w.policy.bindings ?? []).find((b) => b.role === role && !b.condition)?.members ?? []).includes(member) === holds)?.seq;
}

const lastSeq = (name: string) => emulator.writes(name).at(-1)?.seq ?? 0;
const membersOf = (name: string, role: string) =>
  [...((emulator.policy(name).bindings ?? []).find((b) => b.role === role && !b.condition)?.members ?? [])].sort();

describe('a grant moved while Terraform writes the create in an earlier batch than the delete', () => {
  test('1. a binding r:[m, n] replaced by a member grant r:m: m keeps the role, n loses it', async () => {
    const name = newPolicy();
    const tf = workspace();
    const binding = { googleiam_authorization_policy_iam_binding: { readers: { name, role: VIEWER, members: [user('m'), user('n')] } } };
    tf.configure({ resource: withLateDelete(binding, 'googleiam_authorization_policy_iam_binding.readers', 1) });
    expect((await tf.apply()).code).toBe(0);
    const since = lastSeq(name);
    tf.configure({ resource: withLateDelete({ [MEMBER]: { m: { name, role: VIEWER, member: user('m') } } }, '', 2) });
    const apply = await tf.apply();
    expect(apply.code).toBe(0);
    // The create was written first (m already there), the delete after it, sparing m and revoking n.
    const revoked = firstWrite(name, VIEWER, user('n'), false, since)!;
    expect(revoked).toBeGreaterThan(since + 1);
    expect(membersOf(name, VIEWER)).toEqual([user('m')]);
    // No write after the change left m without the role.
    expect(firstWrite(name, VIEWER, user('m'), false, since)).toBeUndefined();
    expect((await tf.plan()).code).toBe(0);
  });

  test('3a. a policy grant moved to another address keeps every binding it declares', async () => {
    const name = newPolicy();
    const tf = workspace();
    const policy = (address: string) => ({
      googleiam_authorization_policy_iam_policy: { [address]: { name, bindings: [OWNER, { role: VIEWER, members: [user(1)] }] } },
    });
    tf.configure({ resource: withLateDelete(policy('old'), 'googleiam_authorization_policy_iam_policy.old', 1) });
    expect((await tf.apply()).code).toBe(0);
    const since = lastSeq(name);
    tf.configure({ resource: withLateDelete(policy('new'), '', 2) });
    expect((await tf.apply()).code).toBe(0);
    expect(emulator.writes(name).filter((w) => w.seq > since)).toHaveLength(2); // the create's write, then the delete's
    for (const write of emulator.writes(name).filter((w) => w.seq > since)) {
      expect(write.policy.bindings).toEqual([OWNER, { role: VIEWER, members: [user(1)] }]);
    }
    expect((await tf.plan()).code).toBe(0);
  });

  test('3b. a member grant replaced by a policy grant that declares the member: the member keeps the role', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: withLateDelete({ [MEMBER]: { m: { name, role: VIEWER, member: user('m') } } }, `${MEMBER}.m`, 1) });
    expect((await tf.apply()).code).toBe(0);
    const since = lastSeq(name);
    tf.configure({
      resource: withLateDelete(
        { googleiam_authorization_policy_iam_policy: { all: { name, bindings: [OWNER, { role: VIEWER, members: [user('m')] }] } } },
        '',
        2,
      ),
    });
    expect((await tf.apply()).code).toBe(0);
    expect(firstWrite(name, VIEWER, user('m'), false, since)).toBeUndefined();
    expect(membersOf(name, VIEWER)).toEqual([user('m')]);
    expect((await tf.plan()).code).toBe(0);
  });

  test('6. a typed member grant (v1) moved to a generic one (v1beta1) on the same policy: one batcher, the member stays', async () => {
    const name = newPolicy();
    const tf = workspace();
    tf.configure({ resource: withLateDelete({ [MEMBER]: { m: { name, role: VIEWER, member: user('m') } } }, `${MEMBER}.m`, 1) });
    expect((await tf.apply()).code).toBe(0);
    const since = lastSeq(name);
    tf.configure({
      resource: withLateDelete(
        { googleiam_iam_member: { m: { service: 'networksecurity', api_version: 'v1beta1', name, role: VIEWER, member: user('m') } } },
        '',
        2,
      ),
    });
    expect((await tf.apply()).code).toBe(0);
    expect(emulator.writes(name).filter((w) => w.seq > since)).toHaveLength(2);
    expect(firstWrite(name, VIEWER, user('m'), false, since)).toBeUndefined();
    expect((await tf.plan()).code).toBe(0);
  });

  test("6c. a member grant whose name gives the project's number moved to one that gives its id: one policy, the member stays", async () => {
    const name = newPolicy();
    const byNumber = name.replace('projects/p-123456/', 'projects/123456789012/');
    const tf = workspace();
    tf.configure({ resource: withLateDelete({ [MEMBER]: { m: { name: byNumber, role: VIEWER, member: user('m') } } }, `${MEMBER}.m`, 1) });
    expect((await tf.apply()).code).toBe(0);
    const since = lastSeq(name);
    tf.configure({ resource: withLateDelete({ [MEMBER]: { m2: { name, role: VIEWER, member: user('m') } } }, '', 2) });
    expect((await tf.apply()).code).toBe(0);
    expect(emulator.writes(name).filter((w) => w.seq > since)).toHaveLength(2);
    expect(firstWrite(name, VIEWER, user('m'), false, since)).toBeUndefined();
    expect((await tf.plan()).code).toBe(0);
  });

  test('6b. a member grant moved to another provider alias (another provider process) on the same policy: the member stays', async () => {
    const name = newPolicy();
    const tf = workspace();
    const aliases = [{}, { alias: 'second' }];
    tf.configure({ resource: withLateDelete({ [MEMBER]: { m: { name, role: VIEWER, member: user('m') } } }, `${MEMBER}.m`, 1) }, aliases);
    expect((await tf.apply()).code).toBe(0);
    const since = lastSeq(name);
    tf.configure(
      { resource: withLateDelete({ [MEMBER]: { m2: { provider: 'googleiam.second', name, role: VIEWER, member: user('m') } } }, '', 2) },
      aliases,
    );
    expect((await tf.apply()).code).toBe(0);
    expect(emulator.writes(name).filter((w) => w.seq > since)).toHaveLength(2);
    expect(firstWrite(name, VIEWER, user('m'), false, since)).toBeUndefined();
    expect((await tf.plan()).code).toBe(0);
  });
});

test('5. an update in place that moves a member away, while another address grants that member first: the member stays', async () => {
  const name = newPolicy();
  const tf = workspace();
  const config = (step: 1 | 2) => ({
    resource: {
      [MEMBER]: {
        // The update waits for the gate's create, which sleeps; the new grant at b does not.
        a: { name, role: VIEWER, member: user(step === 1 ? 'old' : 'new'), depends_on: ['terraform_data.gate'] },
        ...(step === 2 ? { b: { name, role: VIEWER, member: user('old') } } : {}),
      },
      terraform_data: {
        gate: { triggers_replace: String(step), provisioner: [{ 'local-exec': { command: step === 2 ? 'sleep 3' : 'true' } }] },
      },
    },
  });
  tf.configure(config(1));
  expect((await tf.apply()).code).toBe(0);
  const since = lastSeq(name);
  tf.configure(config(2));
  const apply = await tf.apply();
  expect(apply.code).toBe(0);
  expect(apply.stdout).toContain('Apply complete! Resources: 2 added, 1 changed, 1 destroyed.'); // b, and the gate replaced
  const writes = emulator.writes(name).filter((w) => w.seq > since);
  expect(writes).toHaveLength(2); // b's create, then a's update
  expect(firstWrite(name, VIEWER, user('old'), false, since)).toBeUndefined();
  expect(membersOf(name, VIEWER)).toEqual([user('new'), user('old')]);
  expect((await tf.plan()).code).toBe(0);
});

describe("2. a read that lags behind Google's last write never stands in for a write", () => {
  test('a revoke right after the grant (-refresh=false): written, and the member is gone', async () => {
    const name = newPolicy();
    const tf = workspace({ CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '30000' });
    emulator.setReadLag(5_000);
    tf.configure({ resource: { [MEMBER]: { m: { name, role: VIEWER, member: user('m') } } } });
    expect((await tf.apply()).code).toBe(0);
    const since = lastSeq(name);
    emulator.resetStats();
    tf.configure({ resource: {} });
    const apply = await tf.apply('-refresh=false');
    expect(apply.code).toBe(0);
    // Its first read answered the version before the grant (without m): the write with that etag was refused, and it read again.
    expect(firstWrite(name, VIEWER, user('m'), false, since)).toBeDefined();
    expect(membersOf(name, VIEWER)).toEqual([]);
    expect(emulator.stats().conflicts).toBeGreaterThan(0);
  });

  test('a grant right after a destroy: written, and the member holds the role', async () => {
    const name = newPolicy();
    const tf = workspace({ CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '30000' });
    emulator.setReadLag(6_000);
    tf.configure({ resource: { [MEMBER]: { m: { name, role: VIEWER, member: user('m') } } } });
    expect((await tf.apply()).code).toBe(0);
    expect((await tf.terraform(['destroy', '-auto-approve', '-refresh=false'])).code).toBe(0);
    const since = lastSeq(name);
    expect((await tf.apply('-refresh=false')).code).toBe(0);
    expect(firstWrite(name, VIEWER, user('m'), true, since)).toBeDefined();
    expect(membersOf(name, VIEWER)).toEqual([user('m')]);
  });
});

test('4. a resource deleted and created again outside Terraform: the next plan grants it again at once (kept in the state: a lagging read looks the same)', async () => {
  // A resource that never had a policy: the grant's write replaces the empty policy (etag ACAB).
  const name = `projects/p-123456/locations/global/authorizationPolicies/order-${++counter}`;
  emulator.addResource(name);
  expect(emulator.policy(name)).toEqual({ etag: 'ACAB' });
  const tf = workspace();
  tf.configure({ resource: { [MEMBER]: { m: { name, role: VIEWER, member: user('m') } } } });
  expect((await tf.apply()).code).toBe(0);
  emulator.removeResource(name);
  emulator.addResource(name); // created again: an empty policy, etag ACAB once more
  emulator.resetStats();
  const plan = await tf.plan();
  expect(plan.code).toBe(2);
  // Not dropped from the state (a read lagging the grant's own write answers the same empty policy, and a grant
  // dropped there would never be revoked if it left the configuration): updated, which grants it again.
  expect(plan.stdout).toContain(`${MEMBER}.m will be updated in-place`);
  expect(plan.stdout.replace(/\s+/g, ' ')).toContain("Google answered the empty policy, which this provider's write of");
  // One read: no polling past a version taken for one this provider had replaced.
  expect(emulator.stats().getIamPolicy).toBe(1);
  expect((await tf.apply()).code).toBe(0);
  expect(membersOf(name, VIEWER)).toEqual([user('m')]);
});

test('7. Ctrl-C while a grant waits for its resource to become visible: terraform stops at once, nothing written', async () => {
  const name = `projects/p-123456/locations/global/authorizationPolicies/order-${++counter}`;
  emulator.addResource(name, { bindings: [OWNER] }, { visibleAfterMs: 600_000 });
  // The first wait between attempts is 30 to 60 s: an interrupt that waited for it would take that long.
  const tf = workspace({ TF_LOG: 'warn', CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '60000' });
  tf.configure({ resource: { [MEMBER]: { m: { name, role: VIEWER, member: user('m') } } } }, { eventual_consistency_timeout: '10m' });
  const child = await tf.start(['apply', '-auto-approve', '-input=false']);
  const done = exited(child);
  let log = '';
  child.stderr!.on('data', (d: Buffer) => (log += d));
  await until(() => log.includes('to become visible to IAM'), 60_000);
  await sleep(500);
  const interrupted = Date.now();
  child.kill('SIGINT');
  const finished = await Promise.race([done, sleep(12_000).then(() => undefined)]);
  expect(finished).toBeDefined();
  expect(Date.now() - interrupted).toBeLessThan(12_000);
  expect(finished!.output).toContain('Stopping operation');
  expect(emulator.writes(name)).toEqual([]);
  expect(tf.addresses()).toEqual([]);
});

test("8. a write confirmed after its answer was lost is remembered as this grant's: a read of an older version right after is not drift", async () => {
  const name = newPolicy();
  const tf = workspace();
  emulator.afterWrite = () => {
    emulator.afterWrite = undefined;
    throw new ApiError(503, 'UNAVAILABLE', 'carried out, and the answer lost');
  };
  tf.configure({ resource: { [MEMBER]: { m: { name, role: VIEWER, member: user('m') } } } });
  expect((await tf.apply()).code).toBe(0);
  // The lost write (carried out), then the write that confirmed it with a fresh etag.
  expect(historyOf(emulator, name, VIEWER)).toEqual([[user('m')], [user('m')]]);
  // A replica behind answers the version before the grant: a lagging read, not drift.
  emulator.staleNextReads(1, 2, name);
  emulator.resetStats();
  const plan = await tf.plan();
  expect(plan.code).toBe(0);
  expect(emulator.stats().getIamPolicy).toBeGreaterThanOrEqual(2);
});
