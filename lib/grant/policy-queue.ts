import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** A queued piece of work, as the lock holder sees it. */
export interface QueuedItem<P> {
  readonly id: string;
  readonly payload: P;
}

export interface PolicyQueueOptions {
  /** How often a waiting process looks for its result or a free lock. @default 15 */
  readonly pollMs?: number;
  /** A lock older than this is taken over even if its owner seems alive. @default 15 minutes */
  readonly staleMs?: number;
  /** Give up waiting after this long. @default 30 minutes */
  readonly timeoutMs?: number;
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
 */
export class PolicyQueue<P, R> {
  private readonly dir: string;
  private readonly pollMs: number;
  private readonly staleMs: number;
  private readonly timeoutMs: number;

  constructor(rootDir: string, policyKey: string, options: PolicyQueueOptions = {}) {
    const hash = createHash('sha256').update(policyKey).digest('hex').slice(0, 32);
    this.dir = path.join(rootDir, hash);
    this.pollMs = options.pollMs ?? 15;
    this.staleMs = options.staleMs ?? 15 * 60_000;
    this.timeoutMs = options.timeoutMs ?? 30 * 60_000;
    for (const sub of ['queue', 'results']) fs.mkdirSync(path.join(this.dir, sub), { recursive: true });
  }

  /**
   * Queues `payload` and resolves with its result, draining the queue with
   * `drain` when this process holds the lock. A lock holder first runs
   * `prepare` (e.g. loading and authenticating its client) and only then takes
   * the batch, so that whatever is queued in the meantime joins it.
   */
  public async submit(payload: P, drain: (batch: QueuedItem<P>[]) => Promise<Map<string, R>>, prepare?: () => Promise<void>): Promise<R> {
    const id = `${Date.now().toString(36)}-${process.pid}-${randomBytes(6).toString('hex')}`;
    writeAtomically(this.file('queue', id), JSON.stringify(payload));
    const deadline = Date.now() + this.timeoutMs;
    for (;;) {
      const result = this.takeResult(id);
      if (result !== undefined) return result;
      if (this.tryLock()) {
        try {
          // Our request may have been in the previous holder's batch: then there is nothing to prepare for.
          if (prepare && fs.existsSync(this.file('queue', id))) await prepare();
          await this.drainQueue(drain);
        } finally {
          this.unlock();
        }
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`gave up after ${Math.round(this.timeoutMs / 1000)} s waiting for the policy lock ${this.lockDir}`);
      }
      await sleep(this.pollMs + Math.random() * this.pollMs);
    }
  }

  private async drainQueue(drain: (batch: QueuedItem<P>[]) => Promise<Map<string, R>>): Promise<void> {
    const ids = fs.readdirSync(path.join(this.dir, 'queue')).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5)).sort();
    const batch = ids.map((id) => ({ id, payload: JSON.parse(fs.readFileSync(this.file('queue', id), 'utf8')) as P }));
    if (batch.length === 0) return;
    const results = await drain(batch);
    for (const { id } of batch) {
      const result = results.get(id);
      if (result === undefined) continue;
      writeAtomically(this.file('results', id), JSON.stringify(result));
      fs.rmSync(this.file('queue', id), { force: true });
    }
  }

  private takeResult(id: string): R | undefined {
    const file = this.file('results', id);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    fs.rmSync(file, { force: true });
    return JSON.parse(text) as R;
  }

  private get lockDir(): string {
    return path.join(this.dir, 'lock');
  }

  private tryLock(): boolean {
    try {
      fs.mkdirSync(this.lockDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (!this.lockIsStale()) return false;
      fs.rmSync(this.lockDir, { recursive: true, force: true });
      return this.tryLock();
    }
    fs.writeFileSync(path.join(this.lockDir, 'owner'), JSON.stringify({ pid: process.pid, host: os.hostname(), since: Date.now() }));
    return true;
  }

  private lockIsStale(): boolean {
    let owner: { pid: number; host: string; since: number };
    try {
      owner = JSON.parse(fs.readFileSync(path.join(this.lockDir, 'owner'), 'utf8'));
    } catch {
      // Owner file not written yet (the holder is between mkdir and write) or lock just released.
      const age = ageMs(this.lockDir);
      return age !== undefined && age > 5_000;
    }
    if (Date.now() - owner.since > this.staleMs) return true;
    return owner.host === os.hostname() && !processIsAlive(owner.pid);
  }

  private unlock(): void {
    fs.rmSync(this.lockDir, { recursive: true, force: true });
  }

  private file(kind: 'queue' | 'results', id: string): string {
    return path.join(this.dir, kind, `${id}.json`);
  }
}

function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

function ageMs(file: string): number | undefined {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
