/**
 * Conditions at synth, as Google's IAM environment types them
 * (lib/iam/cel-checker.ts): a condition Google refuses fails synth with the
 * construct path, the field, the expression with a caret at its line and
 * column, what is wrong and what would be right; one its reference leaves
 * uncertain is a cdktf warning; a Terraform token is left to the provider.
 */
import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import type { IConstruct } from 'constructs';
import { AuthorizationPolicyIamMember, GoogleIamPolicy } from '../../../lib';
import { ConstructValidationError } from '../../../lib/synth/errors';
import { thrownBy } from '../../support/rejection';

const AP = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';
const newStack = () => new TerraformStack(Testing.app(), 'stack');
const warningsOf = (construct: IConstruct): string[] =>
  construct.node.metadata.filter((m) => m.type === '@cdktf/warn').map((m) => String(m.data));
const member = (stack: TerraformStack, expression: string) =>
  new AuthorizationPolicyIamMember(stack, 'Readers', {
    name: AP,
    role: 'roles/networksecurity.viewer',
    member: 'group:api-readers@example.com',
    condition: { title: 'until 2027', expression },
  });
const synthError = (expression: string) => thrownBy(() => member(newStack(), expression), ConstructValidationError).message;

test.each<[string, string]>([
  [
    'request.tme < timestamp("2027-01-01T00:00:00Z")',
    'stack/Readers: condition.expression: not a valid IAM condition: `request` has no attribute `tme` (did you mean `request.time`?): ' +
      'Google documents `request.time` (timestamp), `request.host` (string), `request.path` (string) and `request.auth` (with `request.auth.access_levels`) ' +
      '(https://cloud.google.com/iam/docs/conditions-attribute-reference, "Request attributes (Date/time, URL host/path, Access levels)") at line 1, column 9:\n' +
      '  request.tme < timestamp("2027-01-01T00:00:00Z")\n' +
      '          ^ (got "request.tme < timestamp(\\"2027-01-01T00:00:00Z\\")")',
  ],
  [
    'request.time < "2027-01-01"',
    'stack/Readers: condition.expression: not a valid IAM condition: `request.time` is a timestamp: compare it with `timestamp("2027-01-01T00:00:00Z")`, ' +
      'not a string (CEL has no `<` for a timestamp and a string) at line 1, column 16:\n' +
      '  request.time < "2027-01-01"\n' +
      '                 ^ (got "request.time < \\"2027-01-01\\"")',
  ],
  [
    'request.time < timestamp("2027-13-01T00:00:00Z")',
    'stack/Readers: condition.expression: not a valid IAM condition: `timestamp("2027-13-01T00:00:00Z")` is not a valid timestamp: month 13 does not exist; ' +
      'write e.g. `timestamp("2027-01-01T00:00:00Z")` at line 1, column 26:\n' +
      '  request.time < timestamp("2027-13-01T00:00:00Z")\n' +
      '                           ^ (got "request.time < timestamp(\\"2027-13-01T00:00:00Z\\")")',
  ],
])('synth fails at the construct: %s', (expression, message) => {
  expect(synthError(expression)).toBe(message);
});

test('an api.getAttribute key Google does not document: a warning naming the construct, synth goes on', () => {
  const stack = newStack();
  const expression = "api.getAttribute('example.googleapis.com/key', '') == 'x'";
  const grant = member(stack, expression);
  expect(warningsOf(grant)).toEqual([
    "stack/Readers: condition.expression: Google's reference documents the api.getAttribute() keys `iam.googleapis.com/modifiedGrantsByRole` and " +
      '`storage.googleapis.com/objectListPrefix`, not `example.googleapis.com/key`: a service may provide it, or Google may refuse the condition ' +
      '(https://cloud.google.com/iam/docs/conditions-attribute-reference, "API attributes") at line 1, column 18:\n' +
      `  ${expression}\n` +
      `  ${' '.repeat(17)}^ (got ${JSON.stringify(expression)})`,
  ]);
  Testing.synth(stack);
});

test("a policy names the binding; a documented condition has no warning; a token is the provider's to check", () => {
  const stack = newStack();
  const policy = new GoogleIamPolicy(stack, 'Policy', {
    resource: { service: 'secretmanager', apiVersion: 'v1', name: 'projects/my-project/secrets/db-password' },
    bindings: [
      {
        role: 'roles/secretmanager.viewer',
        members: ['user:a@example.com'],
        condition: { title: 'ok', expression: 'resource.name.endsWith("/db-password")' },
      },
      {
        role: 'roles/secretmanager.secretAccessor',
        members: ['user:a@example.com'],
        condition: { title: 'odd', expression: 'resource.name.upperAscii() == "X"' },
      },
    ],
  });
  expect(warningsOf(policy).map((w) => w.split(': ').slice(0, 3).join(': '))).toEqual([
    "stack/Policy: bindings[1].condition.expression: `upperAscii()` is from cel-go's strings extension, not CEL's standard library",
  ]);
  const tokens = newStack();
  const expression = new TerraformVariable(tokens, 'expression', { type: 'string' }).stringValue;
  expect(warningsOf(member(tokens, expression))).toEqual([]);
});
