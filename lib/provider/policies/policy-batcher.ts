import { GoogleApiError } from '../../api/errors';
import { retrying, type RetryOptions } from '../../api/retrying';
import type { PolicyEdit } from '../../iam/policy-edit';
import type { Policy } from '../../iam/types';
import { ProviderErrors } from '../errors';
import { applyEditBatch, type EditOutcome, type IamPolicyEndpoint } from './engine';
import { settleUnanswered } from './settle';

/** Timing and retry budgets of one policy's batcher. */
export interface PolicyBatcherOptions {
  /** A read-modify-write's retries (retry-policy.ts `change`). */
  readonly change: RetryOptions;
  /** The read that settles a write whose answer was lost (`check`). */
  readonly check: RetryOptions;
  /** Resource reads at plan (`read`). */
  readonly read: RetryOptions;
  /**
   * After the first request of a batch, how long to wait for more, at a time,
   * while they keep coming (Terraform starts up to -parallelism calls at once,
   * a few ms apart). @default 2
   */
  readonly gatherMs?: number;
  /** The longest the gathering waits in all. @default 10 */
  readonly maxGatherMs?: number;
}

/** What became of one change: written (or found already so), with the policy's etag after it. */
export interface ChangeResult {
  readonly etag: string;
  /** Whether this change altered the policy (false: it was already so). */
  readonly changed: boolean;
  /** How many changes were written together with this one. */
  readonly batchSize: number;
}

interface Pending {
  readonly edits: readonly PolicyEdit[];
  readonly resolve: (result: ChangeResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * One policy's changes, folded into as few read-modify-writes as possible
 * (like terraform-provider-google's IAM batcher with its per-resource lock,
 * but in process): while a write is in flight, and for a few ms after a first
 * request, requests queue and then go out together as one `applyEditBatch`.
 * The policy as last read or written is kept: the next batch writes against
 * it without reading (its etag guards the write; the engine reads afresh when
 * Google refuses it), and plan-time reads of any number of grants on the
 * policy cost one getIamPolicy for the process's life.
 *
 * A write whose answer was lost is settled by a read before anyone is
 * answered (settle.ts). On `stop()` (Ctrl-C), queued requests fail at once as
 * cancelled, a batch not yet sent is not sent, and a write already sent is
 * settled.
 */
export class PolicyBatcher {
  /** The policy as last read or written here; undefined until the first read, and after a failed change. */
  private known?: Policy;
  private reading?: Promise<Policy>;
  private queue: Pending[] = [];
  private draining = false;
  private stopped = false;

  constructor(
    private readonly endpoint: IamPolicyEndpoint,
    private readonly options: PolicyBatcherOptions,
  ) {}

  /** The policy: read once (concurrent callers share the read) and kept, updated by this process's own writes. */
  public read(): Promise<Policy> {
    if (this.known) return Promise.resolve(this.known);
    this.reading ??= retrying(() => this.endpoint.getIamPolicy(), this.options.read)
      .then(({ value }) => {
        this.known = value;
        return value;
      })
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  /** Forgets the kept policy: the next read asks Google. */
  public forget(): void {
    this.known = undefined;
  }

  /** Queues `edits` into the next batch; rejects with Google's error, or a ProviderError (cancelled, outcome unknown). */
  public change(edits: readonly PolicyEdit[], signal?: AbortSignal): Promise<ChangeResult> {
    if (this.stopped || signal?.aborted) return Promise.reject(ProviderErrors.cancelled());
    return new Promise<ChangeResult>((resolve, reject) => {
      const pending: Pending = { edits, resolve, reject };
      this.queue.push(pending);
      signal?.addEventListener('abort', () => this.cancel(pending), { once: true });
      void this.drain();
    });
  }

  /** Cancels what is queued; a batch already being written is finished (and settled). */
  public stop(): void {
    this.stopped = true;
    for (const pending of this.queue.splice(0)) pending.reject(ProviderErrors.cancelled());
  }

  private cancel(pending: Pending): void {
    const index = this.queue.indexOf(pending);
    if (index < 0) return; // already in a batch: it is finished and settled
    this.queue.splice(index, 1);
    pending.reject(ProviderErrors.cancelled());
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        // The first batch reads the policy first; requests arriving meanwhile join it.
        if (!this.known) await this.read().catch(() => undefined);
        await this.gather();
        const batch = this.queue.splice(0);
        if (batch.length > 0) await this.write(batch);
      }
    } finally {
      this.draining = false;
    }
  }

  /** Waits while requests keep arriving: `gatherMs` at a time, `maxGatherMs` at most. */
  private async gather(): Promise<void> {
    const step = this.options.gatherMs ?? 2;
    const until = Date.now() + (this.options.maxGatherMs ?? 10);
    let queued = -1;
    while (this.queue.length > queued && Date.now() + step <= until) {
      queued = this.queue.length;
      await new Promise((resolve) => setTimeout(resolve, step));
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    let writeSent = false;
    const guarded: IamPolicyEndpoint = {
      getIamPolicy: async () => {
        if (this.stopped) throw ProviderErrors.writeCancelled();
        const policy = await this.endpoint.getIamPolicy();
        this.known = policy;
        return policy;
      },
      setIamPolicy: (policy, setOptions) => {
        if (this.stopped) throw ProviderErrors.writeCancelled();
        writeSent = true;
        return this.endpoint.setIamPolicy(policy, setOptions);
      },
    };
    let outcomes: EditOutcome[];
    try {
      outcomes = await applyEditBatch(
        guarded,
        batch.map((pending, i) => ({ id: String(i), edits: pending.edits })),
        {
          ...this.options.change,
          assumedPolicy: this.known,
          stopRetrying: () => this.stopped,
          onWritten: (policy) => {
            this.known = policy;
          },
        },
      );
    } catch (error) {
      // The engine reports Google's failures as outcomes; anything thrown is a fault of this process.
      this.known = undefined;
      for (const pending of batch) pending.reject(error);
      return;
    }
    if (outcomes.some((o) => !o.ok)) this.known = undefined;
    const failed = outcomes.filter((o): o is Extract<EditOutcome, { ok: false }> => !o.ok);
    // A write was sent and some request failed: only a read can tell what Google carried out.
    const settled =
      writeSent && failed.length > 0
        ? await settleUnanswered(
            this.endpoint,
            failed.map((o) => ({ outcome: o, edits: batch[Number(o.id)].edits })),
            this.options.check,
          )
        : new Map<string, ChangeResult | Error>();
    outcomes.forEach((outcome, i) => {
      const pending = batch[i];
      if (outcome.ok) {
        pending.resolve({ etag: outcome.etag, changed: outcome.changed, batchSize: outcome.batchSize });
        return;
      }
      const result = settled.get(outcome.id) ?? failureError(outcome);
      if (result instanceof Error) pending.reject(result);
      else pending.resolve(result);
    });
  }
}

/** The error a failed outcome rejects with: Google's (CANCELLED when the provider stopped before sending). */
export function failureError(outcome: Extract<EditOutcome, { ok: false }>): Error {
  if (outcome.status === 'CANCELLED') return ProviderErrors.cancelled();
  return outcome.cause ?? new GoogleApiError(0, outcome.status, outcome.message);
}
