import {
  classifyFailure,
  classifyTokenFailure,
  connectionErrorCode,
  DEFAULT_RETRY_SCHEDULE,
  isFailFastConnectionError,
  isRetried,
  notYetVisible,
  retryDelayMs,
  retrySchedule,
  RetrySettingError,
  withinBudget,
  type FailureKind,
} from '../../../lib/api/retry-policy';

describe('classification', () => {
  test.each<[number, string | undefined, FailureKind]>([
    // etag conflicts: redo the read-modify-write (terraform-provider-google retries 409 and 412)
    [409, 'ABORTED', 'conflict'],
    [409, undefined, 'conflict'],
    [412, 'FAILED_PRECONDITION', 'conflict'],
    [400, 'ABORTED', 'conflict'],
    // throttling and server trouble
    [429, 'RESOURCE_EXHAUSTED', 'transient'],
    [500, 'INTERNAL', 'transient'],
    [502, 'UNAVAILABLE', 'transient'],
    [503, 'UNAVAILABLE', 'transient'],
    [504, 'DEADLINE_EXCEEDED', 'transient'],
    // answers that will be the same next time
    [200, 'UNKNOWN', 'permanent'],
    [307, 'UNKNOWN', 'permanent'],
    [400, 'INVALID_ARGUMENT', 'permanent'],
    [400, 'FAILED_PRECONDITION', 'permanent'],
    [401, 'UNAUTHENTICATED', 'permanent'],
    [403, 'PERMISSION_DENIED', 'permanent'],
    [404, 'NOT_FOUND', 'permanent'],
    [499, 'CANCELLED', 'permanent'],
    [501, 'UNIMPLEMENTED', 'permanent'],
    [505, undefined, 'permanent'],
  ])('HTTP %i %s is %s', (httpStatus, status, kind) => {
    expect(classifyFailure(httpStatus, status)).toBe(kind);
  });

  test.each<[string | undefined, FailureKind]>([
    ['ENOTFOUND', 'failFast'],
    ['EAI_AGAIN', 'failFast'],
    ['ECONNREFUSED', 'failFast'],
    ['ECONNRESET', 'transient'],
    ['ETIMEDOUT', 'transient'],
    ['EPIPE', 'transient'],
    ['UND_ERR_SOCKET', 'transient'],
    [undefined, 'transient'],
  ])('no answer, system error %s, is %s', (code, kind) => {
    expect(classifyFailure(0, 'UNAVAILABLE', code)).toBe(kind);
    expect(isFailFastConnectionError(code)).toBe(kind === 'failFast');
  });

  test.each<[number, string | undefined, FailureKind]>([
    [0, undefined, 'transient'],
    [0, 'ECONNRESET', 'transient'],
    [0, 'ENOTFOUND', 'failFast'],
    [0, 'ECONNREFUSED', 'failFast'],
    [429, undefined, 'transient'],
    [500, undefined, 'transient'],
    [503, undefined, 'transient'],
    [400, undefined, 'permanent'], // invalid_grant: a revoked or expired refresh token
    [401, undefined, 'permanent'],
    [403, undefined, 'permanent'],
    [409, undefined, 'permanent'], // a token endpoint has no etag to conflict on
    [412, undefined, 'permanent'],
    [501, undefined, 'permanent'],
  ])('a token fetch failing with HTTP %i (%s) is %s', (httpStatus, code, kind) => {
    expect(classifyTokenFailure(httpStatus, code)).toBe(kind);
  });

  test('only conflicts and transient failures are retried', () => {
    expect((['conflict', 'transient', 'failFast', 'permanent'] as const).filter(isRetried)).toEqual(['conflict', 'transient']);
  });

  test.each<[string, unknown, string | undefined]>([
    ['gaxios wraps the system error', { message: 'request failed', cause: { code: 'ECONNRESET' } }, 'ECONNRESET'],
    ['fetch wraps it one level deeper', { cause: { cause: { code: 'ENOTFOUND' } } }, 'ENOTFOUND'],
    ['a Node error carries it itself', Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'ECONNREFUSED'],
    ['the innermost wrapper that has one wins', { code: 'ERR_X', cause: { code: 'EAI_AGAIN' } }, 'EAI_AGAIN'],
    ['a code that is not a string is none', { code: 404 }, undefined],
    ['nothing at all', undefined, undefined],
  ])('the connection error code: %s', (_label, error, code) => {
    expect(connectionErrorCode(error)).toBe(code);
  });
});

describe('the schedule', () => {
  const schedule = { ...DEFAULT_RETRY_SCHEDULE, jitter: 0 };

  test("terraform-provider-google's: 1 s doubling to 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => retryDelayMs(schedule, attempt, 0.5))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  test('jitter shortens a wait by up to its fraction, never lengthens it', () => {
    const jittered = { ...schedule, jitter: 0.5 };
    expect(retryDelayMs(jittered, 3, 0)).toBe(4_000);
    expect(retryDelayMs(jittered, 3, 0.5)).toBe(3_000);
    expect(retryDelayMs(jittered, 3, 0.999999)).toBe(2_000);
    expect(retryDelayMs({ ...schedule, jitter: 7 }, 1, 0.5)).toBe(500); // clamped to 1
    expect(retryDelayMs({ ...schedule, jitter: -1 }, 1, 0.5)).toBe(1_000); // clamped to 0
  });

  test('an initial delay longer than the longest wait is kept, not cut', () => {
    expect(retryDelayMs({ ...schedule, initialDelayMs: 45_000 }, 1, 0)).toBe(45_000);
    expect(retryDelayMs({ ...schedule, initialDelayMs: 45_000 }, 4, 0)).toBe(45_000);
  });

  test('the budget: a wait must end within it, counted from the first attempt', () => {
    const budget = { ...schedule, maxElapsedMs: 10_000 };
    expect(withinBudget(budget, 0, 10_000)).toBe(true);
    expect(withinBudget(budget, 3_000, 7_000)).toBe(true);
    expect(withinBudget(budget, 3_000, 7_001)).toBe(false);
    expect(withinBudget({ ...budget, maxElapsedMs: 0 }, 0, 1)).toBe(false);
  });
});

describe('the schedule of each operation, and the environment', () => {
  const MAX = 'CDKTF_GOOGLE_IAM_RETRY_MAX_MS';
  const INITIAL = 'CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS';

  test('by default: a change retries for 3 minutes, a read for 20 s, a stale read for 30 s, all from 1 s doubling to 30 s', () => {
    expect(retrySchedule('change', {})).toEqual({
      initialDelayMs: 1_000,
      maxDelayMs: 30_000,
      multiplier: 2,
      jitter: 0.5,
      maxElapsedMs: 180_000,
    });
    expect(retrySchedule('read', {})).toEqual({ ...retrySchedule('change', {}), maxElapsedMs: 20_000 });
    expect(retrySchedule('staleRead', {})).toEqual({ ...retrySchedule('change', {}), maxElapsedMs: 30_000 });
  });

  test('the maximum sets a change’s budget, and caps the others’ without ever raising them', () => {
    const budgets = (value: string) =>
      (['change', 'staleRead', 'read'] as const).map((op) => retrySchedule(op, { [MAX]: value }).maxElapsedMs);
    expect(budgets('600000')).toEqual([600_000, 30_000, 20_000]);
    expect(budgets('25000')).toEqual([25_000, 25_000, 20_000]);
    expect(budgets('5000')).toEqual([5_000, 5_000, 5_000]);
    expect(budgets('0')).toEqual([0, 0, 0]);
  });

  test('the initial delay applies to every operation; an empty variable is unset', () => {
    for (const op of ['change', 'staleRead', 'read'] as const) {
      expect(retrySchedule(op, { [INITIAL]: '50' }).initialDelayMs).toBe(50);
      expect(retrySchedule(op, { [INITIAL]: '', [MAX]: '' })).toEqual(retrySchedule(op, {}));
    }
    expect(retrySchedule('change', { [INITIAL]: '2.5' }).initialDelayMs).toBe(2.5);
  });

  test.each([
    [MAX, '-1'],
    [MAX, 'ten'],
    [MAX, 'Infinity'],
    [INITIAL, '1e999'],
    [INITIAL, '50ms'],
  ])('%s=%j is refused, naming the variable and the value', (variable, value) => {
    const call = () => retrySchedule('read', { [variable]: value });
    expect(call).toThrow(RetrySettingError);
    expect(call).toThrow(
      `${variable} must be a non-negative number of milliseconds (got ${JSON.stringify(value)}); unset it for the default`,
    );
  });
});

describe("what Google answers about something created moments ago (terraform-provider-google's retry predicates)", () => {
  test.each([
    [404, 'NOT_FOUND', "Resource 'projects/p/secrets/s' was not found", 'resource'],
    [403, 'PERMISSION_DENIED', "Permission 'secretmanager.secrets.getIamPolicy' denied on resource (or it may not exist).", 'resource'],
    [400, 'INVALID_ARGUMENT', 'Service account build@p-123456.iam.gserviceaccount.com does not exist.', 'member'],
    [400, 'INVALID_ARGUMENT', 'Invalid principal: "user:".', undefined],
    [409, 'ABORTED', 'There were concurrent policy changes.', undefined],
    [503, 'UNAVAILABLE', 'Service account x does not exist.', undefined],
  ])('HTTP %i %s %j: %s', (httpStatus, status, message, expected) => {
    expect(notYetVisible(httpStatus, status, message)).toBe(expected);
  });

  test('a grant waits 2 minutes for it by default; the provider block sets it, whatever the environment caps', () => {
    expect(retrySchedule('visibility', {}).maxElapsedMs).toBe(120_000);
    expect(retrySchedule('staleRead', {}).maxElapsedMs).toBe(30_000);
    expect(retrySchedule('visibility', { CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '5000' }).maxElapsedMs).toBe(5_000);
    expect(retrySchedule('visibility', { CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '5000' }, 60_000).maxElapsedMs).toBe(60_000);
    expect(retrySchedule('visibility', {}, 0).maxElapsedMs).toBe(0);
  });
});
