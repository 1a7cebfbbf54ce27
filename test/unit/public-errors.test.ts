/**
 * The errors a caller may catch are exported from the package's index, and
 * what the library throws is an instance of them.
 */
import { TerraformStack, Testing } from 'cdktf';
import { AuthorizationPolicyIamMember, ConstructValidationError, CredentialsError, GoogleApiError, GoogleLookups } from '../../lib';
import { thrownBy } from '../support/rejection';

const POLICY = 'projects/p-123456/locations/global/authorizationPolicies/ap';

test('a construct given a malformed member throws a ConstructValidationError naming the construct, the field and the value', () => {
  const stack = new TerraformStack(Testing.app(), 'iam');
  let thrown: unknown;
  try {
    new AuthorizationPolicyIamMember(stack, 'Readers', { name: POLICY, role: 'roles/viewer', member: 'User:alice@example.com' });
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConstructValidationError);
  expect(thrown).toBeInstanceOf(Error);
  expect(thrown).toMatchObject({
    where: 'iam/Readers',
    field: 'member',
    value: 'User:alice@example.com',
    name: 'ConstructValidationError',
  });
});

test('a Direct-form lookup with a malformed argument throws a ConstructValidationError before any request', () => {
  const error = thrownBy(
    () =>
      new GoogleLookups({ project: 'p-123456' }).getAuthorizationPolicyIamPolicy({
        authorizationPolicyId: 'ap',
        location: 'global',
        optionsRequestedPolicyVersion: 2,
      }),
    ConstructValidationError,
  );
  expect(error).toMatchObject({ where: 'GoogleLookups.getAuthorizationPolicyIamPolicy', field: 'optionsRequestedPolicyVersion', value: 2 });
});

test('unusable credentials throw a CredentialsError, a GoogleApiError with status UNAUTHENTICATED', () => {
  const saved = { ...process.env };
  delete process.env.GOOGLE_OAUTH_ACCESS_TOKEN;
  delete process.env.GOOGLE_CREDENTIALS;
  process.env.GOOGLE_APPLICATION_CREDENTIALS = '/nonexistent/key.json';
  try {
    const error = thrownBy(
      () => new GoogleLookups({ project: 'p-123456' }).getAuthorizationPolicyIamPolicy({ authorizationPolicyId: 'ap', location: 'global' }),
      CredentialsError,
    );
    expect(error).toBeInstanceOf(GoogleApiError);
    expect(error).toMatchObject({ status: 'UNAUTHENTICATED', httpStatus: 0, retryable: false });
    expect(error.message.split('\n')[0]).toContain('/nonexistent/key.json');
  } finally {
    process.env = saved;
  }
});

test('an empty accessToken is refused when the lookups are made, not taken as an empty GOOGLE_OAUTH_ACCESS_TOKEN', () => {
  for (const accessToken of ['', ' ']) {
    const error = thrownBy(() => new GoogleLookups({ project: 'p-123456', accessToken }), ConstructValidationError);
    expect(error).toMatchObject({ where: 'GoogleLookups', field: 'accessToken', value: accessToken });
    expect(error.message).toMatch(/^GoogleLookups: accessToken: is empty; leave it out to use GOOGLE_OAUTH_ACCESS_TOKEN/);
  }
});

test("an answer from Google becomes a GoogleApiError with Google's status and message", () => {
  const error = GoogleApiError.fromResponse(404, { error: { code: 404, status: 'NOT_FOUND', message: 'Resource not found' } });
  expect(error).toBeInstanceOf(GoogleApiError);
  expect(error).toMatchObject({ httpStatus: 404, status: 'NOT_FOUND', apiMessage: 'Resource not found', retryable: false });
});
