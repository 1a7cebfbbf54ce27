import { CredentialsError, GoogleApiError } from '../../../lib/api/errors';

test.each([
  [400, 'INVALID_ARGUMENT', false],
  [401, 'UNAUTHENTICATED', false],
  [403, 'PERMISSION_DENIED', false],
  [404, 'NOT_FOUND', false],
  [409, 'ABORTED', true],
  [429, 'RESOURCE_EXHAUSTED', true],
  [500, 'INTERNAL', true],
  [502, 'UNAVAILABLE', true],
  [503, 'UNAVAILABLE', true],
  [504, 'DEADLINE_EXCEEDED', true],
])('HTTP %i without a status in the body is %s, retryable: %s', (code, status, retryable) => {
  const error = GoogleApiError.fromResponse(code, 'oops');
  expect(error).toMatchObject({ httpStatus: code, status, apiMessage: 'oops', retryable });
});

test("Google's error body gives the status and the message", () => {
  const error = GoogleApiError.fromResponse(
    404,
    { error: { code: 404, status: 'NOT_FOUND', message: "Resource 'x' was not found" } },
    'GET v1/x:getIamPolicy',
  );
  expect(error.message).toBe("NOT_FOUND (HTTP 404): Resource 'x' was not found [GET v1/x:getIamPolicy]");
  expect(error.conflict).toBe(false);
});

test('a lost connection is UNAVAILABLE and retryable', () => {
  const error = GoogleApiError.network(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } }));
  expect(error).toMatchObject({ httpStatus: 0, status: 'UNAVAILABLE', retryable: true });
  expect(error.message).toBe('UNAVAILABLE (no response): fetch failed (ECONNRESET)');
});

test.each<[string, GoogleApiError, string]>([
  ['an answer', GoogleApiError.fromResponse(409, { error: { status: 'ABORTED', message: 'etag' } }), 'conflict'],
  ['a lost connection', GoogleApiError.network({ message: 'socket hang up', code: 'ECONNRESET' }), 'transient'],
  ['a lost connection with a fail-fast code', GoogleApiError.network({ message: 'refused', cause: { code: 'ECONNREFUSED' } }), 'failFast'],
  ['no connection', GoogleApiError.unreachable('ENOTFOUND', 'x.invalid', 'X'), 'failFast'],
  ['a redirect', GoogleApiError.redirected(302, null), 'permanent'],
  ['a malformed answer', GoogleApiError.malformed(200, 'an empty body'), 'permanent'],
  ['unusable credentials', new CredentialsError('no credentials'), 'permanent'],
  ['a token endpoint that did not answer', new CredentialsError('no token', { failureKind: 'transient' }), 'transient'],
  ['an error rebuilt from its parts (a Direct-form lookup)', new GoogleApiError(503, 'UNAVAILABLE', 'later', 'call'), 'transient'],
  [
    'a refusal before any request, kind given',
    new GoogleApiError(0, 'FAILED_PRECONDITION', 'no etag', undefined, 'permanent'),
    'permanent',
  ],
])('%s is classified by the retry policy', (_label, error, kind) => {
  expect(error.failureKind).toBe(kind);
  expect(error.retryable).toBe(kind === 'conflict' || kind === 'transient');
  expect(error.conflict).toBe(kind === 'conflict');
});
