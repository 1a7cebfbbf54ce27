/**
 * How many requests the next batch of one policy waits for, from the pace of
 * the run so far.
 *
 * Terraform keeps at most `-parallelism` operations in flight and sends the
 * next one only after it has saved the result of another, which costs it more
 * and more as the state grows, and more on a busy machine. While a write is in
 * flight the requests that arrive queue for the next one; the question is how
 * many more to wait for after it. Two rates decide: one write takes `W` ms,
 * and Terraform hands over a request every `T` ms. Batches of `W / T` keep the
 * writes up with Terraform; anything up to `P - W / T` (P: the most requests
 * this policy had outstanding at once, about -parallelism for one policy)
 * still leaves Terraform results to save while the next write is out, so it
 * never waits for us. The largest such batch is the target: fewer IAM calls
 * at no cost in time. When Terraform is faster than that allows (`W / T`
 * above `P / 2`, a small state on a quiet machine), only full batches keep
 * the calls per write up, and the target is P.
 *
 * On a busy machine T grows, so the target grows too: the batches stay full
 * where taking requests as they come made a write of every two or three.
 */
export class BatchPace {
  /** The most requests this policy had outstanding at once: queued and being written. */
  private mostOutstanding = 0;
  private writeMs?: number;
  private gapMs?: number;
  private lastArrival?: number;

  /** A request arrived; `outstanding` of this policy's requests now wait or are being written. */
  public arrived(now: number, outstanding: number): void {
    if (this.lastArrival !== undefined) {
      const gap = now - this.lastArrival;
      // A pause (Terraform busy elsewhere, or a new command) says nothing of the pace.
      if (gap < PAUSE_MS) this.gapMs = average(this.gapMs, gap);
    }
    this.lastArrival = now;
    this.mostOutstanding = Math.max(this.mostOutstanding, outstanding);
  }

  /** A write (the whole read-modify-write) took `ms`. */
  public wrote(ms: number): void {
    this.writeMs = average(this.writeMs, ms);
  }

  /** The batch size to wait for; Infinity until one write and a few arrivals have been seen. */
  public target(): number {
    if (this.writeMs === undefined || this.gapMs === undefined || this.mostOutstanding === 0) return Infinity;
    const most = this.mostOutstanding;
    const keepingUp = this.writeMs / Math.max(this.gapMs, 1);
    if (keepingUp > most / 2) return most;
    return Math.max(1, Math.round(most - keepingUp));
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

/**
 * The change requests of one provider process, over all its policies: how
 * many wait in a batcher's queue, how many are being written, and the most
 * ever outstanding at once (about Terraform's -parallelism). When every one
 * of them waits in a queue and none is being written, Terraform is waiting
 * for us alone: nothing more will arrive until a batch goes out.
 */
export class OutstandingChanges {
  private queued = 0;
  private writing = 0;
  private most = 0;
  private answered = false;

  public enqueued(count: number): void {
    this.queued += count;
    this.most = Math.max(this.most, this.queued + this.writing);
  }

  public dequeued(count: number): void {
    this.queued -= count;
  }

  public writeStarted(count: number): void {
    this.queued -= count;
    this.writing += count;
  }

  public writeEnded(count: number): void {
    this.writing -= count;
    this.answered = true;
  }

  /** Whether all of Terraform's outstanding requests wait in queues (known once a batch has been answered). */
  public get allWaiting(): boolean {
    return this.answered && this.writing === 0 && this.queued >= this.most;
  }
}
