/** How many requests a batch waits for, from the pace of Terraform's requests and of the writes (batch-pace.ts). */
import { BatchPace, OutstandingChanges } from '../../../../lib/provider/policies/batch-pace';

/** A pace that saw `outstanding` requests arrive `gapMs` apart and writes of `writeMs`. */
function paced(gapMs: number, writeMs: number, outstanding = 10): BatchPace {
  const pace = new BatchPace();
  for (let i = 0; i < outstanding; i++) pace.arrived(i * gapMs, i + 1);
  pace.wrote(writeMs);
  return pace;
}

test('nothing known yet: no number to wait for, and the idle time is the floor', () => {
  const pace = new BatchPace();
  expect(pace.target()).toBe(Infinity);
  expect(pace.idleMs(60)).toBe(60);
  pace.arrived(0, 1);
  expect(pace.target()).toBe(Infinity); // no write yet
});

test('Terraform quicker than the writes (a small state, a quiet machine): full batches', () => {
  // A request every 2 ms, writes of 100 ms: 50 arrive per write, more than -parallelism.
  expect(paced(2, 100).target()).toBe(10);
});

test('Terraform slower (a large state): as many as leave it results to save while the next write is out', () => {
  // A request every 20 ms, writes of 100 ms: 5 keep the writes up, 10 - 5 leave Terraform busy.
  expect(paced(20, 100).target()).toBe(5);
});

test('on a busy machine the batches grow instead of shrinking', () => {
  const quiet = paced(20, 100).target();
  const busy = paced(60, 100).target();
  expect(busy).toBe(8);
  expect(busy).toBeGreaterThan(quiet);
});

test('writes much quicker than Terraform: the whole of what is outstanding', () => {
  expect(paced(50, 1).target()).toBe(10);
});

test('a pause between requests is not the pace; the idle time follows the pace, within 1 to 4 times the floor', () => {
  const pace = new BatchPace();
  pace.arrived(0, 1);
  pace.arrived(10_000, 1); // a pause
  expect(pace.idleMs(60)).toBe(60);
  pace.arrived(10_040, 2);
  expect(pace.idleMs(60)).toBe(120); // three gaps of 40 ms
  for (let t = 10_240; t < 12_000; t += 200) pace.arrived(t, 2);
  expect(pace.idleMs(60)).toBe(240);
});

describe('OutstandingChanges', () => {
  test('all waiting: every request ever outstanding at once sits in a queue, none is being written, after a first answer', () => {
    const outstanding = new OutstandingChanges();
    outstanding.enqueued(3);
    expect(outstanding.allWaiting).toBe(false); // the most is not known before a batch was answered
    outstanding.writeStarted(3);
    outstanding.enqueued(2);
    expect(outstanding.allWaiting).toBe(false); // a write is out: its answer frees Terraform to send more
    outstanding.writeEnded(3);
    expect(outstanding.allWaiting).toBe(false); // 2 of the 5 seen at once
    outstanding.enqueued(3);
    expect(outstanding.allWaiting).toBe(true);
    outstanding.dequeued(1); // one cancelled
    expect(outstanding.allWaiting).toBe(false);
  });
});
