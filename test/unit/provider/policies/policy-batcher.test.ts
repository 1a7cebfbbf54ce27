/**
 * The per-policy batcher against an in-memory policy: what goes into one
 * write, the policy kept between batches (no read, the etag reused, a stale
 * one read afresh), the gathering of the requests Terraform refills its
 * slots with, and cancellation by a call's signal. The same batcher behind
 * the resource types against the emulator: test/integration/provider/resources.test.ts.
 */
import type { PolicyEdit } from '../../../../lib/iam/policy-edit';
import { PolicyBatcher } from '../../../../lib/provider/policies/policy-batcher';
import { MemoryPolicy } from '../../../support/memory-policy';

const ROLE = 'roles/networksecurity.authorizationPolicyViewer';
const FAST = { initialDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 1_000 };
const add = (i: number | string): PolicyEdit[] => [{ kind: 'addMember', role: ROLE, member: `user:u${i}@example.com` }];
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function batcher(policy: MemoryPolicy): PolicyBatcher {
  return new PolicyBatcher(policy, { change: FAST, check: FAST, read: FAST, staleRead: FAST, maxGatherMs: 100, idleGatherMs: 30 });
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
