import { retrying, type RetryOptions } from '../../api/retrying';
import { GoogleApiError } from '../../api/errors';
import type { IamPolicyEndpoint } from '../../api/iam-policy';
import { DeclaredGrants } from '../../iam/declared-grants';
import { IamValidationError } from '../../iam/errors';
import { applyEdits, type PolicyEdit } from '../../iam/policy-edit';
import type { Policy } from '../../iam/types';
import { ProviderErrors } from '../errors';
import { samePolicy } from './policy-compare';

export { samePolicy } from './policy-compare';

/** One caller's edits; all requests of a batch target the same policy. */
export interface EditRequest {
  readonly id: string;
  readonly edits: readonly PolicyEdit[];
}

/** What became of one request: written, or Google's refusal. */
export type EditOutcome =
  | {
      readonly id: string;
      readonly ok: true;
      /** Whether its edits changed the policy the write was built on (false: they were already so). */
      readonly changed: boolean;
      readonly etag: string;
      readonly attempts: number;
      readonly batchSize: number;
    }
  | {
      readonly id: string;
      readonly ok: false;
      readonly status: string;
      readonly message: string;
      readonly attempts: number;
      readonly batchSize: number;
      /**
       * A write carrying this request was sent and no answer said whether
       * Google took it (no response, or a 5xx): the change may be in the policy.
       */
      readonly writeUnanswered?: boolean;
      /** The error itself: Google's (GoogleApiError), the policy rule the request breaks (IamValidationError), or this process's. */
      readonly cause?: Error;
    };

/**
 * Retry schedule and hooks (retrying.ts), what the run declares, the policy
 * as last written, and what the caller is told of each call. When
 * `stopRetrying` says so (or `signal` aborts), no call is made any more: the
 * cycle fails as cancelled (Ctrl-C).
 */
export interface EngineOptions extends RetryOptions {
  /**
   * What the run declares on this policy besides these requests (the grants
   * of its creates and updates), asked after each read: the requests'
   * removals spare it (declared-grants.ts), as they spare each other's grants.
   * @default - nothing
   */
  readonly declared?: () => DeclaredGrants;
  /**
   * The policy as this caller last wrote it (setIamPolicy's answer), kept
   * between batches: the first attempt writes against it without reading.
   * Its etag guards the write (ABORTED when someone wrote since: the attempt
   * reads afresh at once); where it would decide anything else (a request
   * breaking a rule), the attempt reads afresh first.
   * @default - the first attempt reads the policy
   */
  readonly assumedPolicy?: Policy;
  /**
   * Told each policy read (getIamPolicy's answer).
   * @default - nobody
   */
  readonly onRead?: (policy: Policy) => void;
  /**
   * Told each policy about to be written, carrying the etag of the version it replaces.
   * @default - nobody
   */
  readonly onWriting?: (policy: Policy) => void;
  /**
   * Told the policy as written (setIamPolicy's answer) after each write.
   * @default - nobody
   */
  readonly onWritten?: (policy: Policy) => void;
}

/** The cycle cannot rest on the assumed policy; thrown inside one attempt only. */
const READ_AFRESH = Symbol('read afresh');

interface CycleResult {
  readonly etag: string;
  readonly changed: ReadonlySet<string>;
  readonly rejected: ReadonlyMap<string, IamValidationError>;
}

/** What the cycles of one batch have learnt so far. */
interface BatchProgress {
  /**
   * The writes whose answer never came since the last one Google took: the
   * requests they carried, and those they changed. Only a write Google takes
   * clears it (it holds every request it carried); a refusal answers its own
   * write, not the lost one before it.
   */
  unanswered?: { readonly carried: ReadonlySet<string>; readonly changed: ReadonlySet<string> };
  /** The requests a lost write had changed, found so by a later cycle: that write most likely made them so. */
  changedByLostWrite: Set<string>;
}

/**
 * The read-modify-write engine: read the policy (version 3), apply every
 * request's edits in order, write it back with the etag that was read, and
 * redo the whole cycle on a conflict or a transient error.
 *
 * It always writes, even when the edits change nothing in the policy read:
 * Google's reads are eventually consistent, and only a write that Google
 * takes with the etag of that read proves the read was current (a stale one
 * gets ABORTED, and the cycle reads again). So no grant is reported made,
 * and no revoke reported done, on the strength of a read that may lag (as
 * terraform-provider-google's read-modify-write always writes).
 *
 * Requests are folded into one cycle (terraform-provider-google calls this
 * batching). Removals spare what the run declares (`declared`, and the
 * grants of the other requests). A request whose edits break a policy rule
 * (e.g. the principal limit) is rejected alone; if Google rejects the
 * combined write as INVALID_ARGUMENT, each request is retried on its own so
 * one bad grant cannot sink the others.
 */
export async function applyEditBatch(
  api: IamPolicyEndpoint,
  requests: readonly EditRequest[],
  options: EngineOptions = {},
): Promise<EditOutcome[]> {
  const batchSize = requests.length;
  let attempts = 0;
  const progress: BatchProgress = { changedByLostWrite: new Set() };
  const outcomesOf = (value: CycleResult, used: number): EditOutcome[] =>
    requests.map((r) => {
      const rejection = value.rejected.get(r.id);
      if (rejection) return failure(r.id, 'INVALID_ARGUMENT', rejection.message, used, batchSize, rejection);
      const changed = value.changed.has(r.id) || progress.changedByLostWrite.has(r.id);
      return { id: r.id, ok: true, changed, etag: value.etag, attempts: used, batchSize };
    });
  try {
    const { value, attempts: used } = await retrying((n) => {
      attempts = n;
      const assumed = n === 1 ? options.assumedPolicy : undefined;
      if (assumed !== undefined) {
        return readModifyWrite(api, requests, Promise.resolve(assumed), options, true, progress).catch((error: unknown) => {
          if (error !== READ_AFRESH) throw error;
          return readModifyWrite(api, requests, read(api, options), options, false, progress);
        });
      }
      return readModifyWrite(api, requests, read(api, options), options, false, progress);
    }, options);
    return outcomesOf(value, used);
  } catch (error) {
    if (progress.unanswered) {
      // A write was sent and its answer lost: one more cycle, past the budget or a stop, settles it
      // (a write Google takes holds every request it carried; a read alone could lag).
      const settling: EngineOptions = { ...options, signal: undefined, stopRetrying: undefined };
      try {
        const value = await readModifyWrite(api, requests, read(api, settling), settling, false, progress);
        return outcomesOf(value, attempts + 1);
      } catch {
        // Unsettled: the outcome stays unknown (below).
      }
    }
    if (batchSize > 1 && error instanceof GoogleApiError && error.status === 'INVALID_ARGUMENT' && !progress.unanswered) {
      return applyOneByOne(api, requests, options);
    }
    const status = error instanceof GoogleApiError ? error.status : 'INTERNAL';
    const message = error instanceof GoogleApiError ? error.apiMessage : String((error as Error)?.message ?? error);
    const cause = error instanceof Error ? error : undefined;
    return requests.map((r) => ({
      ...failure(r.id, status, message, attempts, batchSize, cause),
      ...(progress.unanswered?.carried.has(r.id) ? { writeUnanswered: true } : {}),
    }));
  }
}

/**
 * Google refused the combined write: each request alone, so that only the
 * one at fault fails. Grants go first and removals last, each sparing what
 * those before it made (the order the batch would have had no gap in).
 */
async function applyOneByOne(api: IamPolicyEndpoint, requests: readonly EditRequest[], options: EngineOptions): Promise<EditOutcome[]> {
  const removesOnly = (r: EditRequest) => r.edits.every((e) => e.kind === 'removeMember' || e.kind === 'removeBinding');
  const ordered = [...requests.filter((r) => !removesOnly(r)), ...requests.filter(removesOnly)];
  const madeSo: PolicyEdit[] = [];
  const declared = () => (options.declared?.() ?? new DeclaredGrants()).with(madeSo);
  const outcomes = new Map<string, EditOutcome>();
  for (const request of ordered) {
    const [outcome] = await applyEditBatch(api, [request], { ...options, declared, assumedPolicy: undefined });
    if (outcome.ok || outcome.writeUnanswered) madeSo.push(...request.edits);
    outcomes.set(request.id, outcome);
  }
  return requests.map((r) => outcomes.get(r.id)!);
}

/** One read of the policy, unless the caller has stopped. */
async function read(api: IamPolicyEndpoint, options: EngineOptions): Promise<Policy> {
  if (stopped(options)) throw ProviderErrors.writeCancelled();
  const policy = await api.getIamPolicy();
  options.onRead?.(policy);
  return policy;
}

function stopped(options: EngineOptions): boolean {
  return options.signal?.aborted === true || options.stopRetrying?.() === true;
}

/** An answer that says nothing of whether the write was carried out: none at all, or a server error. */
function answerLost(error: unknown): boolean {
  return !(error instanceof GoogleApiError) || error.httpStatus === 0 || error.httpStatus >= 500;
}

/**
 * The policy every accepted request's edits make of `current`, applied in
 * order, each request's removals sparing what the run and the accepted
 * requests declare. A request that breaks a rule is rejected alone; the
 * others are planned again without its grants, until none is rejected anew.
 */
function plan(current: Policy, requests: readonly EditRequest[], declaredBefore: DeclaredGrants) {
  const rejected = new Map<string, IamValidationError>();
  for (;;) {
    const accepted = requests.filter((r) => !rejected.has(r.id));
    const declared = declaredBefore.with(accepted.flatMap((r) => r.edits));
    let next: Policy = current;
    const changed = new Set<string>();
    let newlyRejected = false;
    for (const request of accepted) {
      try {
        const edited = applyEdits(next, declared.spare(request.edits));
        if (!samePolicy(edited, next)) changed.add(request.id);
        next = edited;
      } catch (error) {
        if (!(error instanceof IamValidationError)) throw error;
        rejected.set(request.id, error);
        newlyRejected = true;
      }
    }
    if (!newlyRejected) return { next, changed, rejected };
  }
}

async function readModifyWrite(
  api: IamPolicyEndpoint,
  requests: readonly EditRequest[],
  read: Promise<Policy>,
  options: EngineOptions,
  assumed: boolean,
  progress: BatchProgress,
): Promise<CycleResult> {
  const current = await read;
  if (typeof current.etag !== 'string' || current.etag === '') {
    // Without the etag that was read, a write replaces the policy blindly.
    throw ProviderErrors.blindWrite();
  }
  // Asked after the read: what another process recorded before writing is then seen (run-declarations.ts).
  const { next, changed, rejected } = plan(current, requests, options.declared?.() ?? new DeclaredGrants());
  // "Breaks a rule" is a verdict on the policy as it is, which only a read can give.
  if (assumed && rejected.size > 0) throw READ_AFRESH;
  for (const id of progress.unanswered?.changed ?? []) if (!changed.has(id)) progress.changedByLostWrite.add(id);
  const carried = new Set(requests.filter((r) => !rejected.has(r.id)).map((r) => r.id));
  const updateAuditConfigs = requests.some((r) => carried.has(r.id) && r.edits.some((e) => e.kind === 'replaceAuditConfigs'));
  if (stopped(options)) throw ProviderErrors.writeCancelled();
  // Written even when nothing changed: Google taking this etag is what proves the read was current.
  const sent = { ...next, etag: current.etag };
  options.onWriting?.(sent);
  let written: Policy;
  try {
    written = await api.setIamPolicy(sent, { updateAuditConfigs });
    progress.unanswered = undefined;
  } catch (error) {
    if (answerLost(error)) {
      progress.unanswered = {
        carried: new Set([...(progress.unanswered?.carried ?? []), ...carried]),
        changed: new Set([...(progress.unanswered?.changed ?? []), ...changed]),
      };
    }
    if (assumed && error instanceof GoogleApiError && error.conflict) throw READ_AFRESH;
    throw error;
  }
  options.onWritten?.(written);
  return { etag: written.etag ?? '', changed, rejected };
}

function failure(id: string, status: string, message: string, attempts: number, batchSize: number, cause?: Error): EditOutcome {
  return { id, ok: false, status, message, attempts, batchSize, ...(cause ? { cause } : {}) };
}
