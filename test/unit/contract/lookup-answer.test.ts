import { CredentialsError, GoogleApiError } from '../../../lib/api/errors';
import { ContractError } from '../../../lib/contract/contract-error';
import { lookupAnswerOfError, parseLookupAnswer, serializeLookupAnswer, type LookupAnswer } from '../../../lib/contract/lookup-answer';
import { IamValidationError } from '../../../lib/iam/errors';
import { thrownBy } from '../../support/rejection';

const roundTrip = (answer: LookupAnswer) => parseLookupAnswer(serializeLookupAnswer(answer));

test('a value round-trips', () => {
  const answer = { value: { name: 'projects/p/locations/l/importJobs/j', labels: { a: 'b' } }, project: 'p' };
  expect(roundTrip(answer)).toEqual(answer);
});

test.each([
  [
    'Google’s refusal',
    new GoogleApiError(404, 'NOT_FOUND', 'no such job'),
    { kind: 'google', status: 'NOT_FOUND', failureKind: 'permanent' },
  ],
  ['throttling', new GoogleApiError(429, 'RESOURCE_EXHAUSTED', 'slow down'), { kind: 'google', failureKind: 'transient' }],
  [
    'an endpoint that does not resolve',
    GoogleApiError.unreachable('ENOTFOUND', 'nowhere.invalid', 'CLOUDSDK_API_ENDPOINT_OVERRIDES_MIGRATIONCENTER'),
    { kind: 'google', httpStatus: 0, failureKind: 'failFast' },
  ],
  ['credentials', new CredentialsError('no credentials found', { httpStatus: 0 }), { kind: 'credentials', failureKind: 'permanent' }],
  [
    'a refused value',
    new IamValidationError('location', 'a/b', 'expected a location'),
    { kind: 'argument', field: 'location', value: 'a/b' },
  ],
  ['anything else', new Error('disk full'), { kind: 'other', message: 'disk full' }],
])('an error answer keeps what the caller rebuilds: %s', (_, error, expected) => {
  const answer = lookupAnswerOfError(error);
  expect(answer).toEqual({ error: expect.objectContaining(expected) });
  expect(roundTrip(answer)).toEqual(answer);
});

test('a rebuilt error retries exactly what the lookup mode’s error would have', () => {
  for (const error of [
    new GoogleApiError(503, 'UNAVAILABLE', 'later'),
    GoogleApiError.unreachable('ECONNREFUSED', '127.0.0.1:1', 'CLOUDSDK_API_ENDPOINT_OVERRIDES_MIGRATIONCENTER'),
  ]) {
    const answer = roundTrip(lookupAnswerOfError(error));
    if (!('error' in answer) || answer.error.kind !== 'google') throw new Error('expected a Google error');
    const rebuilt = new GoogleApiError(
      answer.error.httpStatus,
      answer.error.status,
      answer.error.apiMessage,
      'call',
      answer.error.failureKind,
    );
    expect(rebuilt.retryable).toBe(error.retryable);
    expect(rebuilt.failureKind).toBe(error.failureKind);
  }
});

test.each([
  ['not JSON', 'oops', ''],
  ['a list', '[]', ''],
  ['a value that is not an object', '{"value":"x","project":"p"}', 'value'],
  ['no project', '{"value":{}}', 'project'],
  ['an unknown error kind', '{"error":{"kind":"panic"}}', 'error.kind'],
  [
    'a status code that is not a number',
    '{"error":{"kind":"google","httpStatus":"404","status":"NOT_FOUND","apiMessage":"m","failureKind":"permanent"}}',
    'error.httpStatus',
  ],
  [
    'an unknown failure kind',
    '{"error":{"kind":"google","httpStatus":404,"status":"NOT_FOUND","apiMessage":"m","failureKind":"later"}}',
    'error.failureKind',
  ],
  ['an error without its message', '{"error":{"kind":"other"}}', 'error.message'],
])('a malformed answer is refused, naming the field: %s', (_, text, field) => {
  const error = thrownBy(() => parseLookupAnswer(text), ContractError);
  expect(error).toMatchObject({ messageName: 'lookup answer', kind: 'shape', field });
  expect(error.message).toMatch(/^the provider's lookup answer is malformed: /);
});
