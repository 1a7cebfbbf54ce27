import { retrying, type RetryOptions } from '../api/backoff';
import { GoogleApiError } from '../api/errors';
import type { SetIamPolicyOptions } from '../api/iam-policy';
import { IamValidationError } from '../iam/errors';
import { applyEdits, type PolicyEdit } from '../iam/policy-edit';
import type { Policy } from '../iam/types';
import { RunnerErrors } from './errors';

/** The two calls the engine makes on one resource's policy. */
export interface IamPolicyEndpoint {
  getIamPolicy(): Promise<Policy>;
  setIamPolicy(policy: Policy, options: SetIamPolicyOptions): Promise<Policy>;
}

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
    };

/** Retry timing, hooks and an already started first read. */
export interface EngineOptions extends RetryOptions {
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * The read of the first attempt, when the caller has already started it
   * (the queue's lock holder reads the policy before it takes the batch, so
   * that requests queued during the read join the write). A rejected read is
   * handled as the first attempt's failure; later attempts read afresh.
   * @default - the first attempt reads the policy itself
   */
  readonly firstRead?: () => Promise<Policy>;
  /**
   * The policy as this caller last wrote it (setIamPolicy's answer), kept
   * between batches: the first attempt writes against it without reading.
   * It is trusted for a write alone, which its etag guards; where it would
   * decide anything else (nothing to change, a request breaking a rule), or
   * Google refuses its etag (ABORTED: someone else wrote since), the attempt
   * reads the policy afresh at once.
   * @default - the first attempt reads the policy (or takes `firstRead`)
   */
  readonly assumedPolicy?: Policy;
  /** Told the policy as written (setIamPolicy's answer) after each write. @default - nobody */
  readonly onWritten?: (policy: Policy) => void;
}

/** The cycle cannot rest on the assumed policy; thrown inside one attempt only. */
const READ_AFRESH = Symbol('read afresh');

interface CycleResult {
  readonly etag: string;
  readonly changed: ReadonlySet<string>;
  readonly rejected: ReadonlyMap<string, IamValidationError>;
}

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
  try {
    const { value, attempts: used } = await retrying((n) => {
      attempts = n;
      const assumed = n === 1 ? options.assumedPolicy : undefined;
      if (assumed !== undefined) {
        return readModifyWrite(api, requests, Promise.resolve(assumed), options, true).catch((error: unknown) => {
          if (error !== READ_AFRESH) throw error;
          return readModifyWrite(api, requests, api.getIamPolicy(), options, false);
        });
      }
      const read = n === 1 && options.firstRead ? options.firstRead() : api.getIamPolicy();
      return readModifyWrite(api, requests, read, options, false);
    }, options);
    return requests.map((r) => {
      const rejection = value.rejected.get(r.id);
      return rejection
        ? failure(r.id, 'INVALID_ARGUMENT', rejection.message, used, batchSize)
        : { id: r.id, ok: true as const, changed: value.changed.has(r.id), etag: value.etag, attempts: used, batchSize };
    });
  } catch (error) {
    if (batchSize > 1 && error instanceof GoogleApiError && error.status === 'INVALID_ARGUMENT') {
      const singles: EditOutcome[] = [];
      const fresh = { ...options, firstRead: undefined, assumedPolicy: undefined };
      for (const request of requests) singles.push(...(await applyEditBatch(api, [request], fresh)));
      return singles;
    }
    const status = error instanceof GoogleApiError ? error.status : 'INTERNAL';
    const message = error instanceof GoogleApiError ? error.apiMessage : String((error as Error)?.message ?? error);
    return requests.map((r) => failure(r.id, status, message, attempts, batchSize));
  }
}

async function readModifyWrite(
  api: IamPolicyEndpoint,
  requests: readonly EditRequest[],
  read: Promise<Policy>,
  options: EngineOptions,
  assumed: boolean,
): Promise<CycleResult> {
  const current = await read;
  if (typeof current.etag !== 'string' || current.etag === '') {
    // Without the etag that was read, a write replaces the policy blindly.
    throw RunnerErrors.blindWrite();
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
  try {
    written = await api.setIamPolicy({ ...next, etag: current.etag }, { updateAuditConfigs });
  } catch (error) {
    if (assumed && error instanceof GoogleApiError && error.status === 'ABORTED') throw READ_AFRESH;
    throw error;
  }
  options.onWritten?.(written);
  return { etag: written.etag ?? '', changed, rejected };
}

function failure(id: string, status: string, message: string, attempts: number, batchSize: number): EditOutcome {
  return { id, ok: false, status, message, attempts, batchSize };
}

/** Structural equality of two policies, independent of key order. */
export function samePolicy(a: Policy, b: Policy): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}
