import { setTimeout as delay } from 'timers/promises';
import { GoogleApiError } from './errors';
import { DEFAULT_RETRY_SCHEDULE, isRetried, retryDelayMs, withinBudget, type RetrySchedule } from './retry-policy';

/** How `retrying` runs: the schedule (see retry-policy.ts; unset fields take its defaults), hooks, and a clock for tests. */
export interface RetryOptions extends Partial<RetrySchedule> {
  /** Told of each failed attempt that will be retried, before the wait. */
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  /**
   * Which failures are retried.
   * @default - Google's conflicts and transient failures (`isRetriedError`)
   */
  readonly retryOn?: (error: unknown) => boolean;
  /** Asked before each retry: true ends the retries (e.g. the apply was interrupted). @default - never */
  readonly stopRetrying?: () => boolean;
  /**
   * Ends the retries when aborted (Ctrl-C), a wait between attempts included:
   * the last failure is thrown at once.
   * @default - never aborted
   */
  readonly signal?: AbortSignal;
  /** Waits `ms`; rejects (with anything) once `signal` aborts, if it is given. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
  readonly now?: () => number;
}

/** What `retrying` resolves with: the value and how many attempts it took. */
export interface Retried<T> {
  readonly value: T;
  readonly attempts: number;
}

const defaultSleep = (ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal });

/** Whether the policy retries this error: only Google's conflicts and transient failures (anything else is a bug or a refusal). */
export function isRetriedError(error: unknown): boolean {
  return error instanceof GoogleApiError && isRetried(error.failureKind);
}

/**
 * Calls `attempt(1)`, `attempt(2)`, … until one succeeds, fails in a way the
 * policy does not retry, the budget is spent, or the caller stops (`signal`,
 * `stopRetrying`); then rejects with the last error as it was.
 */
export async function retrying<T>(attempt: (n: number) => Promise<T>, options: RetryOptions = {}): Promise<Retried<T>> {
  const schedule: RetrySchedule = {
    initialDelayMs: options.initialDelayMs ?? DEFAULT_RETRY_SCHEDULE.initialDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_SCHEDULE.maxDelayMs,
    multiplier: options.multiplier ?? DEFAULT_RETRY_SCHEDULE.multiplier,
    jitter: options.jitter ?? DEFAULT_RETRY_SCHEDULE.jitter,
    maxElapsedMs: options.maxElapsedMs ?? DEFAULT_RETRY_SCHEDULE.maxElapsedMs,
  };
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  const start = now();
  for (let n = 1; ; n++) {
    try {
      return { value: await attempt(n), attempts: n };
    } catch (error) {
      const stopped = () => options.signal?.aborted === true || options.stopRetrying?.() === true;
      if (!(options.retryOn ?? isRetriedError)(error) || stopped()) throw error;
      const delayMs = retryDelayMs(schedule, n, random());
      if (!withinBudget(schedule, now() - start, delayMs)) throw error;
      options.onRetry?.(error, n, delayMs);
      try {
        await sleep(delayMs, options.signal);
      } catch (interrupted) {
        if (stopped()) throw error;
        throw interrupted;
      }
    }
  }
}
