/** What a provider process granted on a policy, and what a delete may still take away (granted-here.ts). */
import type { PolicyEdit } from '../../../../lib/iam/policy-edit';
import { GrantedHere } from '../../../../lib/provider/policies/granted-here';

const ROLE = 'roles/networksecurity.authorizationPolicyViewer';
const CONDITION = { title: 'until-2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
const removeMember = (member: string, condition?: typeof CONDITION): PolicyEdit => ({
  kind: 'removeMember',
  role: ROLE,
  member,
  condition,
});

test('a member added here is kept from a delete, compared as Google compares principals, condition and all', () => {
  const granted = new GrantedHere();
  granted.record([{ kind: 'addMember', role: ROLE, member: 'user:Alice@Example.com' }]);
  expect(granted.keep([removeMember('user:alice@example.com')])).toEqual([]);
  // The same member under a condition is another binding: taken away.
  expect(granted.keep([removeMember('user:alice@example.com', CONDITION)])).toEqual([removeMember('user:alice@example.com', CONDITION)]);
  expect(granted.keep([removeMember('user:bob@example.com')])).toEqual([removeMember('user:bob@example.com')]);
});

test('a binding set here is kept from a delete of the binding or of one of its members; a later update supersedes', () => {
  const granted = new GrantedHere();
  granted.record([{ kind: 'setBinding', role: ROLE, members: ['group:a@example.com', 'group:b@example.com'] }]);
  expect(granted.keep([{ kind: 'removeBinding', role: ROLE }])).toEqual([]);
  expect(granted.keep([removeMember('group:a@example.com')])).toEqual([]);
  granted.record([{ kind: 'setBinding', role: ROLE, members: ['group:b@example.com'] }]);
  expect(granted.keep([removeMember('group:a@example.com')])).toEqual([removeMember('group:a@example.com')]);
  granted.record([{ kind: 'removeBinding', role: ROLE }]);
  expect(granted.keep([{ kind: 'removeBinding', role: ROLE }])).toEqual([{ kind: 'removeBinding', role: ROLE }]);
});

test('an update that moves a member away takes it out of what was granted here', () => {
  const granted = new GrantedHere();
  granted.record([{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }]);
  granted.record([removeMember('user:a@example.com'), { kind: 'addMember', role: ROLE, member: 'user:b@example.com' }]);
  expect(granted.keep([removeMember('user:a@example.com')])).toEqual([removeMember('user:a@example.com')]);
  expect(granted.keep([removeMember('user:b@example.com')])).toEqual([]);
});
