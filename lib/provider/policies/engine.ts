import { retrying, type RetryOptions } from '../../api/retrying';
import { GoogleApiError } from '../../api/errors';
import type { IamPolicyEndpoint } from '../../api/iam-policy';
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

/** What became of one request: written (or already so), or Google's refusal. */
export type EditOutcome =
  | {
      readonly id: string;
      readonly ok: true;
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
       * A write of this request was sent and no answer said whether Google
       * took it (no response, or a 5xx): the change may be in the policy.
       */
      readonly writeUnanswered?: boolean;
      /** The error itself: Google's (GoogleApiError), the policy rule the request breaks (IamValidationError), or this process's. */
      readonly cause?: Error;
    };

/**
 * Retry schedule and hooks (retrying.ts), the policy as last written, and
 * what the caller is told of each call. When `stopRetrying` says so, no call
 * is made any more: the cycle fails as cancelled (Ctrl-C).
 */
export interface EngineOptions extends RetryOptions {
  /**
   * The policy as this caller last wrote it (setIamPolicy's answer), kept
   * between batches: the first attempt writes against it without reading.
   * It is trusted for a write alone, which its etag guards; where it would
   * decide anything else (nothing to change, a request breaking a rule), or
   * Google refuses its etag (ABORTED: someone else wrote since), the attempt
   * reads the policy afresh at once.
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
   * Told the policy as written (setIamPolicy's answer) after each write, and the etag of the version it replaced.
   * @default - nobody
   */
  readonly onWritten?: (policy: Policy, replacedEtag: string) => void;
}

/** The cycle cannot rest on the assumed policy; thrown inside one attempt only. */
const READ_AFRESH = Symbol('read afresh');

interface CycleResult {
  readonly etag: string;
  readonly changed: ReadonlySet<string>;
  readonly rejected: ReadonlyMap<string, IamValidationError>;
}

/** The requests the last write changed when its answer never came; cleared by any answer. */
type Unanswered = { changed?: ReadonlySet<string> };

/**
 * The read-modify-write engine: read the policy (version 3), apply every
 * request's edits in order, write it back with the etag that was read, and
 * redo the whole cycle on a conflict or a transient error.
 *
 * Requests are folded into one cycle (terraform-provider-google calls this
 * batching). A request whose edits break a policy rule (e.g. the principal
 * limit) is rejected alone; if Google rejects the combined write as
 * INVALID_ARGUMENT, each request is retried on its own so one bad grant cannot
 * sink the others.
 */
export async function applyEditBatch(
  api: IamPolicyEndpoint,
  requests: readonly EditRequest[],
  options: EngineOptions = {},
): Promise<EditOutcome[]> {
  const batchSize = requests.length;
  let attempts = 0;
  const unanswered: Unanswered = {};
  try {
    const { value, attempts: used } = await retrying((n) => {
      attempts = n;
      const assumed = n === 1 ? options.assumedPolicy : undefined;
      if (assumed !== undefined) {
        return readModifyWrite(api, requests, Promise.resolve(assumed), options, true, unanswered).catch((error: unknown) => {
          if (error !== READ_AFRESH) throw error;
          return readModifyWrite(api, requests, read(api, options), options, false, unanswered);
        });
      }
      return readModifyWrite(api, requests, read(api, options), options, false, unanswered);
    }, options);
    return requests.map((r) => {
      const rejection = value.rejected.get(r.id);
      return rejection
        ? failure(r.id, 'INVALID_ARGUMENT', rejection.message, used, batchSize, rejection)
        : success(r.id, value, unanswered, used, batchSize);
    });
  } catch (error) {
    if (batchSize > 1 && error instanceof GoogleApiError && error.status === 'INVALID_ARGUMENT') {
      const singles: EditOutcome[] = [];
      const fresh = { ...options, assumedPolicy: undefined };
      for (const request of requests) singles.push(...(await applyEditBatch(api, [request], fresh)));
      return singles;
    }
    const status = error instanceof GoogleApiError ? error.status : 'INTERNAL';
    const message = error instanceof GoogleApiError ? error.apiMessage : String((error as Error)?.message ?? error);
    return requests.map((r) => {
      const cause = error instanceof Error ? error : undefined;
      return {
        ...failure(r.id, status, message, attempts, batchSize, cause),
        ...(unanswered.changed?.has(r.id) ? { writeUnanswered: true } : {}),
      };
    });
  }
}

/**
 * A request found already so, after a write of it went unanswered, was most
 * likely written by that write: it counts as changed.
 */
function success(id: string, cycle: CycleResult, unanswered: Unanswered, attempts: number, batchSize: number): EditOutcome {
  const changed = cycle.changed.has(id) || unanswered.changed?.has(id) === true;
  return { id, ok: true, changed, etag: cycle.etag, attempts, batchSize };
}

/** One read of the policy, unless the caller has stopped. */
async function read(api: IamPolicyEndpoint, options: EngineOptions): Promise<Policy> {
  if (options.stopRetrying?.()) throw ProviderErrors.writeCancelled();
  const policy = await api.getIamPolicy();
  options.onRead?.(policy);
  return policy;
}

/** An answer that says nothing of whether the write was carried out: none at all, or a server error. */
function answerLost(error: unknown): boolean {
  return !(error instanceof GoogleApiError) || error.httpStatus === 0 || error.httpStatus >= 500;
}

async function readModifyWrite(
  api: IamPolicyEndpoint,
  requests: readonly EditRequest[],
  read: Promise<Policy>,
  options: EngineOptions,
  assumed: boolean,
  unanswered: Unanswered,
): Promise<CycleResult> {
  const current = await read;
  if (typeof current.etag !== 'string' || current.etag === '') {
    // Without the etag that was read, a write replaces the policy blindly.
    throw ProviderErrors.blindWrite();
  }
  let next: Policy = current;
  const changed = new Set<string>();
  const rejected = new Map<string, IamValidationError>();
  for (const request of requests) {
    try {
      const edited = applyEdits(next, request.edits);
      if (!samePolicy(edited, next)) changed.add(request.id);
      next = edited;
    } catch (error) {
      if (!(error instanceof IamValidationError)) throw error;
      rejected.set(request.id, error);
    }
  }
  // "Already so" and "breaks a rule" are verdicts on the policy as it is, which only a read can give.
  if (assumed && (changed.size < requests.length || rejected.size > 0)) throw READ_AFRESH;
  if (changed.size === 0) {
    return { etag: current.etag, changed, rejected };
  }
  const updateAuditConfigs = requests.some((r) => !rejected.has(r.id) && r.edits.some((e) => e.kind === 'replaceAuditConfigs'));
  let written: Policy;
  if (options.stopRetrying?.()) throw ProviderErrors.writeCancelled();
  const sent = { ...next, etag: current.etag };
  options.onWriting?.(sent);
  try {
    written = await api.setIamPolicy(sent, { updateAuditConfigs });
    unanswered.changed = undefined;
  } catch (error) {
    unanswered.changed = answerLost(error) ? changed : undefined;
    if (assumed && error instanceof GoogleApiError && error.conflict) throw READ_AFRESH;
    throw error;
  }
  options.onWritten?.(written, current.etag);
  return { etag: written.etag ?? '', changed, rejected };
}

function failure(id: string, status: string, message: string, attempts: number, batchSize: number, cause?: Error): EditOutcome {
  return { id, ok: false, status, message, attempts, batchSize, ...(cause ? { cause } : {}) };
}
