/**
 * What a run declares on one policy, and what its removals still take away
 * (declared-grants.ts): the rule that makes the outcome of an apply
 * independent of the order Terraform sends its changes in.
 */
import { DeclaredGrants } from '../../../lib/iam/declared-grants';
import { applyEdits, type PolicyEdit } from '../../../lib/iam/policy-edit';

const ROLE = 'roles/networksecurity.viewer';
const OTHER_ROLE = 'roles/networksecurity.editor';
const CONDITION = { title: 'until-2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
const removeMember = (member: string, condition?: typeof CONDITION): PolicyEdit => ({
  kind: 'removeMember',
  role: ROLE,
  member,
  condition,
});
const removeBinding = (role = ROLE, condition?: typeof CONDITION): PolicyEdit => ({ kind: 'removeBinding', role, condition });

test('nothing declared: every edit passes as it is', () => {
  const edits: PolicyEdit[] = [
    removeMember('user:a@example.com'),
    removeBinding(),
    { kind: 'addMember', role: ROLE, member: 'user:b@example.com' },
  ];
  expect(new DeclaredGrants().spare(edits)).toEqual(edits);
});

test('a declared member is spared from its removal, compared as Google compares principals; not under another condition', () => {
  const declared = new DeclaredGrants().with([{ kind: 'addMember', role: ROLE, member: 'user:Alice@Example.com' }]);
  expect(declared.spare([removeMember('user:alice@example.com')])).toEqual([]);
  expect(declared.spare([removeMember('user:alice@example.com', CONDITION)])).toEqual([removeMember('user:alice@example.com', CONDITION)]);
  expect(declared.spare([removeMember('user:bob@example.com')])).toEqual([removeMember('user:bob@example.com')]);
});

test("a binding's removal keeps its declared members and takes the others away", () => {
  const declared = new DeclaredGrants().with([{ kind: 'addMember', role: ROLE, member: 'user:m@example.com' }]);
  const [spared] = declared.spare([removeBinding()]);
  expect(spared).toEqual({ ...removeBinding(), except: ['user:m@example.com'] });
  const policy = { etag: 'e', bindings: [{ role: ROLE, members: ['user:m@example.com', 'user:n@example.com'] }] };
  expect(applyEdits(policy, [spared]).bindings).toEqual([{ role: ROLE, members: ['user:m@example.com'] }]);
  // Another role is untouched by what ROLE declares.
  expect(declared.spare([removeBinding(OTHER_ROLE)])).toEqual([removeBinding(OTHER_ROLE)]);
});

test("a binding's and a whole policy's members are declared, each binding by role and condition", () => {
  const declared = new DeclaredGrants().with([
    { kind: 'setBinding', role: ROLE, members: ['group:a@example.com', 'group:b@example.com'] },
    {
      kind: 'replaceBindings',
      bindings: [{ role: OTHER_ROLE, members: ['user:p@example.com'], condition: CONDITION }],
    },
  ]);
  expect(declared.spare([removeMember('group:A@example.com'), removeMember('group:c@example.com')])).toEqual([
    removeMember('group:c@example.com'),
  ]);
  expect(declared.spare([removeBinding(OTHER_ROLE, CONDITION), removeBinding(OTHER_ROLE)])).toEqual([
    { ...removeBinding(OTHER_ROLE, CONDITION), except: ['user:p@example.com'] },
    removeBinding(OTHER_ROLE),
  ]);
});

test('what a run declares only grows: the old values of an update are never a declaration', () => {
  // addr1 updated from u:a to u:b while addr2 creates u:a: the update's removal of u:a spares addr2's grant.
  const declared = new DeclaredGrants();
  declared.declare([{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }]);
  declared.declare([removeMember('user:a@example.com'), { kind: 'addMember', role: ROLE, member: 'user:b@example.com' }]);
  expect(declared.spare([removeMember('user:a@example.com'), removeMember('user:b@example.com')])).toEqual([]);
});

test('with() is a copy: the original does not declare what the copy adds', () => {
  const base = new DeclaredGrants();
  base.with([{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }]);
  expect(base.spare([removeMember('user:a@example.com')])).toEqual([removeMember('user:a@example.com')]);
});

test('audit configs are never declared nor spared', () => {
  const edit: PolicyEdit = { kind: 'replaceAuditConfigs', auditConfigs: [] };
  expect(new DeclaredGrants().with([edit]).spare([edit, removeBinding()])).toEqual([edit, removeBinding()]);
});

test("a principal's roles are declared: the removal of one of them is spared, not of another principal", () => {
  const declared = new DeclaredGrants().with([{ kind: 'setMemberRoles', member: 'user:a@example.com', roles: [{ role: ROLE }] }]);
  expect(declared.spare([removeMember('user:a@example.com'), removeMember('user:b@example.com')])).toEqual([
    removeMember('user:b@example.com'),
  ]);
});
