import { retrying } from '../../../lib/api/backoff';
import { GoogleApiError } from '../../../lib/api/errors';

const conflict = () => new GoogleApiError(409, 'ABORTED', 'etag mismatch');
const notFound = () => new GoogleApiError(404, 'NOT_FOUND', 'no such thing');

/** A fake clock: sleeping advances time instantly and records each wait. */
function fakeClock() {
  let time = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => time,
    sleep: async (ms: number) => {
      waits.push(ms);
      time += ms;
    },
  };
}

test('retries retryable errors with doubling waits, capped, until success', async () => {
  const clock = fakeClock();
  let calls = 0;
  const result = await retrying(
    async (n) => {
      calls++;
      if (n < 6) throw conflict();
      return 'done';
    },
    { ...clock, random: () => 0, initialDelayMs: 1_000, maxDelayMs: 4_000 },
  );
  expect(result).toEqual({ value: 'done', attempts: 6 });
  expect(calls).toBe(6);
  expect(clock.waits).toEqual([1_000, 2_000, 4_000, 4_000, 4_000]);
});

test('jitter shortens each wait by up to the given fraction', async () => {
  const clock = fakeClock();
  await retrying(
    async (n) => {
      if (n < 3) throw conflict();
      return n;
    },
    { ...clock, random: () => 1, jitter: 0.5, initialDelayMs: 1_000 },
  );
  expect(clock.waits).toEqual([500, 1_000]);
});

test('a non-retryable error fails at once', async () => {
  const clock = fakeClock();
  let calls = 0;
  await expect(
    retrying(async () => {
      calls++;
      throw notFound();
    }, clock),
  ).rejects.toThrow('NOT_FOUND (HTTP 404): no such thing');
  expect(calls).toBe(1);
  expect(clock.waits).toEqual([]);
});

test('gives up with the last error once the next wait would pass the bound', async () => {
  const clock = fakeClock();
  const retries: number[] = [];
  await expect(
    retrying(
      async () => {
        throw conflict();
      },
      {
        ...clock,
        random: () => 0,
        initialDelayMs: 1_000,
        maxElapsedMs: 10_000,
        onRetry: (_e, n) => retries.push(n),
      },
    ),
  ).rejects.toMatchObject({ status: 'ABORTED' });
  // waits 1 s, 2 s, 4 s (7 s in all); the next 8 s wait would end at 15 s > 10 s.
  expect(clock.waits).toEqual([1_000, 2_000, 4_000]);
  expect(retries).toEqual([1, 2, 3]);
});

test('other errors are not retried unless the caller says so', async () => {
  const clock = fakeClock();
  await expect(
    retrying(async () => {
      throw new TypeError('bug');
    }, clock),
  ).rejects.toThrow('bug');
  const result = await retrying(
    async (n) => {
      if (n === 1) throw new TypeError('flaky');
      return n;
    },
    { ...clock, isRetryable: () => true },
  );
  expect(result.attempts).toBe(2);
});
