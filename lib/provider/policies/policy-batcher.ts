import { createHash } from 'crypto';
import { GoogleApiError } from '../../api/errors';
import { isRetriedError, retrying, type RetryOptions } from '../../api/retrying';
import { DeclaredGrants } from '../../iam/declared-grants';
import type { PolicyEdit } from '../../iam/policy-edit';
import { EMPTY_POLICY_ETAG, type Policy } from '../../iam/types';
import { ProviderErrors } from '../errors';
import type { IamPolicyEndpoint } from '../../api/iam-policy';
import { BatchPace } from './batch-pace';
import { applyEditBatch, type EditOutcome } from './engine';
import type { RunDeclarations } from './run-declarations';

/** Timing and retry budgets of one policy's batcher. */
export interface PolicyBatcherOptions {
  /** A read-modify-write's retries (retry-policy.ts `change`). */
  readonly change: RetryOptions;
  /** Resource reads at plan (`read`). */
  readonly read: RetryOptions;
  /** Re-reads while Google answers a version older than this provider's own last write (`staleRead`). */
  readonly staleRead: RetryOptions;
  /**
   * How long the gathering of a batch waits for more requests, at most (see
   * `gather`). @default 500
   */
  readonly maxGatherMs?: number;
  /**
   * The gathering stops when no request came for this long, or for a few of
   * Terraform's usual gaps between requests, up to four times this (BatchPace). @default 60
   */
  readonly idleGatherMs?: number;
}

/** What became of one change: written, with the policy's etag after it. */
export interface ChangeResult {
  readonly etag: string;
  /** Whether this change altered the policy the write was built on (false: it was already so). */
  readonly changed: boolean;
  /** How many changes were written together with this one. */
  readonly batchSize: number;
  /**
   * Digests (`etagDigest`) of the policy versions this process had seen (read,
   * or written against) before the write that carried this change, newest
   * last, at most `VERSIONS_KEPT`: every one is older than that write, so a
   * later read answering one of them is stale (Google's reads may lag
   * writes), not someone else's edit. Never the empty policy's etag, which a
   * resource created again answers again.
   */
  readonly replaced: readonly string[];
}

/**
 * At most this many of them: each costs 6 characters of private state per
 * grant, which Terraform rewrites with the whole state after every resource.
 */
const VERSIONS_KEPT = 8;

/** A short digest of an etag: what a grant's private state keeps of the versions its write replaced. */
export function etagDigest(etag: string): string {
  // 36 bits: a chance of about 1 in 4 billion that someone else's version passes for one of 16 remembered.
  return createHash('sha256').update(etag).digest('base64url').slice(0, 6);
}

/** A re-read answered a version older than the caller's own last write: retried within `staleRead`. */
export class StaleRead extends Error {
  constructor(public readonly policy: Policy) {
    super(`the read answered version ${policy.etag ?? '(no etag)'}, which a write of this provider already replaced`);
    this.name = 'StaleRead';
  }
}

interface Pending {
  readonly edits: readonly PolicyEdit[];
  readonly resolve: (result: ChangeResult) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * One policy's changes, folded into as few read-modify-writes as possible
 * (like terraform-provider-google's IAM batcher with its per-resource lock,
 * but in process): while a write is in flight, and until the process holds
 * enough (`gather`, BatchPace), requests queue and then go out together as
 * one `applyEditBatch`. A provider process has one per policy, however its
 * grants name it (policy-batchers.ts).
 * The policy as last read or written is kept: the next batch writes against
 * it without reading (its etag guards the write; the engine reads afresh when
 * Google refuses it), and plan-time reads of any number of grants on the
 * policy cost one getIamPolicy for the process's life.
 *
 * What the run's creates and updates granted is declared here, and no
 * removal of a later batch takes it away (declared-grants.ts): the outcome
 * does not depend on the order in which Terraform sends the changes.
 *
 * A write whose answer was lost and that no later write of the batch
 * confirmed has an unknown outcome (a read cannot settle it: it may lag).
 * On `stop()` (Ctrl-C), queued requests fail at once as cancelled, every
 * wait ends, a batch not yet sent is not sent, and a write already sent is
 * answered.
 */
export class PolicyBatcher {
  /** The policy as last read or written here; undefined until the first read, and after a failed change. */
  private known?: Policy;
  private reading?: Promise<Policy>;
  private queue: Pending[] = [];
  private draining = false;
  /** Aborted by `stop()`: ends every wait (retries, polls, the gathering) at once. */
  private readonly stopping = new AbortController();
  /** The polls for an answer other than a stale version, by that version's etag. */
  private readonly polls = new Map<string, Promise<Policy>>();
  /** What this process's creates and updates granted: no later removal takes it away. */
  private readonly declared = new DeclaredGrants();
  /** Digests of the versions this process has seen (read, or written against), oldest first. */
  private readonly seen: string[] = [];

  constructor(
    private readonly endpoint: IamPolicyEndpoint,
    private readonly options: PolicyBatcherOptions,
    /** The pace of the process's requests and writes, over all its policies. @default - this policy's alone */
    private readonly pace = new BatchPace(),
    /**
     * The policy's identity (PolicyIdentity key), and what the run's other
     * provider processes declare on it. @default - this process's declarations alone
     */
    private readonly run?: { readonly policy: string; readonly declarations: RunDeclarations },
  ) {}

  /**
   * What a resource the run leaves as it is grants (a saved plan's unchanged
   * resource, which the run never plans): declared, so no removal of the run takes it away.
   */
  public declareUnchanged(edits: readonly PolicyEdit[]): void {
    this.declared.declare(edits);
  }

  /** What the run declares on the policy: this process's creates and updates, and the other processes'. */
  private runDeclared(): DeclaredGrants {
    const others = this.run?.declarations.others(this.run.policy) ?? [];
    return others.length === 0 ? this.declared : this.declared.with(others);
  }

  private get stopped(): boolean {
    return this.stopping.signal.aborted;
  }

  /** The policy: read once (concurrent callers share the read) and kept, updated by this process's own writes. */
  public read(): Promise<Policy> {
    if (this.known) return Promise.resolve(this.known);
    this.reading ??= retrying(() => this.endpoint.getIamPolicy(), { ...this.options.read, signal: this.stopping.signal })
      .then(({ value }) => this.keep(value))
      .finally(() => {
        this.reading = undefined;
      });
    return this.reading;
  }

  /**
   * The policy as `read()` gives it, unless `isStale` says it is older than
   * something the caller wrote: then the next different answer Google gives,
   * and so on, until one is not stale. Every caller waiting to move past the
   * same version shares one poll of it (backoff within the `staleRead`
   * budget), so a refresh of many grants on a lagging policy costs about as
   * many reads as one. `onStale` hears of each stale answer. Rejects with
   * StaleRead when the budget runs out first.
   */
  public async readNotStale(isStale: (policy: Policy) => boolean, onStale?: (policy: Policy) => void): Promise<Policy> {
    let policy = await this.read();
    const deadline = Date.now() + (this.options.staleRead.maxElapsedMs ?? 0);
    while (isStale(policy)) {
      onStale?.(policy);
      if (Date.now() >= deadline) throw new StaleRead(policy);
      policy = await this.answerOtherThan(policy.etag ?? '');
    }
    return policy;
  }

  /** Forgets the kept policy: the next read asks Google. */
  public forget(): void {
    this.known = undefined;
  }

  /** Google's next answer with another etag than `etag`, polled with backoff; one poll per etag, shared. */
  private answerOtherThan(etag: string): Promise<Policy> {
    let poll = this.polls.get(etag);
    if (!poll) {
      poll = retrying(
        async () => {
          const policy = await this.endpoint.getIamPolicy();
          if (policy.etag === etag) throw new StaleRead(policy);
          return policy;
        },
        {
          ...this.options.staleRead,
          signal: this.stopping.signal,
          retryOn: (error) => error instanceof StaleRead || isRetriedError(error),
        },
      )
        .then(({ value }) => this.keep(value))
        .finally(() => this.polls.delete(etag));
      this.polls.set(etag, poll);
    }
    return poll;
  }

  /** Keeps `policy` as the one known, and its version as seen. */
  private keep(policy: Policy): Policy {
    this.known = policy;
    this.noteSeen(policy.etag);
    return policy;
  }

  /** Notes a version this process has seen: every later write of it replaces that version. */
  private noteSeen(etag: string | undefined): void {
    if (!etag || etag === EMPTY_POLICY_ETAG) return;
    const digest = etagDigest(etag);
    if (this.seen.at(-1) === digest) return;
    this.seen.push(digest);
    if (this.seen.length > VERSIONS_KEPT) this.seen.shift();
  }

  /**
   * Queues `edits` into the next batch; rejects with Google's error, or a
   * ProviderError (cancelled, outcome unknown). The grants among them (a
   * create's, an update's new values) are what the configuration declares.
   */
  public change(edits: readonly PolicyEdit[], signal?: AbortSignal): Promise<ChangeResult> {
    if (this.stopped || signal?.aborted) return Promise.reject(ProviderErrors.cancelled());
    return new Promise<ChangeResult>((resolve, reject) => {
      const pending: Pending = { edits, resolve, reject };
      this.queue.push(pending);
      this.pace.arrived(Date.now());
      signal?.addEventListener('abort', () => this.cancel(pending), { once: true });
      void this.drain();
    });
  }

  /** Cancels what is queued and ends every wait; a batch already being written is finished. */
  public stop(): void {
    this.stopping.abort();
    const cancelled = this.queue.splice(0);
    this.pace.dequeued(cancelled.length);
    for (const pending of cancelled) pending.reject(ProviderErrors.cancelled());
  }

  private cancel(pending: Pending): void {
    const index = this.queue.indexOf(pending);
    if (index < 0) return; // already in a batch: it is finished
    this.queue.splice(index, 1);
    this.pace.dequeued(1);
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
        if (batch.length === 0) continue;
        this.pace.writeStarted(batch.length);
        const started = Date.now();
        try {
          await this.write(batch);
        } finally {
          this.pace.writeEnded(batch.length, Date.now() - started);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Waits for the requests Terraform is about to send: until the process
   * holds as many, over all its policies, as BatchPace says keep Terraform
   * busy with the fewest writes, or none came for a while (the idle time), or
   * `maxGatherMs` at most, or the provider stops. Taking them as they come
   * made a write of every two or three requests once Terraform slowed down (a
   * large state, a busy machine): 0.41 to 0.55 IAM calls per grant at 1,000
   * grants on one policy with the CPU busy. The first batch, expecting no
   * number, waits until none came for the idle time: the changes of one plan
   * to one policy (a drift repaired, a member replaced) then go out in one
   * write.
   */
  private async gather(): Promise<void> {
    const start = Date.now();
    const until = start + (this.options.maxGatherMs ?? 500);
    const idleMs = this.pace.idleMs(this.options.idleGatherMs ?? 60);
    let queued = this.queue.length;
    let lastArrival = start;
    while (!this.stopped && !this.pace.enough && Date.now() < until && Date.now() - lastArrival < idleMs) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      if (this.queue.length > queued) {
        queued = this.queue.length;
        lastArrival = Date.now();
      }
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    /** Digests of what had been seen before the write that succeeded last, when it did. */
    let replaced: string[] = [];
    let outcomes: EditOutcome[];
    try {
      // Recorded before the write, so that another process's removal after it spares these grants.
      this.run?.declarations.record(
        this.run.policy,
        batch.flatMap((pending) => pending.edits),
      );
      outcomes = await applyEditBatch(
        this.endpoint,
        batch.map((pending, i) => ({ id: String(i), edits: pending.edits })),
        {
          ...this.options.change,
          declared: () => this.runDeclared(),
          assumedPolicy: this.known,
          signal: this.stopping.signal,
          onRead: (policy) => this.keep(policy),
          onWriting: (policy) => this.noteSeen(policy.etag),
          onWritten: (policy) => {
            const own = policy.etag ? etagDigest(policy.etag) : undefined;
            replaced = this.seen.filter((digest) => digest !== own);
            this.keep(policy);
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
    outcomes.forEach((outcome, i) => {
      const pending = batch[i];
      // Google may hold what a lost write carried: declared too, so that no later removal takes it away.
      if (outcome.ok || outcome.writeUnanswered) this.declared.declare(pending.edits);
      if (outcome.ok) pending.resolve({ etag: outcome.etag, changed: outcome.changed, batchSize: outcome.batchSize, replaced });
      else pending.reject(failureError(outcome));
    });
  }
}

/**
 * The error a failed outcome rejects with: Google's (CANCELLED when the
 * provider stopped before sending), or an unknown outcome when a write that
 * carried the change went unanswered.
 */
export function failureError(outcome: Extract<EditOutcome, { ok: false }>): Error {
  if (outcome.writeUnanswered)
    return ProviderErrors.outcomeUnknown(`${outcome.status}: ${outcome.message}`, ProviderErrors.NO_WRITE_CONFIRMED);
  if (outcome.status === 'CANCELLED') return ProviderErrors.cancelled();
  return outcome.cause ?? new GoogleApiError(0, outcome.status, outcome.message);
}
