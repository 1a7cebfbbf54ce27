import { CredentialsError, GoogleApiError } from '../../../lib/api/errors';
import { isRetriedError, retrying } from '../../../lib/api/retrying';

const conflict = () => new GoogleApiError(409, 'ABORTED', 'etag mismatch');
const unavailable = () => GoogleApiError.fromResponse(503, { error: { status: 'UNAVAILABLE', message: 'try later' } });
const notFound = () => new GoogleApiError(404, 'NOT_FOUND', 'no such thing');

/** A fake clock: sleeping advances time instantly and records each wait. */
function fakeClock() {
  let time = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => time,
    advance: (ms: number) => {
      time += ms;
    },
    sleep: async (ms: number) => {
      waits.push(ms);
      time += ms;
    },
  };
}

/** An operation that fails with `errors`, in order, then answers `value`; counts its calls. */
function failingThen<T>(errors: readonly (() => unknown)[], value: T) {
  const op = Object.assign(
    async (n: number) => {
      op.calls++;
      if (n <= errors.length) throw errors[n - 1]();
      return value;
    },
    { calls: 0 },
  );
  return op;
}

test('retries conflicts and transient failures with doubling waits, capped, until success', async () => {
  const clock = fakeClock();
  const op = failingThen([conflict, unavailable, conflict, unavailable, conflict], 'done');
  const result = await retrying(op, { ...clock, random: () => 0, initialDelayMs: 1_000, maxDelayMs: 4_000 });
  expect(result).toEqual({ value: 'done', attempts: 6 });
  expect(op.calls).toBe(6);
  expect(clock.waits).toEqual([1_000, 2_000, 4_000, 4_000, 4_000]);
});

test('without a schedule, the policy’s default: 1 s doubling, shortened by up to half at random', async () => {
  const clock = fakeClock();
  await retrying(failingThen([conflict, conflict, conflict], 0), { ...clock, random: () => 1 });
  expect(clock.waits).toEqual([500, 1_000, 2_000]);
  const explicitUndefined = fakeClock();
  await retrying(failingThen([conflict], 0), { ...explicitUndefined, random: () => 0, initialDelayMs: undefined, maxElapsedMs: undefined });
  expect(explicitUndefined.waits).toEqual([1_000]);
});

test.each([
  ['a permanent refusal', notFound],
  ['a connection that fails fast', () => GoogleApiError.unreachable('ENOTFOUND', 'x.invalid', 'CLOUDSDK_API_ENDPOINT_OVERRIDES_X')],
  ['a redirect', () => GoogleApiError.redirected(302, 'https://elsewhere.example/')],
  ['an answer that is not Google’s JSON', () => GoogleApiError.malformed(200, 'an HTML page')],
  ['unusable credentials', () => new CredentialsError('no Google credentials found')],
  ['an error that is not Google’s (a bug)', () => new TypeError('bug')],
  ['a value thrown that is no error', () => 'string'],
])('%s fails at once, as it was thrown', async (_label, error) => {
  const clock = fakeClock();
  const thrown = error();
  const op = failingThen([() => thrown], 'never');
  await expect(retrying(op, clock)).rejects.toBe(thrown);
  expect(op.calls).toBe(1);
  expect(clock.waits).toEqual([]);
});

test('a token endpoint that did not answer is retried, one that refused is not', async () => {
  const clock = fakeClock();
  const lost = () => new CredentialsError('could not get an access token', { httpStatus: 0, failureKind: 'transient' });
  expect(await retrying(failingThen([lost], 'token'), clock)).toEqual({ value: 'token', attempts: 2 });
  const refused = failingThen([() => new CredentialsError('invalid_grant', { httpStatus: 400 })], 'token');
  await expect(retrying(refused, clock)).rejects.toThrow('invalid_grant');
  expect(refused.calls).toBe(1);
});

test('gives up with the last error, as it was, once the next wait would end past the budget', async () => {
  const clock = fakeClock();
  const retries: Array<[number, number]> = [];
  const last = new GoogleApiError(503, 'UNAVAILABLE', 'the last one');
  let n = 0;
  const op = async () => {
    n++;
    throw n === 4 ? last : unavailable();
  };
  const options = { ...clock, random: () => 0, initialDelayMs: 1_000, maxElapsedMs: 10_000 };
  await expect(retrying(op, { ...options, onRetry: (_e, attempt, delayMs) => retries.push([attempt, delayMs]) })).rejects.toBe(last);
  // waits 1 s, 2 s, 4 s (7 s in all); the next 8 s wait would end at 15 s > 10 s.
  expect(clock.waits).toEqual([1_000, 2_000, 4_000]);
  expect(retries).toEqual([
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
  ]);
});

test('the budget counts the attempts’ own time, not only the waits', async () => {
  const clock = fakeClock();
  const slow = async () => {
    clock.advance(9_500); // a request that took 9.5 s before it failed
    throw unavailable();
  };
  await expect(retrying(slow, { ...clock, random: () => 0, maxElapsedMs: 10_000 })).rejects.toMatchObject({ httpStatus: 503 });
  expect(clock.waits).toEqual([]);
});

test('a budget of 0 makes one attempt', async () => {
  const clock = fakeClock();
  const op = failingThen([unavailable], 'never');
  await expect(retrying(op, { ...clock, maxElapsedMs: 0 })).rejects.toMatchObject({ status: 'UNAVAILABLE' });
  expect(op.calls).toBe(1);
});

test('stopRetrying ends the retries before the next wait, with the error of the attempt that failed', async () => {
  const clock = fakeClock();
  let stop = false;
  const op = failingThen(
    [
      conflict,
      () => {
        stop = true;
        return unavailable();
      },
    ],
    'never',
  );
  await expect(retrying(op, { ...clock, random: () => 0, stopRetrying: () => stop })).rejects.toMatchObject({ status: 'UNAVAILABLE' });
  expect(op.calls).toBe(2);
  expect(clock.waits).toEqual([1_000]);
});

test('isRetriedError follows the policy', () => {
  expect([conflict(), unavailable(), notFound(), new TypeError('x'), undefined].map(isRetriedError)).toEqual([
    true,
    true,
    false,
    false,
    false,
  ]);
});

test('an abort ends a wait at once (Ctrl-C), with the error of the attempt that failed; no attempt follows', async () => {
  const abort = new AbortController();
  const failure = unavailable();
  let calls = 0;
  const retried = retrying(
    async () => {
      calls++;
      throw failure;
    },
    { initialDelayMs: 60_000, maxElapsedMs: 600_000, signal: abort.signal },
  );
  await new Promise((resolve) => setImmediate(resolve));
  abort.abort();
  // The real sleep: were the 30 to 60 s wait not cut short, the test would time out.
  await expect(retried).rejects.toBe(failure);
  expect(calls).toBe(1);
});

test('an aborted signal makes no retry at all', async () => {
  const abort = new AbortController();
  abort.abort();
  const op = failingThen([unavailable], 'never');
  await expect(retrying(op, { signal: abort.signal })).rejects.toMatchObject({ status: 'UNAVAILABLE' });
  expect(op.calls).toBe(1);
});
