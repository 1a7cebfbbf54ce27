import { createHash } from 'crypto';
import { GoogleApiError } from '../../api/errors';
import { isRetriedError, retrying, type RetryOptions } from '../../api/retrying';
import type { PolicyEdit } from '../../iam/policy-edit';
import type { Policy } from '../../iam/types';
import { ProviderErrors } from '../errors';
import type { IamPolicyEndpoint } from '../../api/iam-policy';
import { BatchPace } from './batch-pace';
import { applyEditBatch, type EditOutcome } from './engine';
import { GrantedHere } from './granted-here';
import { settleUnanswered, type SettledChange } from './settle';

/** Timing and retry budgets of one policy's batcher. */
export interface PolicyBatcherOptions {
  /** A read-modify-write's retries (retry-policy.ts `change`). */
  readonly change: RetryOptions;
  /** The read that settles a write whose answer was lost (`check`). */
  readonly check: RetryOptions;
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

/** What became of one change: written (or found already so), with the policy's etag after it. */
export interface ChangeResult extends SettledChange {
  /**
   * Digests (`etagDigest`) of the policy versions this process's writes
   * replaced up to this change, newest last, within the last `STALE_WINDOW_MS`
   * and at most `STALE_VERSIONS_KEPT`: a later read answering one of them is
   * stale (Google's reads may lag writes), not someone else's edit.
   */
  readonly replaced: readonly string[];
}

/** How far back a change remembers the versions its process replaced: the `staleRead` budget. */
const STALE_WINDOW_MS = 30_000;
/**
 * At most this many of them: each costs 6 characters of private state per
 * grant, which Terraform rewrites with the whole state after every resource
 * (at 16, a grant's state is about 18% larger, 970 bytes instead of 820).
 */
const STALE_VERSIONS_KEPT = 16;

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
 * one `applyEditBatch`.
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
  /** The polls for an answer other than a stale version, by that version's etag. */
  private readonly polls = new Map<string, Promise<Policy>>();
  /** What this process's creates and updates granted: a delete here leaves it alone. */
  private readonly granted = new GrantedHere();
  /** Versions this process's writes replaced (etag digests, with when), oldest first. */
  private readonly replacedVersions: { readonly digest: string; readonly at: number }[] = [];

  constructor(
    private readonly endpoint: IamPolicyEndpoint,
    private readonly options: PolicyBatcherOptions,
    /** The pace of the process's requests and writes, over all its policies. @default - this policy's alone */
    private readonly pace = new BatchPace(),
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
        { ...this.options.staleRead, retryOn: (error) => error instanceof StaleRead || isRetriedError(error) },
      )
        .then(({ value }) => {
          this.known = value;
          return value;
        })
        .finally(() => this.polls.delete(etag));
      this.polls.set(etag, poll);
    }
    return poll;
  }

  /** Notes that a write of this process replaced the version `etag`. */
  private noteReplaced(etag: string | undefined): void {
    if (!etag) return;
    const now = Date.now();
    this.replacedVersions.push({ digest: etagDigest(etag), at: now });
    while (
      this.replacedVersions.length > STALE_VERSIONS_KEPT ||
      (this.replacedVersions.length > 0 && this.replacedVersions[0].at < now - STALE_WINDOW_MS)
    ) {
      this.replacedVersions.shift();
    }
  }

  private replacedDigests(): string[] {
    return this.replacedVersions.map((v) => v.digest);
  }

  /** Queues `edits` into the next batch; rejects with Google's error, or a ProviderError (cancelled, outcome unknown). */
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

  /** Cancels what is queued; a batch already being written is finished (and settled). */
  public stop(): void {
    this.stopped = true;
    const cancelled = this.queue.splice(0);
    this.pace.dequeued(cancelled.length);
    for (const pending of cancelled) pending.reject(ProviderErrors.cancelled());
  }

  private cancel(pending: Pending): void {
    const index = this.queue.indexOf(pending);
    if (index < 0) return; // already in a batch: it is finished and settled
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
        const batch = revocationsFirst(this.queue.splice(0));
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
   * `maxGatherMs` at most. Taking them as they come made a write of
   * every two or three requests once Terraform slowed down (a large state, a
   * busy machine): 0.41 to 0.55 IAM calls per grant at 1,000 grants on one
   * policy with the CPU busy. The first batch, expecting no number, waits
   * until none came for the idle time: the changes of one plan to one policy
   * (a drift repaired, a member replaced) then go out in one write.
   */
  private async gather(): Promise<void> {
    const start = Date.now();
    const until = start + (this.options.maxGatherMs ?? 500);
    const idleMs = this.pace.idleMs(this.options.idleGatherMs ?? 60);
    let queued = this.queue.length;
    let lastArrival = start;
    while (!this.pace.enough && Date.now() < until && Date.now() - lastArrival < idleMs) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      if (this.queue.length > queued) {
        queued = this.queue.length;
        lastArrival = Date.now();
      }
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    // A delete leaves alone what a create or update of this process granted (granted-here.ts).
    const sent = batch.map((pending) => (onlyRevokes(pending.edits) ? this.granted.keep(pending.edits) : pending.edits));
    let writeSent = false;
    /** The etag the last write was sent with: the version it replaces, if Google carried it out. */
    let sentEtag: string | undefined;
    let outcomes: EditOutcome[];
    try {
      outcomes = await applyEditBatch(
        this.endpoint,
        sent.map((edits, i) => ({ id: String(i), edits })),
        {
          ...this.options.change,
          assumedPolicy: this.known,
          stopRetrying: () => this.stopped,
          onRead: (policy) => {
            this.known = policy;
          },
          onWriting: (policy) => {
            writeSent = true;
            sentEtag = policy.etag;
          },
          onWritten: (policy, replacedEtag) => {
            this.known = policy;
            this.noteReplaced(replacedEtag);
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
            failed.map((o) => ({ outcome: o, edits: sent[Number(o.id)] })),
            this.options.check,
          )
        : new Map<string, SettledChange | Error>();
    // A lost write that the settling read found carried out replaced the version it was sent against.
    if ([...settled.values()].some((result) => !(result instanceof Error))) this.noteReplaced(sentEtag);
    const replaced = this.replacedDigests();
    outcomes.forEach((outcome, i) => {
      const pending = batch[i];
      const result = outcome.ok
        ? { etag: outcome.etag, changed: outcome.changed, batchSize: outcome.batchSize }
        : (settled.get(outcome.id) ?? failureError(outcome));
      if (result instanceof Error) {
        pending.reject(result);
        return;
      }
      if (!onlyRevokes(pending.edits)) this.granted.record(pending.edits);
      pending.resolve({ ...result, replaced });
    });
  }
}

/**
 * The batch in the order its edits are applied: requests that only take
 * something away (a grant's delete) before the others. Terraform may send the
 * delete of a grant's old address and the create of its new one together (a
 * member grant given another address, a literal turned into a reference):
 * the grant the configuration declares must be what remains.
 */
function revocationsFirst(batch: Pending[]): Pending[] {
  return [...batch.filter((p) => onlyRevokes(p.edits)), ...batch.filter((p) => !onlyRevokes(p.edits))];
}

/** Whether `edits` only take something away: a grant's delete. */
function onlyRevokes(edits: readonly PolicyEdit[]): boolean {
  return edits.every((edit) => edit.kind === 'removeMember' || edit.kind === 'removeBinding');
}

/** The error a failed outcome rejects with: Google's (CANCELLED when the provider stopped before sending). */
export function failureError(outcome: Extract<EditOutcome, { ok: false }>): Error {
  if (outcome.status === 'CANCELLED') return ProviderErrors.cancelled();
  return outcome.cause ?? new GoogleApiError(0, outcome.status, outcome.message);
}
