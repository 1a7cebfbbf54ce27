import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { FOREIGN_STALE_MS, HEARTBEAT_MS, PolicyQueue, type PolicyQueueOptions, type QueuedItem } from '../../../lib/runner/policy-queue';
import { thisProcess } from '../../../lib/runner/process-identity';
import { StateDir } from '../../../lib/runner/state-dir';

function tempRoot(): StateDir {
  return StateDir.open({ CDKTF_GOOGLE_IAM_STATE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'policy-queue-')) });
}

const anyNumber = (v: unknown) => (typeof v === 'number' ? v : undefined);
const anyString = (v: unknown) => (typeof v === 'string' ? v : undefined);
const numbers = (root: StateDir, key: string, options?: PolicyQueueOptions) =>
  new PolicyQueue<number, number>(root, key, anyNumber, anyNumber, options);
const strings = (root: StateDir, key: string, options?: PolicyQueueOptions) =>
  new PolicyQueue<string, string>(root, key, anyString, anyString, options);

/** The folder of the one queue in `root`. */
function queueDir(root: StateDir): string {
  const [hash] = fs.readdirSync(path.join(root.root, 'queues'));
  return path.join(root.root, 'queues', hash);
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

  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => numbers(root, 'policy-a').submit(i, drain)));

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
  const submit = (n: number) => numbers(root, 'policy-p').submit(n, drain, prepare);

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
  await Promise.all([strings(root, 'one').submit('x', drainFor('one')), strings(root, 'two').submit('y', drainFor('two'))]);
  expect(seen.flat().sort()).toEqual(['one:x', 'two:y']);
  expect(seen.every((batch) => new Set(batch.map((b) => b.split(':')[0])).size === 1)).toBe(true);
});

test('a lock left behind by a dead process is taken over', async () => {
  const root = tempRoot();
  const queue = strings(root, 'stale', { warn: () => undefined });
  const lock = path.join(queueDir(root), 'lock');
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, 'owner'), JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), since: Date.now() }));

  await expect(queue.submit('payload', async (batch) => new Map(batch.map((b) => [b.id, `done ${b.payload}`])))).resolves.toBe(
    'done payload',
  );
});

test('a live lock holder is waited for, up to the timeout', async () => {
  const root = tempRoot();
  const queue = strings(root, 'busy', { timeoutMs: 200 });
  const lock = path.join(queueDir(root), 'lock');
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, 'owner'), JSON.stringify({ pid: process.pid, host: os.hostname(), since: Date.now() }));

  await expect(queue.submit('payload', async () => new Map())).rejects.toThrow(/gave up after 0 s waiting for the policy lock/);
  // The request it gave up on is withdrawn: no later lock holder carries it out.
  expect(fs.readdirSync(path.join(queueDir(root), 'queue'))).toEqual([]);
});

test('a lock whose start lies in the future is stale, not held for 15 minutes', async () => {
  const root = tempRoot();
  const warnings: string[] = [];
  const queue = strings(root, 'future', { warn: (w) => warnings.push(w) });
  const lock = path.join(queueDir(root), 'lock');
  fs.mkdirSync(lock);
  fs.writeFileSync(path.join(lock, 'owner'), JSON.stringify({ pid: process.pid, host: os.hostname(), since: Date.now() + 3_600_000 }));

  await expect(queue.submit('p', async (batch) => new Map(batch.map((b) => [b.id, 'done'])))).resolves.toBe('done');
  expect(warnings).toEqual([expect.stringContaining('taking over the stale policy lock')]);
});

describe('what is read back from the queue folder is not trusted blindly', () => {
  const entryName = (pid: number) => `${Date.now().toString(36)}-${pid}-0123456789ab.json`;
  const envelope = (root: StateDir, id: string, body: unknown, pid = process.pid) =>
    JSON.stringify({
      v: 1,
      queue: path.basename(queueDir(root)),
      id,
      pid,
      host: os.hostname(),
      body,
    });

  test('a request left by a process that died is discarded, never replayed', async () => {
    const root = tempRoot();
    const queue = strings(root, 'leftover');
    const dead = entryName(2 ** 22 + 4242);
    fs.writeFileSync(path.join(queueDir(root), 'queue', dead), envelope(root, dead.slice(0, -5), 'addMember attacker', 2 ** 22 + 4242));
    const seen: string[] = [];
    await queue.submit('mine', async (batch) => {
      seen.push(...batch.map((b) => b.payload));
      return new Map(batch.map((b) => [b.id, 'ok']));
    });
    expect(seen).toEqual(['mine']);
    expect(fs.readdirSync(path.join(queueDir(root), 'queue'))).toEqual([]);
  });

  test.each([
    ['not JSON', () => '{', /it is not JSON/],
    [
      "another queue's entry",
      (root: StateDir, id: string) => envelope(root, id, 'x').replace(/"queue":"[0-9a-f]+"/, '"queue":"elsewhere"'),
      /does not belong to this request/,
    ],
    ['another request id', (root: StateDir) => envelope(root, 'zz-1-000000000000', 'x'), /does not belong to this request/],
    ['a body of the wrong shape', (root: StateDir, id: string) => envelope(root, id, { kind: 'addMember' }), /not of the expected shape/],
  ] as const)('an entry that is %s is set aside with a warning, and the queue keeps draining', async (_label, content, reason) => {
    const root = tempRoot();
    const warnings: string[] = [];
    const queue = strings(root, 'bad-entry', { warn: (w) => warnings.push(w) });
    const name = entryName(process.pid);
    fs.writeFileSync(path.join(queueDir(root), 'queue', name), content(root, name.slice(0, -5)));
    const seen: string[] = [];
    await expect(
      queue.submit('mine', async (batch) => {
        seen.push(...batch.map((b) => b.payload));
        return new Map(batch.map((b) => [b.id, 'ok']));
      }),
    ).resolves.toBe('ok');
    expect(seen).toEqual(['mine']);
    expect(warnings).toEqual([expect.stringMatching(reason)]);
    expect(fs.readdirSync(path.join(queueDir(root), 'rejected'))).toEqual([`queue-${name}`]);
  });

  test('a result of the wrong shape in the results folder is refused by the runner waiting for it, not reported as done', async () => {
    const root = tempRoot();
    const holder = strings(root, 'forged');
    const waiter = strings(root, 'forged');
    let waiting: Promise<string> | undefined;
    const forge = async (batch: QueuedItem<string>[]) => new Map(batch.map((b) => [b.id, { forged: true } as unknown as string]));
    // The holder's own result never goes through the folder; the waiter's does.
    const held = holder.submit('mine', forge, async () => {
      waiting = waiter.submit('theirs', async () => new Map());
    });
    await expect(held).resolves.toEqual({ forged: true });
    await expect(waiting).rejects.toThrow(/not of the expected shape/);
  });
});

describe('submitLed: the lock holder leads in (e.g. reads the policy) before it takes the batch', () => {
  const echo = (batches: number[][], leds: string[]) => async (batch: QueuedItem<number>[], led: string) => {
    batches.push(batch.map((item) => item.payload).sort((a, b) => a - b));
    leds.push(led);
    return new Map(batch.map((item) => [item.id, item.payload]));
  };

  test('requests queued during the lead-in join the batch, and the drain gets what the lead-in produced', async () => {
    const root = tempRoot();
    const batches: number[][] = [];
    const leds: string[] = [];
    let leads = 0;
    const lead = async () => {
      leads++;
      await new Promise((r) => setTimeout(r, 100)); // a read's round trip
      return `read ${leads}`;
    };
    const submit = (n: number) => numbers(root, 'led').submitLed(n, { lead }, echo(batches, leds));
    const first = submit(1);
    await new Promise((r) => setTimeout(r, 20));
    const later = [submit(2), submit(3)];
    expect(await Promise.all([first, ...later])).toEqual([1, 2, 3]);
    expect(batches).toEqual([[1, 2, 3]]);
    expect(leds).toEqual(['read 1']);
  });

  test('while the queue keeps growing after the lead-in, the holder waits for it to settle (bounded)', async () => {
    const root = tempRoot();
    const batches: number[][] = [];
    const lead = async () => {
      await new Promise((r) => setTimeout(r, 60));
      return 'read';
    };
    const submit = (n: number) => numbers(root, 'settle').submitLed(n, { lead, settleMs: 60, maxSettleMs: 400 }, echo(batches, []));
    const all = [submit(1)];
    // Arrivals every 40 ms: two during the lead-in, the rest while it settles.
    for (let n = 2; n <= 6; n++) {
      await new Promise((r) => setTimeout(r, 40));
      all.push(submit(n));
    }
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(batches[0]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  test('a lone request never waits to settle', async () => {
    const root = tempRoot();
    const start = Date.now();
    await numbers(root, 'lone').submitLed(7, { lead: async () => 'read', settleMs: 500, maxSettleMs: 2_000 }, echo([], []));
    expect(Date.now() - start).toBeLessThan(400);
  });

  test('the wait for the queue to settle is bounded by maxSettleMs', async () => {
    const root = tempRoot();
    const batches: number[][] = [];
    let stop = false;
    const lead = async () => {
      await new Promise((r) => setTimeout(r, 30));
      return 'read';
    };
    const queue = () => numbers(root, 'bounded');
    const first = queue().submitLed(0, { lead, settleMs: 20, maxSettleMs: 100 }, echo(batches, []));
    // An endless stream of arrivals (one every 10 ms) must not hold the batch back for longer than the bound.
    const others: Promise<number>[] = [];
    const stream = (async () => {
      for (let n = 1; !stop && n < 200; n++) {
        others.push(queue().submitLed(n, { lead, settleMs: 20, maxSettleMs: 100 }, echo(batches, [])));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const started = Date.now();
    await first;
    const firstDone = Date.now() - started;
    stop = true;
    await stream;
    await Promise.all(others);
    expect(firstDone).toBeLessThan(1_000);
    expect(batches[0].length).toBeGreaterThan(1);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: others.length + 1 }, (_, i) => i));
  });
});

test('waiting processes are woken when the lock is released or their result is written, not only by polling', async () => {
  const root = tempRoot();
  const slow = { pollMs: 60_000 }; // were they polling, they would wait a minute
  const drain = async (batch: QueuedItem<number>[]) => {
    await new Promise((r) => setTimeout(r, 50));
    return new Map(batch.map((item) => [item.id, item.payload]));
  };
  const start = Date.now();
  const results = await Promise.all(Array.from({ length: 5 }, (_, i) => numbers(root, 'woken', slow).submit(i, drain)));
  expect(results).toEqual([0, 1, 2, 3, 4]);
  expect(Date.now() - start).toBeLessThan(5_000);
});

describe("the lock holders' note", () => {
  test('what one holder leaves, the next holder of the same queue reads; another queue sees nothing', async () => {
    const root = tempRoot();
    const drain = async (batch: QueuedItem<number>[]) => new Map(batch.map((item) => [item.id, item.payload]));
    const first = numbers(root, 'policy-a');
    await first.submit(1, async (batch) => {
      first.leaveNote({ etag: 'e1' });
      return drain(batch);
    });
    let seen: unknown;
    const second = numbers(root, 'policy-a');
    await second.submit(2, async (batch) => {
      seen = second.readNote((v) => v);
      return drain(batch);
    });
    expect(seen).toEqual({ etag: 'e1' });
    expect(numbers(root, 'policy-b').readNote((v) => v)).toBeUndefined();
  });

  test("a note copied from another queue is set aside with a warning; one that fails the reader's check is not used", () => {
    const root = tempRoot();
    const warnings: string[] = [];
    const a = numbers(root, 'policy-a', { warn: (line) => warnings.push(line) });
    const b = numbers(root, 'policy-b');
    b.leaveNote(7);
    const dirs = fs.readdirSync(path.join(root.root, 'queues')).map((d) => path.join(root.root, 'queues', d));
    const [bDir, aDir] = fs.existsSync(path.join(dirs[0], 'note.json')) ? dirs : [dirs[1], dirs[0]];
    fs.copyFileSync(path.join(bDir, 'note.json'), path.join(aDir, 'note.json'));
    expect(a.readNote(anyNumber)).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/set aside .*note\.json: it does not belong to this request/)]);
    expect(b.readNote(anyNumber)).toBe(7);

    a.leaveNote('text');
    expect(a.readNote(anyNumber)).toBeUndefined();
    expect(a.readNote(anyString)).toBe('text');
  });
});

describe('entries and locks are tied to the process that wrote them: pid reuse and another host cannot fool the queue', () => {
  const entryName = (pid: number) => `${Date.now().toString(36)}-${pid}-0123456789ab.json`;
  const plant = (root: StateDir, pid: number, writer: Record<string, unknown>, body: string) => {
    const name = entryName(pid);
    const file = path.join(queueDir(root), 'queue', name);
    fs.writeFileSync(file, JSON.stringify({ v: 1, queue: path.basename(queueDir(root)), id: name.slice(0, -5), pid, ...writer, body }));
    return file;
  };
  const ago = (file: string, ms: number) => fs.utimesSync(file, new Date(Date.now() - ms), new Date(Date.now() - ms));
  const collect = (seen: string[]) => async (batch: QueuedItem<string>[]) => {
    seen.push(...batch.map((b) => b.payload));
    return new Map(batch.map((b) => [b.id, 'ok']));
  };
  let other: ChildProcess | undefined;
  afterEach(() => other?.kill());
  /** A live process that is not the one that wrote the entry: its id is "reused". */
  const livePid = () => {
    other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    return other.pid!;
  };
  const me = thisProcess();

  test('a request whose pid now belongs to another process (another start time) is dropped, never carried out', async () => {
    const root = tempRoot();
    const queue = strings(root, 'reused');
    const pid = livePid();
    const file = plant(root, pid, { host: me.host, boot: me.boot, started: '1' }, 'removeMember victim');
    const seen: string[] = [];
    await queue.submit('mine', collect(seen));
    expect(seen).toEqual(['mine']);
    expect(fs.existsSync(file)).toBe(false);
  });

  test('a request written before a reboot (another boot id) is dropped', async () => {
    const root = tempRoot();
    const queue = strings(root, 'rebooted');
    const file = plant(root, process.pid, { host: me.host, boot: 'another-boot', started: me.started }, 'removeMember victim');
    const seen: string[] = [];
    await queue.submit('mine', collect(seen));
    expect(seen).toEqual(['mine']);
    expect(fs.existsSync(file)).toBe(false);
  });

  test("another host's request is never carried out here: left for its own host while fresh, dropped once it is not refreshed", async () => {
    const root = tempRoot();
    strings(root, 'shared');
    const fresh = plant(root, process.pid, { host: 'ci-container-2', boot: 'b', started: '7' }, 'fresh');
    const seen: string[] = [];
    await strings(root, 'shared').submit('mine', collect(seen));
    expect(seen).toEqual(['mine']);
    expect(fs.existsSync(fresh)).toBe(true);

    ago(fresh, FOREIGN_STALE_MS + 1_000);
    await strings(root, 'shared').submit('again', collect(seen));
    expect(seen).toEqual(['mine', 'again']);
    expect(fs.existsSync(fresh)).toBe(false);
  });

  test('a lock held by a reused pid is taken over', async () => {
    const root = tempRoot();
    strings(root, 'reused-lock');
    const lock = path.join(queueDir(root), 'lock');
    fs.mkdirSync(lock);
    fs.writeFileSync(
      path.join(lock, 'owner'),
      JSON.stringify({ pid: livePid(), host: me.host, boot: me.boot, started: '1', since: Date.now() }),
    );
    const warnings: string[] = [];
    await expect(strings(root, 'reused-lock', { warn: (w) => warnings.push(w) }).submit('p', collect([]))).resolves.toBe('ok');
    expect(warnings).toEqual([expect.stringContaining('taking over the stale policy lock')]);
  });

  test(`a lock of another host is waited for while its holder refreshes it, and taken over once it has not for ${FOREIGN_STALE_MS / 1000} s`, async () => {
    const root = tempRoot();
    strings(root, 'foreign-lock');
    const lock = path.join(queueDir(root), 'lock');
    fs.mkdirSync(lock);
    const owner = path.join(lock, 'owner');
    fs.writeFileSync(owner, JSON.stringify({ pid: process.pid, host: 'ci-container-2', boot: 'b', started: '7', since: Date.now() }));
    await expect(strings(root, 'foreign-lock', { timeoutMs: 200 }).submit('p', collect([]))).rejects.toThrow(/gave up after 0 s/);

    ago(owner, FOREIGN_STALE_MS + 1_000);
    await expect(strings(root, 'foreign-lock', { warn: () => undefined }).submit('p', collect([]))).resolves.toBe('ok');
  });

  test('the lock holder refreshes its lock while it works, so another host does not take it over', async () => {
    const root = tempRoot();
    strings(root, 'heartbeat');
    const owner = path.join(queueDir(root), 'lock', 'owner');
    let refreshedAfter: number | undefined;
    await strings(root, 'heartbeat').submit('p', async (batch) => {
      ago(owner, FOREIGN_STALE_MS + 1_000);
      await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_MS + 500));
      refreshedAfter = Date.now() - fs.statSync(owner).mtimeMs;
      return new Map(batch.map((b) => [b.id, 'ok']));
    });
    expect(refreshedAfter).toBeLessThan(FOREIGN_STALE_MS);
  }, 20_000);
});
