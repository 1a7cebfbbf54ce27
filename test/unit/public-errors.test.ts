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
  const error = thrownBy(
    () =>
      new GoogleLookups({ project: 'p-123456', accessToken: ' ' }).getAuthorizationPolicyIamPolicy({
        authorizationPolicyId: 'ap',
        location: 'global',
      }),
    CredentialsError,
  );
  expect(error).toBeInstanceOf(GoogleApiError);
  expect(error).toMatchObject({ status: 'UNAUTHENTICATED', httpStatus: 0, retryable: false });
});

test("an answer from Google becomes a GoogleApiError with Google's status and message", () => {
  const error = GoogleApiError.fromResponse(404, { error: { code: 404, status: 'NOT_FOUND', message: 'Resource not found' } });
  expect(error).toBeInstanceOf(GoogleApiError);
  expect(error).toMatchObject({ httpStatus: 404, status: 'NOT_FOUND', apiMessage: 'Resource not found', retryable: false });
});
