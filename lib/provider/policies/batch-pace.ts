/**
 * When the batchers of one provider process have gathered enough to write,
 * from the pace of the run so far.
 *
 * Terraform keeps at most `-parallelism` operations in flight and sends the
 * next one only after it has saved the result of another, which costs it more
 * and more as the state grows, and more on a busy machine. The requests the
 * provider holds (queued for a write, or being written) are Terraform's
 * slots; the rest of its slots are results it is still saving. Two rates
 * decide how many to hold: a write takes `W` ms, and Terraform hands over a
 * request every `T` ms. While the writes go out, Terraform should still have
 * about `W / T` results to save, so that it never waits for us: the batchers
 * write once they hold `P - W / T` requests together (P: the most ever held at
 * once, about -parallelism). Holding fewer would only add writes; holding
 * more would leave Terraform idle. When Terraform is faster than that allows
 * (`W / T` above `P / 2`: a small state on a quiet machine), it cannot be kept
 * busy anyway, and only holding all P keeps the calls per write up.
 *
 * On a busy machine T grows, so the batches grow too: they stay full where
 * taking requests as they came made a write of every two or three. Counted
 * over every policy of the process, so grants spread over several policies
 * are written as soon as Terraform has handed over its share, not each
 * policy's queue waiting on its own.
 */
export class BatchPace {
  private queued = 0;
  private writing = 0;
  /** The most requests held at once: queued and being written. */
  private most = 0;
  private writeMs?: number;
  private gapMs?: number;
  private lastArrival?: number;

  /** A request arrived at `now` and waits in a queue. */
  public arrived(now: number): void {
    if (this.lastArrival !== undefined) {
      const gap = now - this.lastArrival;
      // A pause (Terraform busy elsewhere, or a new command) says nothing of the pace.
      if (gap < PAUSE_MS) this.gapMs = average(this.gapMs, gap);
    }
    this.lastArrival = now;
    this.queued += 1;
    this.most = Math.max(this.most, this.queued + this.writing);
  }

  /** `count` queued requests left without a write (cancelled). */
  public dequeued(count: number): void {
    this.queued -= count;
  }

  /** A write of `count` queued requests went out. */
  public writeStarted(count: number): void {
    this.queued -= count;
    this.writing += count;
  }

  /** The write of `count` requests ended after `ms` (the whole read-modify-write). */
  public writeEnded(count: number, ms: number): void {
    this.writing -= count;
    this.writeMs = average(this.writeMs, ms);
  }

  /** How many requests to hold before writing; Infinity until one write and a few arrivals have been seen. */
  public target(): number {
    if (this.writeMs === undefined || this.gapMs === undefined || this.most === 0) return Infinity;
    const keepingUp = this.writeMs / Math.max(this.gapMs, 1);
    if (keepingUp > this.most / 2) return this.most;
    // Rounded up: a request more per write rather than a write more (1,000 grants on one policy: 0.14 IAM calls
    // per grant instead of 0.155, about 1 s longer: bench/results).
    return Math.max(1, Math.ceil(this.most - keepingUp));
  }

  /** Whether the requests held (queued and being written, over every policy) are enough to write. */
  public get enough(): boolean {
    return this.queued + this.writing >= this.target();
  }

  /**
   * How long without an arrival means no more are coming soon (Terraform is
   * waiting for something else, or has nothing left): a few of Terraform's
   * usual gaps, between `floorMs` and four times that.
   */
  public idleMs(floorMs: number): number {
    if (this.gapMs === undefined) return floorMs;
    return Math.min(4 * floorMs, Math.max(floorMs, Math.ceil(3 * this.gapMs)));
  }
}

/** A gap longer than this between two arrivals is a pause, not the pace. */
const PAUSE_MS = 2_000;

/** An exponentially weighted average, recent values weighing 1/4. */
function average(previous: number | undefined, value: number): number {
  return previous === undefined ? value : previous + (value - previous) / 4;
}
