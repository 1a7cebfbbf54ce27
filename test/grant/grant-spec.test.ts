import { describeGrant, grantEdit, grantId, parseGrantSpec, type GrantSpec } from '../../lib/grant/grant-spec';

const member: GrantSpec = { type: 'networksecurity.authorizationPolicies', mode: 'member', resource: 'projects/p/locations/global/authorizationPolicies/ap', role: 'roles/viewer', members: ['user:a@example.com'] };
const binding: GrantSpec = { ...member, type: 'datamigration.migrationJobs', mode: 'binding', members: ['user:a@example.com', 'group:g@example.com'] };
const condition = { title: 'title', description: 'desc', expression: 'true' };

test.each([
  [member, 'apply', { kind: 'addMember', role: 'roles/viewer', member: 'user:a@example.com', condition: undefined }],
  [member, 'remove', { kind: 'removeMember', role: 'roles/viewer', member: 'user:a@example.com', condition: undefined }],
  [binding, 'apply', { kind: 'setBinding', role: 'roles/viewer', members: binding.members, condition: undefined }],
  [binding, 'remove', { kind: 'removeBinding', role: 'roles/viewer', condition: undefined }],
  [{ ...member, condition }, 'apply', { kind: 'addMember', role: 'roles/viewer', member: 'user:a@example.com', condition }],
] as const)('grantEdit(%j, %s)', (spec, action, edit) => {
  expect(grantEdit(spec, action)).toEqual(edit);
});

test.each([
  [member, 'projects/p/locations/global/authorizationPolicies/ap/roles/viewer/user:a@example.com'],
  [binding, 'projects/p/locations/global/authorizationPolicies/ap/roles/viewer'],
  [{ ...member, condition }, 'projects/p/locations/global/authorizationPolicies/ap/roles/viewer/user:a@example.com/title/desc/true'],
  [{ ...binding, condition: { title: 't', expression: 'x' } }, 'projects/p/locations/global/authorizationPolicies/ap/roles/viewer/t//x'],
])('grantId(%j)', (spec, id) => {
  expect(grantId(spec)).toBe(id);
});

test('describeGrant names the role, the condition and the resource', () => {
  expect(describeGrant({ ...member, condition })).toBe('roles/viewer (condition "title") on projects/p/locations/global/authorizationPolicies/ap');
});

test.each([
  [undefined, /environment variable CDKTF_GOOGLE_IAM_GRANT is empty/],
  ['{', /not JSON/],
  ['[]', /malformed/],
  [JSON.stringify({ ...member, mode: 'owner' }), /malformed/],
  [JSON.stringify({ ...member, members: [] }), /malformed/],
  [JSON.stringify({ ...member, members: ['a', 'b'] }), /malformed/],
  [JSON.stringify({ ...member, role: '' }), /malformed/],
])('parseGrantSpec rejects %s', (json, message) => {
  expect(() => parseGrantSpec(json)).toThrow(message);
});

test('parseGrantSpec round-trips a spec', () => {
  expect(parseGrantSpec(JSON.stringify(binding))).toEqual(binding);
});
