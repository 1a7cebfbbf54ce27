import { IamValidationError } from '../../../lib/iam/errors';
import type { Grant } from '../../../lib/iam/grant';
import { grantValueErrors, validateGrantValues } from '../../../lib/iam/grant-validation';

const resource = { service: 'networksecurity', apiVersion: 'v1', name: 'projects/p/locations/global/authorizationPolicies/ap' };
const ROLE = 'roles/networksecurity.viewer';
const fieldsOf = (grant: Grant) => grantValueErrors(grant).map((e) => e.field);

test("a grant's role, principal and condition are checked independently: every mistake at once", () => {
  const grant: Grant = {
    mode: 'member',
    resource,
    role: 'networksecurity.viewer',
    member: 'alice@example.com',
    condition: { title: 'soon', expression: 'request.time <' },
  };
  expect(fieldsOf(grant)).toEqual(['role', 'member', 'condition.expression']);
  // validateGrantValues throws the first of them, as before.
  expect(() => validateGrantValues(grant)).toThrow(IamValidationError);
  try {
    validateGrantValues(grant);
  } catch (error) {
    expect((error as IamValidationError).field).toBe('role');
  }
});

test('a valid grant has no errors; one mistake is one error', () => {
  expect(grantValueErrors({ mode: 'member', resource, role: ROLE, member: 'user:a@example.com' })).toEqual([]);
  expect(fieldsOf({ mode: 'binding', resource, role: ROLE, members: ['user:a@example.com', 'bob', 'carol'] })).toEqual([
    'members[1]',
    'members[2]',
  ]);
});

test("a condition's fitness for the role is judged only once the role and the principals are valid", () => {
  const condition = { title: 'x', expression: 'true' };
  // A basic role with a condition: refused, but only when the role itself is otherwise fine.
  expect(fieldsOf({ mode: 'member', resource, role: 'roles/viewer', member: 'user:a@example.com', condition })).toEqual(['condition']);
  expect(fieldsOf({ mode: 'member', resource, role: 'roles/viewer', member: 'alice', condition })).toEqual(['member']);
});

test('every wrong entry of a bulk grant, each naming its entry; a wrong entry is not also compared with the others', () => {
  const grant: Grant = {
    mode: 'members',
    resource,
    grants: [
      { role: ROLE, member: 'bob' },
      { role: ROLE, member: 'user:ok@example.com' },
      { role: 'viewer', member: 'user:carol@example.com' },
      { role: ROLE, member: 'bob' },
    ],
  };
  const errors = grantValueErrors(grant);
  expect(errors.map((e) => e.field)).toEqual(['grants[0].member', 'grants[2].role', 'grants[3].member']);
  expect(errors[1].reason).toContain('(in viewer for user:carol@example.com)');
});

test('an entry listed twice is still refused, naming the first', () => {
  const entry = { role: ROLE, member: 'user:a@example.com' };
  const errors = grantValueErrors({ mode: 'members', resource, grants: [entry, entry] });
  expect(errors.map((e) => [e.field, e.reason])).toEqual([['grants[1].role', expect.stringContaining('grants[0] already lists')]]);
});
