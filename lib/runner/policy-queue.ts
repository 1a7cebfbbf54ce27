import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { shortDigest } from '../iam/digest';
import { RunnerErrors } from './errors';
import { identityOrUndefined, liveness, thisProcess, type ProcessIdentity } from './process-identity';
import type { StateDir } from './state-dir';

/** A queued piece of work, as the lock holder sees it. */
export interface QueuedItem<P> {
  readonly id: string;
  readonly payload: P;
}

/** Checks what is read back from the queue folder: a value of the expected shape, or undefined. */
export type Validator<T> = (value: unknown) => T | undefined;

/** Timing of the queue's waits, locks and batches. */
export interface PolicyQueueOptions {
  /**
   * How often a waiting process looks for its result or a free lock where
   * folders cannot be watched; where they can, it is woken by the changes
   * and looks every 100 ms besides. @default 15
   */
  readonly pollMs?: number;
  /** A lock older than this is taken over even if its owner seems alive. @default 15 minutes */
  readonly staleMs?: number;
  /** Give up waiting after this long. @default 30 minutes */
  readonly timeoutMs?: number;
  /** Warnings (an entry set aside, a stale lock taken over). @default - stderr */
  readonly warn?: (line: string) => void;
}

/** The file name (and envelope id) of the lock holders' note. */
const NOTE_ID = 'note';

/** With folder watching, how often a waiting process still looks for itself (a stale lock, a missed event). */
const WATCHED_POLL_MS = 100;

/**
 * A waiting process refreshes its queue entry, and a lock holder its lock,
 * this often (the file's modification time). Whether a process of another
 * host is alive cannot be asked; one whose entry or lock has not been
 * refreshed for FOREIGN_STALE_MS is gone: its lock is taken over, its entry
 * dropped (an entry of another host is never carried out here).
 */
export const HEARTBEAT_MS = 5_000;
export const FOREIGN_STALE_MS = 30_000;

/** How a lock holder gathers its batch (see `PolicyQueue.submitLed`). */
export interface GatherOptions<T> {
  /** Run by the lock holder before it takes the batch. */
  readonly lead: () => Promise<T>;
  /** After the lead-in, while the queue keeps growing, wait this long at a time. @default 0 (take the batch at once) */
  readonly settleMs?: number;
  /** The longest wait for the queue to settle. @default 4 × settleMs */
  readonly maxSettleMs?: number;
}

/** The on-disk envelope of a queue entry or result: tied to the queue, the request id and the process that wrote it. */
interface Envelope extends ProcessIdentity {
  readonly v: 1;
  readonly queue: string;
  readonly id: string;
  readonly body: unknown;
}

interface LockOwner extends ProcessIdentity {
  readonly since: number;
}

/**
 * Serializes the read-modify-writes of one policy across processes on this
 * machine and folds whatever is queued into one batch.
 *
 * Terraform runs each provisioner as its own process. Each one drops its
 * request into `queue/`; whoever takes the lock (an atomic `mkdir`) drains
 * the whole queue in one batch and leaves one file per request in
 * `results/`. The lock is an optimisation (fewer calls, fewer conflicts);
 * correctness across machines rests on the etag, so taking over a stale lock
 * needs no stronger guarantee than "its owner is gone".
 *
 * Nothing read back is trusted blindly: entries and results carry the queue
 * they belong to and their request id and are checked against both, and
 * their bodies against the caller's validators; an entry left by a process
 * that has died is discarded, never replayed; anything unreadable is set
 * aside in `rejected/` with a warning. Entries and locks name their writer
 * by process id, start time, boot id and host (process-identity.ts), so a
 * reused process id does not keep a dead entry alive; an entry of another
 * host is never carried out here, and another host's lock or entry that
 * its writer stopped refreshing (HEARTBEAT_MS) for FOREIGN_STALE_MS is gone.
 */
export class PolicyQueue<P, R> {
  private readonly name: string;
  private readonly queueDir: string;
  private readonly resultsDir: string;
  /** This policy's folder: the queue, results, lock and note live in it. */
  private readonly policyDir: string;
  private readonly lockDir: string;
  private readonly pollMs: number;
  private readonly staleMs: number;
  private readonly timeoutMs: number;
  private readonly warn: (line: string) => void;
  private heartbeat?: NodeJS.Timeout;

  constructor(
    private readonly state: StateDir,
    queueKey: string,
    private readonly validatePayload: Validator<P>,
    private readonly validateResult: Validator<R>,
    options: PolicyQueueOptions = {},
  ) {
    this.name = shortDigest(queueKey, 32);
    this.policyDir = state.dir('queues', this.name);
    this.queueDir = state.dir('queues', this.name, 'queue');
    this.resultsDir = state.dir('queues', this.name, 'results');
    this.lockDir = path.join(this.policyDir, 'lock');
    this.pollMs = options.pollMs ?? 15;
    this.staleMs = options.staleMs ?? 15 * 60_000;
    this.timeoutMs = options.timeoutMs ?? 30 * 60_000;
    this.warn = options.warn ?? ((line) => process.stderr.write(`${line}\n`));
  }

  /**
   * Queues `payload` and resolves with its result, draining the queue with
   * `drain` when this process holds the lock. A lock holder first runs
   * `prepare` (e.g. loading and authenticating its client) and only then takes
   * the batch, so that whatever is queued in the meantime joins it.
   */
  public submit(payload: P, drain: (batch: QueuedItem<P>[]) => Promise<Map<string, R>>, prepare?: () => Promise<void>): Promise<R> {
    return this.submitLed(payload, { lead: prepare ?? (async () => undefined) }, (batch) => drain(batch));
  }

  /**
   * `submit`, where the lock holder's lead-in produces something its drain
   * needs: the lock holder runs `gather.lead()` (e.g. authenticate, then read
   * the policy), and only then takes the batch, so that requests queued
   * during the lead-in (a network round trip) join it. If the queue grew
   * during the lead-in, more requests are on their way (Terraform starting
   * provisioners): it then waits, `settleMs` at a time, until the queue stops
   * growing, for at most `maxSettleMs`. A lone request never waits.
   */
  public async submitLed<T>(
    payload: P,
    gather: GatherOptions<T>,
    drain: (batch: QueuedItem<P>[], led: T) => Promise<Map<string, R>>,
  ): Promise<R> {
    const id = `${Date.now().toString(36)}-${process.pid}-${randomBytes(6).toString('hex')}`;
    this.state.writeFile(this.file(this.queueDir, id), JSON.stringify(this.envelope(id, payload)));
    const deadline = Date.now() + this.timeoutMs;
    let refreshed = Date.now();
    const changes = this.watchForChanges();
    try {
      for (;;) {
        const result = this.takeResult(id);
        if (result !== undefined) return result;
        if (this.tryLock()) {
          try {
            // Our request may have been in the previous holder's batch: then its result is waiting for us.
            if (fs.existsSync(this.file(this.queueDir, id))) {
              const queuedBefore = this.entryIds(this.queueDir).length;
              const led = await gather.lead();
              await this.settle(queuedBefore, gather);
              const mine = await this.drainQueue(id, (batch) => drain(batch, led));
              if (mine !== undefined) return mine;
            }
          } finally {
            this.unlock();
          }
          continue;
        }
        if (Date.now() > deadline) {
          throw RunnerErrors.lockTimeout(Math.round(this.timeoutMs / 1000), this.lockDir);
        }
        if (Date.now() - refreshed >= HEARTBEAT_MS) {
          refresh(this.file(this.queueDir, id));
          refreshed = Date.now();
        }
        await changes.next(this.pollMs + Math.random() * this.pollMs);
      }
    } finally {
      changes.close();
      // Never leave a request behind for a later lock holder to carry out.
      fs.rmSync(this.file(this.queueDir, id), { force: true });
    }
  }

  /**
   * What the previous lock holder left for the next one (`leaveNote`), if it
   * passes `validate`. Call it while holding the lock (in `lead` or `drain`).
   */
  public readNote<T>(validate: Validator<T>): T | undefined {
    const envelope = this.readEnvelope(this.policyDir, NOTE_ID);
    return envelope === undefined ? undefined : validate(envelope.body);
  }

  /** Leaves `value` for the next lock holder (replacing any earlier note); call it while holding the lock. */
  public leaveNote(value: unknown): void {
    this.state.writeFile(this.file(this.policyDir, NOTE_ID), JSON.stringify(this.envelope(NOTE_ID, value)));
  }

  /**
   * What a waiting process waits for: a result appearing, or the lock being
   * released. Where the platform can watch folders, it is woken by those
   * changes (coalesced) and otherwise looks only every WATCHED_POLL_MS (for a
   * stale lock or a missed event); polling every 15-30 ms cost a waiting
   * runner about 30 ms of CPU per second of waiting, while Terraform starts
   * other runners on the same cores. Without watching, it polls as before.
   */
  private watchForChanges(): { next: (pollMs: number) => Promise<void>; close: () => void } {
    let wake: (() => void) | undefined;
    let changed = false;
    const onChange = () => {
      changed = true;
      const resolve = wake;
      wake = undefined;
      resolve?.();
    };
    const watchers: fs.FSWatcher[] = [];
    try {
      for (const dir of [this.resultsDir, this.policyDir]) {
        const watcher = fs.watch(dir, { persistent: false }, onChange);
        watcher.on('error', () => undefined);
        watchers.push(watcher);
      }
    } catch {
      for (const watcher of watchers) watcher.close();
      watchers.length = 0;
    }
    return {
      next: async (pollMs) => {
        if (watchers.length === 0) return sleep(pollMs);
        if (!changed) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              wake = undefined;
              resolve();
            }, WATCHED_POLL_MS);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        // Let a burst of changes (a batch's results, the lock's removal) settle into one look.
        await sleep(1);
        changed = false;
      },
      close: () => {
        for (const watcher of watchers) watcher.close();
      },
    };
  }

  /** While the queue keeps growing (and it grew during the lead-in), waits for it to settle. */
  private async settle(queuedBefore: number, gather: GatherOptions<unknown>): Promise<void> {
    const step = gather.settleMs ?? 0;
    if (step <= 0) return;
    const until = Date.now() + (gather.maxSettleMs ?? 4 * step);
    let queued = this.entryIds(this.queueDir).length;
    if (queued <= queuedBefore) return;
    while (Date.now() + step <= until) {
      await sleep(step);
      const now = this.entryIds(this.queueDir).length;
      if (now <= queued) return;
      queued = now;
    }
  }

  /**
   * Carries out the queue in one batch and hands each result to its owner;
   * returns the result of `ownId` (kept in memory: the holder needs no file
   * to learn its own outcome, e.g. when the disk is full). A result that
   * cannot be handed over leaves its request queued: its owner, still
   * waiting, carries it out again (every edit is idempotent).
   */
  private async drainQueue(ownId: string, drain: (batch: QueuedItem<P>[]) => Promise<Map<string, R>>): Promise<R | undefined> {
    const batch: QueuedItem<P>[] = [];
    for (const id of this.entryIds(this.queueDir)) {
      const envelope = this.readEnvelope(this.queueDir, id);
      if (envelope === undefined) continue;
      const writer = liveness(envelope);
      if (writer === 'dead' || (writer === 'elsewhere' && (ageMs(this.file(this.queueDir, id)) ?? 0) > FOREIGN_STALE_MS)) {
        fs.rmSync(this.file(this.queueDir, id), { force: true });
        continue;
      }
      if (writer === 'elsewhere') continue; // its own host's runner carries it out
      const payload = this.validatePayload(envelope.body);
      if (payload === undefined) {
        this.setAside(this.queueDir, id, 'its request is not of the expected shape');
        continue;
      }
      batch.push({ id, payload });
    }
    if (batch.length === 0) return undefined;
    const results = await drain(batch);
    for (const { id } of batch) {
      const result = results.get(id);
      if (result === undefined || id === ownId) continue;
      try {
        this.state.writeFile(this.file(this.resultsDir, id), JSON.stringify(this.envelope(id, result)));
        fs.rmSync(this.file(this.queueDir, id), { force: true });
      } catch (error) {
        this.warn(
          `cdktf-google-iam: warning: could not hand over the result of request ${id} (${(error as Error).message}); its runner carries it out again`,
        );
      }
    }
    return results.get(ownId);
  }

  private takeResult(id: string): R | undefined {
    const envelope = this.readEnvelope(this.resultsDir, id);
    if (envelope === undefined) return undefined;
    fs.rmSync(this.file(this.resultsDir, id), { force: true });
    const result = this.validateResult(envelope.body);
    if (result === undefined) throw RunnerErrors.forgedResult(id, this.resultsDir);
    return result;
  }

  private envelope(id: string, body: unknown): Envelope {
    return { v: 1, queue: this.name, id, ...thisProcess(), body };
  }

  /** The entry's envelope if it belongs here; sets aside what does not parse or belongs elsewhere. */
  private readEnvelope(dir: string, id: string): Envelope | undefined {
    let text: Buffer | undefined;
    try {
      text = this.state.readFile(this.file(dir, id));
    } catch (error) {
      this.setAside(dir, id, (error as Error).message);
      return undefined;
    }
    if (text === undefined) return undefined;
    let value: Partial<Envelope>;
    try {
      value = JSON.parse(text.toString('utf8')) as Partial<Envelope>;
    } catch {
      this.setAside(dir, id, 'it is not JSON');
      return undefined;
    }
    if (value?.v !== 1 || value.queue !== this.name || value.id !== id || identityOrUndefined(value) === undefined) {
      this.setAside(dir, id, 'it does not belong to this request');
      return undefined;
    }
    return value as Envelope;
  }

  private setAside(dir: string, id: string, reason: string): void {
    const rejected = this.state.dir('queues', this.name, 'rejected');
    try {
      fs.renameSync(this.file(dir, id), path.join(rejected, `${path.basename(dir)}-${id}.json`));
    } catch {
      fs.rmSync(this.file(dir, id), { force: true });
    }
    this.warn(`cdktf-google-iam: warning: set aside ${path.join(dir, `${id}.json`)}: ${reason}`);
  }

  private entryIds(dir: string): string[] {
    return fs
      .readdirSync(dir)
      .filter((f) => /^[0-9a-z]+-\d+-[0-9a-f]{12}\.json$/.test(f))
      .map((f) => f.slice(0, -5))
      .sort();
  }

  private tryLock(): boolean {
    try {
      fs.mkdirSync(this.lockDir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!this.lockIsStale()) return false;
      this.warn(`cdktf-google-iam: warning: taking over the stale policy lock ${this.lockDir}`);
      fs.rmSync(this.lockDir, { recursive: true, force: true });
      return this.tryLock();
    }
    const owner: LockOwner = { ...thisProcess(), since: Date.now() };
    this.state.createFile(path.join(this.lockDir, 'owner'), JSON.stringify(owner));
    const ownerFile = path.join(this.lockDir, 'owner');
    this.heartbeat = setInterval(() => refresh(ownerFile), HEARTBEAT_MS);
    this.heartbeat.unref();
    return true;
  }

  private lockIsStale(): boolean {
    let owner: Partial<LockOwner> | undefined;
    try {
      const text = this.state.readFile(path.join(this.lockDir, 'owner'));
      owner = text === undefined ? undefined : (JSON.parse(text.toString('utf8')) as Partial<LockOwner>);
    } catch {
      owner = undefined;
    }
    const holder = identityOrUndefined(owner);
    if (typeof owner?.since !== 'number' || holder === undefined) {
      // Owner file not written yet (the holder is between mkdir and write), or unreadable.
      const age = ageMs(this.lockDir);
      return age !== undefined && age > 5_000;
    }
    const age = Date.now() - owner.since;
    // A `since` in the future cannot be trusted to ever expire.
    if (age < -60_000 || age > this.staleMs) return true;
    const state = liveness(holder);
    if (state === 'elsewhere') return (ageMs(path.join(this.lockDir, 'owner')) ?? 0) > FOREIGN_STALE_MS;
    return state === 'dead';
  }

  private unlock(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    fs.rmSync(this.lockDir, { recursive: true, force: true });
  }

  private file(dir: string, id: string): string {
    return path.join(dir, `${id}.json`);
  }
}

function ageMs(file: string): number | undefined {
  try {
    return Date.now() - fs.lstatSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Marks a file as still wanted by its writer (see HEARTBEAT_MS); a file already gone is no matter. */
function refresh(file: string): void {
  try {
    const now = new Date();
    fs.utimesSync(file, now, now);
  } catch {
    // Taken into a batch and removed, or the lock released.
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
