import { GoogleApiError } from './errors';

/** Bounded exponential backoff with jitter (terraform-provider-google: 1 s doubling to 30 s). */
export interface RetryOptions {
  /** Give up once the next wait would end later than this after the first attempt. @default 180000 */
  readonly maxElapsedMs?: number;
  /** Wait before the second attempt. @default 1000 */
  readonly initialDelayMs?: number;
  /** Longest single wait. @default 30000 */
  readonly maxDelayMs?: number;
  /** @default 2 */
  readonly multiplier?: number;
  /** Each wait is shortened by up to this fraction at random, so parallel callers spread out. @default 0.5 */
  readonly jitter?: number;
  /** @default - GoogleApiError.retryable */
  readonly isRetryable?: (error: unknown) => boolean;
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  readonly now?: () => number;
}

export const RETRY_DEFAULTS = {
  maxElapsedMs: 180_000,
  initialDelayMs: 1_000,
  maxDelayMs: 30_000,
  multiplier: 2,
  jitter: 0.5,
} as const;

/** What `retrying` resolves with: the value and how many attempts it took. */
export interface Retried<T> {
  readonly value: T;
  readonly attempts: number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const isRetryableGoogleError = (error: unknown) => error instanceof GoogleApiError && error.retryable;

/** Calls `attempt(1)`, `attempt(2)`, … until one succeeds, an error is not retryable, or time is up. */
export async function retrying<T>(attempt: (n: number) => Promise<T>, options: RetryOptions = {}): Promise<Retried<T>> {
  const maxElapsedMs = options.maxElapsedMs ?? RETRY_DEFAULTS.maxElapsedMs;
  const initialDelayMs = options.initialDelayMs ?? RETRY_DEFAULTS.initialDelayMs;
  const maxDelayMs = Math.max(options.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs, initialDelayMs);
  const multiplier = options.multiplier ?? RETRY_DEFAULTS.multiplier;
  const jitter = Math.min(Math.max(options.jitter ?? RETRY_DEFAULTS.jitter, 0), 1);
  const isRetryable = options.isRetryable ?? isRetryableGoogleError;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;

  const start = now();
  for (let n = 1; ; n++) {
    try {
      return { value: await attempt(n), attempts: n };
    } catch (error) {
      if (!isRetryable(error)) throw error;
      const ceiling = Math.min(maxDelayMs, initialDelayMs * multiplier ** (n - 1));
      const delayMs = Math.round(ceiling * (1 - jitter * random()));
      if (now() - start + delayMs > maxElapsedMs) throw error;
      options.onRetry?.(error, n, delayMs);
      await sleep(delayMs);
    }
  }
}
