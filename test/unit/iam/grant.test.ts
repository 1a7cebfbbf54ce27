import { describeGrant, grantEdits, grantId, grantKey, grantMembers, policyKey, type Grant } from '../../../lib/iam/grant';

const resource = { service: 'networksecurity', apiVersion: 'v1', name: 'projects/p/locations/global/authorizationPolicies/ap' };
const member: Grant = { mode: 'member', resource, role: 'roles/viewer', member: 'user:a@example.com' };
const binding: Grant = { mode: 'binding', resource, role: 'roles/viewer', members: ['user:a@example.com', 'group:g@example.com'] };
const condition = { title: 'title', description: 'desc', expression: 'true' };
const policy: Grant = {
  mode: 'policy',
  resource,
  bindings: [
    { role: 'roles/a.b', members: ['user:a@example.com'] },
    { role: 'roles/a.c', members: ['user:b@example.com'], condition },
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
      { kind: 'removeBinding', role: 'roles/a.b', condition: undefined },
      { kind: 'removeBinding', role: 'roles/a.c', condition },
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

describe('grantKey: what a grant is, independent of where it is declared', () => {
  test('member, binding and policy keys', () => {
    expect(grantKey(member)).toBe('networksecurity:projects/p/locations/global/authorizationPolicies/ap|roles/viewer|user:a@example.com');
    expect(grantKey(binding)).toBe('networksecurity:projects/p/locations/global/authorizationPolicies/ap|roles/viewer');
    expect(grantKey(policy)).toBe('networksecurity:projects/p/locations/global/authorizationPolicies/ap|policy');
  });

  test("emails compare case-insensitively, as Google does; a binding's members are not part of its key", () => {
    expect(grantKey({ ...member, member: 'user:A@Example.COM' } as Grant)).toBe(grantKey(member));
    expect(grantKey({ ...binding, members: ['user:z@example.com'] } as Grant)).toBe(grantKey(binding));
  });

  test('a condition is part of the key: its title (cleaned) and a digest of all three fields', () => {
    const key = grantKey({ ...member, condition } as Grant);
    expect(key).toMatch(/\|user:a@example\.com\|if:title:[0-9a-f]{12}$/);
    expect(grantKey({ ...member, condition: { ...condition, description: 'other' } } as Grant)).not.toBe(key);
    expect(grantKey({ ...member, condition: { title: 'a "quoted" ${title}', expression: 'true' } } as Grant)).toMatch(
      /\|if:a_quoted_title_:[0-9a-f]{12}$/,
    );
  });

  test('the same grant on another service or resource is another grant', () => {
    expect(grantKey({ ...member, resource: { ...resource, service: 'datamigration' } } as Grant)).not.toBe(grantKey(member));
    expect(policyKey({ ...resource, apiVersion: 'v1beta1' })).toBe(policyKey(resource));
  });
});

test('describeGrant and grantMembers, for progress lines', () => {
  expect(describeGrant({ ...member, condition } as Grant)).toBe(
    'roles/viewer (condition "title") on projects/p/locations/global/authorizationPolicies/ap',
  );
  expect(describeGrant(policy)).toBe('the IAM policy of projects/p/locations/global/authorizationPolicies/ap');
  expect(grantMembers(policy)).toEqual(['user:a@example.com', 'user:b@example.com']);
});
