import { describeGrant, grantEdits, grantId, grantMembers, type Grant } from '../../../lib/iam/grant';

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
