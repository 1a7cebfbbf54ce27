import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PolicyQueue, type QueuedItem } from '../../lib/grant/policy-queue';

function tempRoot(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'policy-queue-'));
}

test('concurrent submitters are served in batches, one drain at a time, each getting its own result', async () => {
  const root = tempRoot();
  let running = 0;
  let maxRunning = 0;
  const batchSizes: number[] = [];
  const drain = async (batch: QueuedItem<number>[]) => {
    running++;
    maxRunning = Math.max(maxRunning, running);
    batchSizes.push(batch.length);
    await new Promise((r) => setTimeout(r, 30));
    running--;
    return new Map(batch.map((item) => [item.id, item.payload * 10]));
  };

  const results = await Promise.all(
    Array.from({ length: 20 }, (_, i) => new PolicyQueue<number, number>(root, 'policy-a').submit(i, drain)),
  );

  expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i * 10));
  expect(maxRunning).toBe(1);
  expect(batchSizes.reduce((a, b) => a + b, 0)).toBe(20);
  expect(batchSizes.length).toBeLessThan(20);
});

test('a lock holder prepares before it takes the batch, so requests queued meanwhile join it', async () => {
  const root = tempRoot();
  const batches: number[][] = [];
  let prepared = 0;
  const drain = async (batch: QueuedItem<number>[]) => {
    batches.push(batch.map((item) => item.payload));
    return new Map(batch.map((item) => [item.id, item.payload]));
  };
  const prepare = async () => {
    prepared++;
    await new Promise((r) => setTimeout(r, 100));
  };
  const submit = (n: number) => new PolicyQueue<number, number>(root, 'policy-p').submit(n, drain, prepare);

  const first = submit(1); // takes the lock, then prepares for 100 ms
  const later = [submit(2), submit(3)]; // queued while it prepares

  expect(await Promise.all([first, ...later])).toEqual([1, 2, 3]);
  expect(batches.map((b) => [...b].sort())).toEqual([[1, 2, 3]]);
  expect(prepared).toBe(1);
});

test('different policies do not share a queue', async () => {
  const root = tempRoot();
  const seen: string[][] = [];
  const drainFor = (label: string) => async (batch: QueuedItem<string>[]) => {
    seen.push(batch.map((b) => `${label}:${b.payload}`));
    return new Map(batch.map((b) => [b.id, b.payload]));
  };
  await Promise.all([
    new PolicyQueue<string, string>(root, 'one').submit('x', drainFor('one')),
    new PolicyQueue<string, string>(root, 'two').submit('y', drainFor('two')),
  ]);
  expect(seen.flat().sort()).toEqual(['one:x', 'two:y']);
  expect(seen.every((batch) => new Set(batch.map((b) => b.split(':')[0])).size === 1)).toBe(true);
});

test('a lock left behind by a dead process is taken over', async () => {
  const root = tempRoot();
  const queue = new PolicyQueue<string, string>(root, 'stale');
  const [hashDir] = fs.readdirSync(root);
  const lock = path.join(root, hashDir, 'lock');
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, 'owner'), JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), since: Date.now() }));

  await expect(queue.submit('payload', async (batch) => new Map(batch.map((b) => [b.id, `done ${b.payload}`])))).resolves.toBe('done payload');
});

test('a live lock holder is waited for, up to the timeout', async () => {
  const root = tempRoot();
  const queue = new PolicyQueue<string, string>(root, 'busy', { timeoutMs: 200 });
  const [hashDir] = fs.readdirSync(root);
  const lock = path.join(root, hashDir, 'lock');
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, 'owner'), JSON.stringify({ pid: process.pid, host: os.hostname(), since: Date.now() }));

  await expect(queue.submit('payload', async () => new Map())).rejects.toThrow(/gave up after 0 s waiting for the policy lock/);
});
