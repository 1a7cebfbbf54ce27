/** When the batchers have gathered enough to write, from the pace of Terraform's requests and of the writes (batch-pace.ts). */
import { BatchPace } from '../../../../lib/provider/policies/batch-pace';

/** A pace that saw `held` requests arrive `gapMs` apart, all written in one write of `writeMs`. */
function paced(gapMs: number, writeMs: number, held = 10): BatchPace {
  const pace = new BatchPace();
  for (let i = 0; i < held; i++) pace.arrived(i * gapMs);
  pace.writeStarted(held);
  pace.writeEnded(held, writeMs);
  return pace;
}

test('nothing known yet: no number to wait for, and the idle time is the floor', () => {
  const pace = new BatchPace();
  expect(pace.target()).toBe(Infinity);
  expect(pace.idleMs(60)).toBe(60);
  pace.arrived(0);
  expect(pace.target()).toBe(Infinity); // no write yet
  expect(pace.enough).toBe(false);
});

test('Terraform quicker than the writes (a small state, a quiet machine): all it had out at once', () => {
  // A request every 2 ms, writes of 100 ms: 50 arrive per write, more than -parallelism.
  expect(paced(2, 100).target()).toBe(10);
});

test('Terraform slower (a large state): as many as leave it results to save while the writes are out', () => {
  // A request every 20 ms, writes of 100 ms: 10 - 5 leaves Terraform 5 results to save.
  expect(paced(20, 100).target()).toBe(5);
});

test('on a busy machine the batches grow instead of shrinking', () => {
  const quiet = paced(20, 100).target();
  const busy = paced(60, 100).target();
  expect(busy).toBe(9); // 10 - 100/60, rounded up
  expect(busy).toBeGreaterThan(quiet);
});

test('writes much quicker than Terraform: all it had out at once', () => {
  expect(paced(50, 1).target()).toBe(10);
});

test('enough: what is held over every policy, queued or being written, against the target', () => {
  const pace = paced(20, 100); // target 5
  for (let i = 0; i < 3; i++) pace.arrived(200 + i * 20);
  pace.writeStarted(2); // one policy writes 2, another still holds 1
  expect(pace.enough).toBe(false);
  pace.arrived(260);
  expect(pace.enough).toBe(false);
  pace.arrived(280);
  expect(pace.enough).toBe(true); // 2 being written + 3 queued
  pace.dequeued(1); // one cancelled
  expect(pace.enough).toBe(false);
});

test('a pause between requests is not the pace; the idle time follows the pace, within 1 to 4 times the floor', () => {
  const pace = new BatchPace();
  pace.arrived(0);
  pace.arrived(10_000); // a pause
  expect(pace.idleMs(60)).toBe(60);
  pace.arrived(10_040);
  expect(pace.idleMs(60)).toBe(120); // three gaps of 40 ms
  for (let t = 10_240; t < 12_000; t += 200) pace.arrived(t);
  expect(pace.idleMs(60)).toBe(240);
});
