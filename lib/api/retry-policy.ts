/**
 * The one retry policy of every Google call the library makes (grant writes,
 * the reads that check them, plan-time reads, Direct-form lookups, token
 * fetches), after terraform-provider-google: redo the whole
 * read-modify-write on an etag conflict (409 ABORTED, 412), retry throttling
 * and server trouble, with backoff from 1 s doubling to 30 s. Pure
 * decisions only: `retrying.ts` runs an operation under them.
 */

/**
 * What a failed call calls for:
 * - `conflict`: someone else wrote since the read; redo the read-modify-write.
 * - `transient`: throttled, server trouble or a lost connection; try again later.
 * - `failFast`: no connection could be made, for a reason that will not change
 *   within a retry budget (a host name that does not resolve, nothing listening);
 *   fail at once, naming the host and where its address came from.
 * - `permanent`: an answer that will be the same next time; fail at once.
 */
export type FailureKind = (typeof FAILURE_KINDS)[number];
/** Every `FailureKind`, for the parsers of messages that carry one. */
export const FAILURE_KINDS = ['conflict', 'transient', 'failFast', 'permanent'] as const;

/** Connection failures that fail fast, and what each means. */
export const FAIL_FAST_CONNECTION_ERRORS: Readonly<Record<string, string>> = {
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved',
  ECONNREFUSED: 'nothing accepts connections there',
};

/** Whether a failed connection's system error code is one that fails fast. */
export function isFailFastConnectionError(code: string | undefined): code is string {
  return code !== undefined && code in FAIL_FAST_CONNECTION_ERRORS;
}

/** The system error code of a failed connection, e.g. `ECONNRESET` (gaxios wraps it in `cause`, fetch one level deeper). */
export function connectionErrorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown; cause?: { code?: unknown } } } | undefined;
  const code = e?.cause?.code ?? e?.cause?.cause?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/** HTTP statuses of an etag conflict (terraform-provider-google's `isConflictError`). */
const CONFLICT_HTTP = new Set([409, 412]);
/** HTTP statuses of throttling and server-side trouble. */
const TRANSIENT_HTTP = new Set([429, 500, 502, 503, 504]);

/**
 * The kind of a failed Google API call: `httpStatus` 0 means no answer came
 * (then `networkCode` is the system error, e.g. `ECONNRESET`); `status` is
 * Google's canonical status (`ABORTED` is a conflict whatever the HTTP code).
 */
export function classifyFailure(httpStatus: number, status?: string, networkCode?: string): FailureKind {
  if (httpStatus === 0) return isFailFastConnectionError(networkCode) ? 'failFast' : 'transient';
  if (CONFLICT_HTTP.has(httpStatus) || status === 'ABORTED') return 'conflict';
  return TRANSIENT_HTTP.has(httpStatus) ? 'transient' : 'permanent';
}

/** The kind of a failed token fetch: as an API call's, except that a token endpoint has no etag to conflict on. */
export function classifyTokenFailure(httpStatus: number, networkCode?: string): FailureKind {
  const kind = classifyFailure(httpStatus, undefined, networkCode);
  return kind === 'conflict' ? 'permanent' : kind;
}

/** Whether a failure of this kind is worth another attempt. */
export function isRetried(kind: FailureKind): boolean {
  return kind === 'conflict' || kind === 'transient';
}

/**
 * What an error says about Google's eventual consistency, as
 * terraform-provider-google's retry predicates read it: a resource created
 * moments ago answers NOT_FOUND (`IsNotFoundRetryableError`), or
 * PERMISSION_DENIED where "IAM API is eventually consistent and returns 403
 * … instead of 404" (`IsForbiddenIamServiceAccountRetryableError`); a
 * service account created moments ago is refused as a member with 400
 * "Service account … does not exist" (`IamServiceAccountNotFound`).
 * - `resource`: the resource is not (yet) visible to IAM;
 * - `member`: a service account member is not (yet) known to IAM;
 * - undefined: anything else.
 */
export type NotYetVisible = 'resource' | 'member';

/** Which of Google's answers may mean "created moments ago, not visible yet" (see `NotYetVisible`). */
export function notYetVisible(httpStatus: number, status: string, message: string): NotYetVisible | undefined {
  if (httpStatus === 404 || status === 'NOT_FOUND' || httpStatus === 403 || status === 'PERMISSION_DENIED') return 'resource';
  if ((httpStatus === 400 || status === 'INVALID_ARGUMENT') && /Service account\b.*\bdoes not exist/s.test(message)) return 'member';
  return undefined;
}

/**
 * What is retried, each with a budget of its own:
 * - `change`: a grant's read-modify-write (3 minutes: Terraform waits for it anyway);
 * - `read`: plan-time reads and Direct-form lookups (20 s: a
 *   plan or a synth must not hang on a dead endpoint; with one request's own
 *   timeout a read gives up within about 80 s at worst);
 * - `visibility`: a grant's wait for a resource or service account created
 *   moments ago to become visible to IAM (2 minutes; the provider block's
 *   `eventual_consistency_timeout` sets it);
 * - `staleRead`: a refresh's re-reads while Google's answer is older than the
 *   provider's own last write (30 s).
 */
export type RetriedOperation = 'change' | 'read' | 'visibility' | 'staleRead';

const BUDGET_MS: Record<RetriedOperation, number> = {
  change: 180_000,
  read: 20_000,
  visibility: 120_000,
  staleRead: 30_000,
};

/** Bounded exponential backoff with jitter. */
export interface RetrySchedule {
  /** Wait before the second attempt. */
  readonly initialDelayMs: number;
  /** Longest single wait. */
  readonly maxDelayMs: number;
  readonly multiplier: number;
  /** Each wait is shortened by up to this fraction at random, so parallel callers spread out. */
  readonly jitter: number;
  /** The budget: give up once the next wait would end later than this after the first attempt. */
  readonly maxElapsedMs: number;
}

/** terraform-provider-google's schedule (1 s doubling to 30 s), with a grant's budget. */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  multiplier: 2,
  jitter: 0.5,
  maxElapsedMs: BUDGET_MS.change,
};

/** The variables that override the schedule, for the provider and the Direct-form lookups alike. */
export const RETRY_ENV = {
  maxMs: 'CDKTF_GOOGLE_IAM_RETRY_MAX_MS',
  initialMs: 'CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS',
} as const;

/** A retry variable that is not a number of milliseconds. */
export class RetrySettingError extends Error {
  constructor(variable: string, raw: string) {
    super(`${variable} must be a non-negative number of milliseconds (got ${JSON.stringify(raw)}); unset it for the default`);
    this.name = 'RetrySettingError';
  }
}

/**
 * The schedule of one operation, with the environment's overrides:
 * `CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS` sets the first wait;
 * `CDKTF_GOOGLE_IAM_RETRY_MAX_MS` sets a change's budget and caps the
 * others' (which never exceed their own). `budgetMs`, where a setting of the
 * provider block gives it, is the budget whatever the environment says.
 * Throws a RetrySettingError for a value that is not a non-negative number.
 */
export function retrySchedule(operation: RetriedOperation, env: NodeJS.ProcessEnv, budgetMs?: number): RetrySchedule {
  const maxMs = millisecondsFromEnv(env, RETRY_ENV.maxMs);
  const initialDelayMs = millisecondsFromEnv(env, RETRY_ENV.initialMs) ?? DEFAULT_RETRY_SCHEDULE.initialDelayMs;
  const maxElapsedMs =
    budgetMs ?? (operation === 'change' ? (maxMs ?? BUDGET_MS.change) : Math.min(maxMs ?? Infinity, BUDGET_MS[operation]));
  return { ...DEFAULT_RETRY_SCHEDULE, initialDelayMs, maxElapsedMs };
}

/**
 * The wait after failed attempt `attempt` (1 for the first): the initial
 * delay times the multiplier per earlier failure, at most `maxDelayMs` (or
 * the initial delay, if that is longer), shortened by `jitter × random`
 * (random in [0, 1)).
 */
export function retryDelayMs(schedule: RetrySchedule, attempt: number, random: number): number {
  const maxDelayMs = Math.max(schedule.maxDelayMs, schedule.initialDelayMs);
  const jitter = Math.min(Math.max(schedule.jitter, 0), 1);
  const ceiling = Math.min(maxDelayMs, schedule.initialDelayMs * schedule.multiplier ** (attempt - 1));
  return Math.round(ceiling * (1 - jitter * random));
}

/** Whether a wait of `delayMs`, `elapsedMs` after the first attempt began, still ends within the budget. */
export function withinBudget(schedule: RetrySchedule, elapsedMs: number, delayMs: number): boolean {
  return elapsedMs + delayMs <= schedule.maxElapsedMs;
}

function millisecondsFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new RetrySettingError(name, raw);
  return value;
}
