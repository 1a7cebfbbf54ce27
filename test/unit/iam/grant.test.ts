import {
  changeEdits,
  describeGrant,
  grantEdits,
  grantedBindings,
  grantId,
  grantKey,
  grantMembers,
  isAuthoritative,
  takesAway,
  type Grant,
} from '../../../lib/iam/grant';

const resource = { service: 'networksecurity', apiVersion: 'v1', name: 'projects/p/locations/global/authorizationPolicies/ap' };
const member: Grant = { mode: 'member', resource, role: 'roles/viewer', member: 'user:a@example.com' };
const binding: Grant = { mode: 'binding', resource, role: 'roles/viewer', members: ['user:a@example.com', 'group:g@example.com'] };
const condition = { title: 'title', description: 'desc', expression: 'true' };
const policy: Grant = {
  mode: 'policy',
  resource,
  bindings: [
    { role: 'roles/networksecurity.admin', members: ['user:a@example.com'] },
    { role: 'roles/networksecurity.editor', members: ['user:b@example.com'], condition },
  ],
};

test.each([
  [member, 'apply', [{ kind: 'addMember', role: 'roles/viewer', member: 'user:a@example.com', condition: undefined }]],
  [member, 'remove', [{ kind: 'removeMember', role: 'roles/viewer', member: 'user:a@example.com', condition: undefined }]],
  [
    binding,
    'apply',
    [{ kind: 'setBinding', role: 'roles/viewer', members: ['user:a@example.com', 'group:g@example.com'], condition: undefined }],
  ],
  [binding, 'remove', [{ kind: 'removeBinding', role: 'roles/viewer', condition: undefined }]],
  [{ ...member, condition }, 'apply', [{ kind: 'addMember', role: 'roles/viewer', member: 'user:a@example.com', condition }]],
  [policy, 'apply', [{ kind: 'replaceBindings', bindings: policy.mode === 'policy' ? policy.bindings : [] }]],
  [
    { ...policy, auditConfigs: [{ service: 'allServices' }] },
    'apply',
    [
      { kind: 'replaceBindings', bindings: policy.mode === 'policy' ? policy.bindings : [] },
      { kind: 'replaceAuditConfigs', auditConfigs: [{ service: 'allServices' }] },
    ],
  ],
  [
    policy,
    'remove',
    [
      { kind: 'removeBinding', role: 'roles/networksecurity.admin', condition: undefined },
      { kind: 'removeBinding', role: 'roles/networksecurity.editor', condition },
    ],
  ],
] as const)('grantEdits(%j, %s)', (grant, action, edits) => {
  expect(grantEdits(grant as Grant, action)).toEqual(edits);
});

test.each([
  [member, 'projects/p/locations/global/authorizationPolicies/ap/roles/viewer/user:a@example.com'],
  [binding, 'projects/p/locations/global/authorizationPolicies/ap/roles/viewer'],
  [policy, 'projects/p/locations/global/authorizationPolicies/ap'],
  [{ ...member, condition }, 'projects/p/locations/global/authorizationPolicies/ap/roles/viewer/user:a@example.com/title/desc/true'],
  [{ ...binding, condition: { title: 't', expression: 'x' } }, 'projects/p/locations/global/authorizationPolicies/ap/roles/viewer/t//x'],
])("grantId(%j) is the Terraform provider's id", (grant, id) => {
  expect(grantId(grant as Grant)).toBe(id);
});

test('describeGrant and grantMembers, for progress lines', () => {
  expect(describeGrant({ ...member, condition } as Grant)).toBe(
    'roles/viewer (condition "title") on projects/p/locations/global/authorizationPolicies/ap',
  );
  expect(describeGrant(policy)).toBe('the IAM policy of projects/p/locations/global/authorizationPolicies/ap');
  expect(grantMembers(policy)).toEqual(['user:a@example.com', 'user:b@example.com']);
});

describe('bulk grants (members) and one principal’s roles (memberRoles)', () => {
  const entry = (m: string, role = 'roles/networksecurity.viewer') => ({ role, member: `user:${m}@example.com` });
  const members = (...entries: { role: string; member: string }[]): Grant => ({ mode: 'members', resource, grants: entries });
  const roles: Grant = {
    mode: 'memberRoles',
    resource,
    member: 'user:a@example.com',
    roles: [{ role: 'roles/networksecurity.viewer' }, { role: 'roles/networksecurity.editor', condition }],
  };

  test('a bulk grant adds each entry and revokes each on delete; an update revokes only the entries that left and grants the rest', () => {
    expect(grantEdits(members(entry('a'), entry('b')), 'apply')).toEqual([
      { kind: 'addMember', ...entry('a') },
      { kind: 'addMember', ...entry('b') },
    ]);
    expect(changeEdits(members(entry('a')), undefined)).toEqual([{ kind: 'removeMember', ...entry('a') }]);
    expect(changeEdits(members(entry('a'), entry('b')), members(entry('B'), entry('c')))).toEqual([
      { kind: 'removeMember', ...entry('a') },
      { kind: 'addMember', ...entry('B') },
      { kind: 'addMember', ...entry('c') },
    ]);
  });

  test("one principal's roles are one authoritative edit; its delete revokes the roles it lists", () => {
    expect(grantEdits(roles, 'apply')).toEqual([
      { kind: 'setMemberRoles', member: 'user:a@example.com', roles: (roles as { roles: unknown }).roles },
    ]);
    expect(grantEdits(roles, 'remove')).toEqual([
      { kind: 'removeMember', member: 'user:a@example.com', role: 'roles/networksecurity.viewer' },
      { kind: 'removeMember', member: 'user:a@example.com', role: 'roles/networksecurity.editor', condition },
    ]);
    // Another principal: what the first held is revoked in the same edits.
    const other = { ...roles, member: 'user:b@example.com' } as Grant;
    expect(changeEdits(roles, other).map((e) => e.kind)).toEqual(['removeMember', 'removeMember', 'setMemberRoles']);
  });

  test('ids, keys, descriptions, bindings and authority', () => {
    expect(grantId(members(entry('a')))).toBe(resource.name);
    expect(grantId(roles)).toBe(`${resource.name}/user:a@example.com`);
    expect(grantKey(members(entry('a'), entry('b')))).toBe(grantKey(members(entry('B'), entry('A'))));
    expect(grantKey(roles)).toBe(grantKey({ ...roles, member: 'user:A@example.com', roles: [] } as Grant));
    expect(describeGrant(members(entry('a'), entry('b')))).toBe(`2 grants on ${resource.name}`);
    expect(describeGrant(roles)).toBe(`the roles of user:a@example.com on ${resource.name}`);
    expect(grantMembers(roles)).toEqual(['user:a@example.com', 'user:a@example.com']);
    expect(grantedBindings(roles)).toEqual([
      { role: 'roles/networksecurity.viewer', members: ['user:a@example.com'] },
      { role: 'roles/networksecurity.editor', members: ['user:a@example.com'], condition },
    ]);
    expect(grantedBindings(members(entry('a')))).toEqual([{ role: 'roles/networksecurity.viewer', members: ['user:a@example.com'] }]);
    expect(grantedBindings(policy)).toEqual((policy as { bindings: unknown }).bindings);
    expect(['member', 'binding', 'policy', 'members', 'memberRoles'].map((m) => isAuthoritative(m as Grant['mode']))).toEqual([
      false,
      true,
      true,
      false,
      true,
    ]);
  });
});

describe('takesAway: whether a refresh to `after` leaves out a principal `before` gives (resources/grant-resource.ts)', () => {
  const bulk = (...grants: { role: string; member: string; condition?: typeof condition }[]): Grant => ({
    mode: 'members',
    resource,
    grants,
  });
  test.each<[string, Grant, Grant | undefined, boolean]>([
    ['gone', member, undefined, true],
    ['the same', member, member, false],
    ['the same principal spelt in another case', member, { ...member, member: 'user:A@Example.com' }, false],
    ['a binding that lost a member', binding, { ...binding, members: ['user:a@example.com'] }, true],
    [
      'a binding that gained one',
      binding,
      { ...binding, members: [...(binding.mode === 'binding' ? binding.members : []), 'user:z@example.com'] },
      false,
    ],
    ['a grant now under a condition only', member, { ...member, condition }, true],
    [
      'a policy one of whose bindings went',
      policy,
      { ...policy, bindings: policy.mode === 'policy' ? policy.bindings.slice(0, 1) : [] },
      true,
    ],
    ['a policy in another order', policy, { ...policy, bindings: policy.mode === 'policy' ? [...policy.bindings].reverse() : [] }, false],
    [
      'a bulk grant with an entry less',
      bulk({ role: 'roles/viewer', member: 'user:a@example.com' }, { role: 'roles/editor', member: 'user:a@example.com' }),
      bulk({ role: 'roles/viewer', member: 'user:a@example.com' }),
      true,
    ],
    ['an empty grant', bulk(), undefined, false],
  ])('%s', (_what, before, after, expected) => {
    expect(takesAway(before, after)).toBe(expected);
  });
});
