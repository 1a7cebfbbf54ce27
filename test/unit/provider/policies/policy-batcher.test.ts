/**
 * The per-policy batcher against an in-memory policy: what goes into one
 * write, the policy kept between batches (no read, the etag reused, a stale
 * one read afresh), the gathering of the requests Terraform refills its
 * slots with, and cancellation by a call's signal. The same batcher behind
 * the resource types against the emulator: test/integration/provider/resources.test.ts.
 */
import type { PolicyEdit } from '../../../../lib/iam/policy-edit';
import { etagDigest, PolicyBatcher, StaleRead } from '../../../../lib/provider/policies/policy-batcher';
import { MemoryPolicy } from '../../../support/memory-policy';

const ROLE = 'roles/networksecurity.viewer';
const FAST = { initialDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 1_000 };
const add = (i: number | string): PolicyEdit[] => [{ kind: 'addMember', role: ROLE, member: `user:u${i}@example.com` }];
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function batcher(policy: MemoryPolicy): PolicyBatcher {
  return new PolicyBatcher(policy, { change: FAST, read: FAST, staleRead: FAST, maxGatherMs: 100, idleGatherMs: 30 });
}

test('requests that arrive together are one read and one write; the next batch writes on the kept policy without reading', async () => {
  const policy = new MemoryPolicy();
  const policies = batcher(policy);
  const first = await Promise.all([1, 2, 3].map((i) => policies.change(add(i))));
  expect(first.map((r) => r.batchSize)).toEqual([3, 3, 3]);
  await Promise.all([4, 5].map((i) => policies.change(add(i))));
  expect([policy.reads.length, policy.writes.length]).toEqual([1 + 2, 2]); // one read, and each write's answer
  expect(await policies.read()).toBe(await policies.read());
});

test('a policy someone else wrote meanwhile: the stale etag is refused, the batch reads afresh and keeps their change', async () => {
  const policy = new MemoryPolicy();
  const policies = batcher(policy);
  await policies.change(add(1));
  policy.concurrentWrite({ bindings: [{ role: ROLE, members: ['user:u1@example.com', 'user:theirs@example.com'] }] });
  await policies.change(add(2));
  expect(policy.policy.bindings).toEqual([
    { role: ROLE, members: ['user:u1@example.com', 'user:theirs@example.com', 'user:u2@example.com'] },
  ]);
});

test('after a batch of N is answered, the next one waits for N requests arriving a few ms apart', async () => {
  const policy = new MemoryPolicy();
  const policies = batcher(policy);
  await Promise.all([0, 1, 2, 3].map((i) => policies.change(add(i))));
  const staggered = [4, 5, 6, 7].map(async (i) => {
    await sleep((i - 4) * 10);
    return policies.change(add(i));
  });
  const results = await Promise.all(staggered);
  expect(results.map((r) => r.batchSize)).toEqual([4, 4, 4, 4]);
  expect(policy.writes).toHaveLength(2);
});

test("a request cancelled by its call's signal before it is sent fails as cancelled; the rest are written", async () => {
  const policy = new MemoryPolicy();
  const policies = batcher(policy);
  await policies.change(add(0)); // a batch of 1: the next one waits for nobody
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const original = policy.setIamPolicy.bind(policy);
  policy.setIamPolicy = async (p, o) => {
    await held;
    return original(p, o);
  };
  const inFlight = policies.change(add(1));
  await sleep(5);
  const abort = new AbortController();
  const queued = policies.change(add(2), abort.signal);
  abort.abort();
  release();
  await expect(queued).rejects.toThrow(/^cancelled: Terraform asked the provider to stop \(Ctrl-C\)/);
  await expect(inFlight).resolves.toMatchObject({ changed: true });
  expect(policy.policy.bindings![0].members).toEqual(['user:u0@example.com', 'user:u1@example.com']);
});

describe('what a change remembers of the versions its writes replaced, for refreshes that read a lagging answer', () => {
  test('each change carries the digests of the versions replaced so far, its own write included, oldest first', async () => {
    const policy = new MemoryPolicy();
    const policies = batcher(policy);
    const first = await policies.change(add(1));
    const second = await policies.change(add(2));
    expect(first.replaced).toEqual([etagDigest('etag-1')]);
    expect(second.replaced).toEqual([etagDigest('etag-1'), etagDigest('etag-2')]);
    expect(second.etag).toBe('etag-3');
    expect(etagDigest('etag-1')).toMatch(/^[A-Za-z0-9_-]{6}$/);
  });

  test('a change found already so is still written, with the etag it read: only Google taking it proves the read current', async () => {
    const policy = new MemoryPolicy({ bindings: [{ role: ROLE, members: ['user:u1@example.com'] }] });
    const result = await batcher(policy).change(add(1));
    expect(result).toMatchObject({ changed: false, replaced: [etagDigest('etag-1')], etag: 'etag-2' });
    expect(policy.writes.map((w) => w.policy.etag)).toEqual(['etag-1']);
  });

  test("the empty policy's etag (ACAB) is never remembered: a resource created again answers it again", async () => {
    const policy = new MemoryPolicy();
    policy.policy = { etag: 'ACAB' };
    const result = await batcher(policy).change(add(1));
    expect(result.replaced).toEqual([]);
  });

  test('readNotStale: no second read when the first is not stale; else polls until another answer, shared by every caller', async () => {
    const policy = new MemoryPolicy();
    const policies = batcher(policy);
    const stale = (p: { etag?: string }) => p.etag === 'etag-1';
    expect((await policies.readNotStale(() => false)).etag).toBe('etag-1');
    expect(policy.reads).toHaveLength(1);
    setTimeout(() => policy.concurrentWrite({}), 20);
    const heard: (string | undefined)[] = [];
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => policies.readNotStale(stale, (older) => heard.push(older.etag))));
    expect(answers.map((p) => p.etag)).toEqual(['etag-2', 'etag-2', 'etag-2', 'etag-2', 'etag-2']);
    expect(heard).toEqual(['etag-1', 'etag-1', 'etag-1', 'etag-1', 'etag-1']);
    // One poll for the five callers: a read every 1-2 ms for about 20 ms, not five times as many.
    expect(policy.reads.length).toBeLessThan(40);
  });

  test('readNotStale rejects with StaleRead once its budget is spent', async () => {
    const policy = new MemoryPolicy();
    const policies = new PolicyBatcher(policy, {
      change: FAST,
      read: FAST,
      staleRead: { ...FAST, maxElapsedMs: 20 },
    });
    await expect(policies.readNotStale(() => true)).rejects.toBeInstanceOf(StaleRead);
  });
});

test("a grant's delete and its create at another address, sent together, leave the grant, in either order", async () => {
  const policy = new MemoryPolicy({ bindings: [{ role: ROLE, members: ['user:u1@example.com'] }] });
  const policies = batcher(policy);
  const remove: PolicyEdit[] = [{ kind: 'removeMember', role: ROLE, member: 'user:u1@example.com' }];
  // The create's request arrives first, the delete's right after: one batch.
  const [created, deleted] = await Promise.all([policies.change(add(1)), policies.change(remove)]);
  expect(created.batchSize).toBe(2);
  expect(deleted.batchSize).toBe(2);
  expect(policy.policy.bindings).toEqual([{ role: ROLE, members: ['user:u1@example.com'] }]);
});

test('a delete after a create of the same grant in this process (another address, a later batch) leaves the grant', async () => {
  const policy = new MemoryPolicy();
  const policies = batcher(policy);
  await policies.change(add(1)); // the create at the new address
  const remove: PolicyEdit[] = [{ kind: 'removeMember', role: ROLE, member: 'user:U1@Example.com' }];
  const deleted = await policies.change(remove); // the delete at the old address, in a later batch
  expect(deleted.changed).toBe(false);
  expect(policy.policy.bindings).toEqual([{ role: ROLE, members: ['user:u1@example.com'] }]);
  // An update at a third address moving u1 away to u3 leaves u1 too (declared by the create); u0, never declared, goes.
  policy.concurrentWrite({ bindings: [{ role: ROLE, members: ['user:u0@example.com', 'user:u1@example.com'] }] });
  await policies.change([
    { kind: 'removeMember', role: ROLE, member: 'user:u1@example.com' },
    { kind: 'addMember', role: ROLE, member: 'user:u3@example.com' },
  ]);
  await policies.change([{ kind: 'removeMember', role: ROLE, member: 'user:u0@example.com' }]);
  expect(policy.policy.bindings).toEqual([{ role: ROLE, members: ['user:u1@example.com', 'user:u3@example.com'] }]);
});
