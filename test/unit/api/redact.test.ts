import { sanitize } from '../../../lib/api/redact';

test.each([
  [
    'a form body an STS error echoes',
    'grant_type=x&subject_token=eyJhbGciOi.payload.sig&audience=a',
    'grant_type=x&subject_token=[REDACTED]&audience=a',
  ],
  [
    'a JSON body',
    '{"client_secret": "s3cr3t-value", "refresh_token":"1//rt-value", "client_id":"id"}',
    '{"client_secret": "[REDACTED]", "refresh_token":"[REDACTED]", "client_id":"id"}',
  ],
  ['an actor token and an assertion', 'actor_token=abc.def&assertion=jwt.jwt.jwt', 'actor_token=[REDACTED]&assertion=[REDACTED]'],
])('OAuth and STS secret parameters are redacted wherever they appear: %s', (_label, text, redacted) => {
  expect(sanitize(text)).toBe(redacted);
});

test('the names alone, and other parameters, are left as they are', () => {
  expect(sanitize('the subject_token field and scope=cloud-platform')).toBe('the subject_token field and scope=cloud-platform');
});
