import { ContractError } from '../../../lib/contract/contract-error';
import { grantLabel, parseAppliedGrant, parseGrant, parseGrantLabel, serializeGrant } from '../../../lib/contract/grant';
import { TWINS_SEPARATOR } from '../../../lib/contract/runner-env';
import type { Grant } from '../../../lib/iam/grant';

const resource = { service: 'networksecurity', apiVersion: 'v1', name: 'projects/p/locations/global/authorizationPolicies/ap' };
const member: Grant = {
  mode: 'member',
  resource,
  role: 'roles/networksecurity.authorizationPolicyViewer',
  member: 'user:a@example.com',
  condition: { title: 't', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', description: 'd' },
};
const binding: Grant = {
  mode: 'binding',
  resource: { ...resource, getIamPolicyMethod: 'POST' },
  role: 'roles/networksecurity.authorizationPolicyViewer',
  members: ['user:a@example.com', 'group:g@example.com'],
};
const policy: Grant = {
  mode: 'policy',
  resource: { service: 'cloudresourcemanager', apiVersion: 'v1', name: 'projects/p-123456', getIamPolicyMethod: 'POST' },
  bindings: [
    { role: 'roles/browser', members: ['user:a@example.com'] },
    { role: 'roles/browser', members: ['domain:example.com'], condition: { title: 'c', expression: 'true' } },
  ],
  auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:b@example.com'] }] }],
};

function refusal(parse: () => unknown): ContractError {
  try {
    parse();
  } catch (error) {
    if (error instanceof ContractError) return error;
    throw error;
  }
  throw new Error('not refused');
}

test.each([member, binding, policy, { ...member, condition: undefined }])('every grant mode round-trips: %j', (grant) => {
  const json = serializeGrant(grant);
  expect(parseGrant(json)).toEqual(JSON.parse(json));
  expect(parseAppliedGrant(json)).toEqual(JSON.parse(json));
});

test('unknown fields are dropped, so nothing but what synth wrote reaches Google', () => {
  expect(parseGrant(JSON.stringify({ ...member, extra: 1, resource: { ...resource, host: 'evil.example.com' } }))).toEqual(member);
});

test('an absent audit-log exemption list is an empty one', () => {
  const written = { ...policy, auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }] };
  expect((parseGrant(JSON.stringify(written)) as typeof policy).auditConfigs).toEqual([
    { service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: [] }] },
  ]);
});

describe('a malformed grant (not what synth writes) is refused, naming the field and the value, with the remedy: synthesize again', () => {
  test.each([
    ['{', '', /not JSON/],
    ['[]', 'the grant', /expected an object/],
    [JSON.stringify({ ...member, mode: 'owner' }), 'mode', /expected member, binding, policy \(got "owner"\)/],
    [JSON.stringify({ ...binding, members: ['user:a@example.com', 7] }), 'members[1]', /expected a non-empty string \(got 7\)/],
    [JSON.stringify({ ...member, role: '' }), 'role', /expected a non-empty string \(got ""\)/],
    [JSON.stringify({ ...member, condition: { title: 't' } }), 'condition.expression', /expected a non-empty string/],
    [JSON.stringify({ ...policy, bindings: {} }), 'bindings', /expected a list \(got \{\}\)/],
    [JSON.stringify({ ...member, resource: 'r' }), 'resource', /expected an object/],
  ])('%s', (json, field, reason) => {
    const error = refusal(() => parseGrant(json));
    expect(error).toMatchObject({ messageName: 'grant', kind: 'shape', field });
    expect(error.message).toMatch(/^the grant in CDKTF_GOOGLE_IAM_GRANT is malformed: /);
    expect(error.message).toMatch(reason);
    expect(error.message).toMatch(/synthesize the stack again/);
  });
});

describe("a value the constructs refuse is refused with the construct's reason (a value Terraform resolved)", () => {
  test.each([
    [{ ...member, resource: { ...resource, service: 'evil.example.com/x' } }, 'resource.service', /expected a Google API name/],
    [{ ...member, resource: { ...resource, service: 'secretmanager.googleapis.com' } }, 'resource.service', /without \.googleapis\.com/],
    [{ ...member, resource: { ...resource, apiVersion: '../../v1' } }, 'resource.apiVersion', /expected a Google API version/],
    [{ ...member, resource: { ...resource, name: 'projects/p/../../x' } }, 'resource.name', /contains a \. or \.\. segment/],
    [
      { ...member, resource: { ...resource, name: 'projects/p?alt=media' } },
      'resource.name',
      /contains "\?", which would change the request URL/,
    ],
    [{ ...member, resource: { ...resource, name: 'projects/p%2Fx' } }, 'resource.name', /contains "%", which would change the request URL/],
    [{ ...member, resource: { ...resource, name: `${resource.name}:setIamPolicy` } }, 'resource.name', /has ":" in its last segment/],
    [{ ...member, resource: { ...resource, getIamPolicyMethod: 'PUT' } }, 'resource.getIamPolicyMethod', /expected GET, POST, POST_QUERY/],
    [{ ...member, member: 'User:a@example.com' }, 'member', /case-sensitive|prefix/],
    [{ ...member, role: 'viewer' }, 'role', /role/],
    [{ ...binding, members: [] }, 'members', /must list at least one principal/],
    [{ ...member, condition: { title: 't', expression: 'request.time <' } }, 'condition.expression', /./],
    [{ ...member, role: 'roles/owner' }, 'condition', /basic role/],
    [{ ...policy, bindings: [policy.bindings[0], policy.bindings[0]] }, 'bindings[1].role', /already declares this binding/],
    [{ ...policy, auditConfigs: [{ service: 'all', auditLogConfigs: [] }] }, 'auditConfigs[0].service', /expected allServices/],
    [
      { ...member, resource: { ...resource, name: 'projects/p/locations/global/nothings/x' } },
      'resource.name',
      /not in any IAM-enabled collection/,
    ],
  ])('%j', (grant, field, reason) => {
    const error = refusal(() => parseGrant(JSON.stringify(grant)));
    expect(error).toMatchObject({ messageName: 'grant', kind: 'value', field });
    expect(error.message).toMatch(/^the grant in CDKTF_GOOGLE_IAM_GRANT holds a value the constructs would refuse/);
    expect(error.reason).toMatch(reason);
    expect(error.message).toContain(`${field}: ${error.reason} (got `);
  });
});

test('a grant as applied is taken with its values as they are (revoking never depends on stricter checks), its URL parts still checked', () => {
  const applied = { ...member, member: 'User:a@example.com', role: 'viewer' };
  expect(refusal(() => parseGrant(JSON.stringify(applied)))).toMatchObject({ kind: 'value' });
  expect(parseAppliedGrant(JSON.stringify(applied))).toEqual(applied);
  expect(refusal(() => parseAppliedGrant(JSON.stringify({ ...member, resource: { ...resource, name: 'projects/p%2F..' } })))).toMatchObject(
    {
      kind: 'value',
      field: 'resource.name',
    },
  );
});

test('the error names the constructs that sent the grant, when the runner knows them', () => {
  const error = refusal(() => parseGrant(JSON.stringify({ ...member, role: 'viewer' }))).from('AuthorizationPolicyIamMember stack/G');
  expect(error.message).toMatch(/^AuthorizationPolicyIamMember stack\/G: the grant in CDKTF_GOOGLE_IAM_GRANT holds a value/);
});

describe('the label', () => {
  test('round-trips, with and without twins; unreadable twins are dropped, the label kept', () => {
    const label = grantLabel(['AuthorizationPolicyIamMember s/A', 'AuthorizationPolicyIamMember s/B']);
    expect(label).toBe('AuthorizationPolicyIamMember s/A, AuthorizationPolicyIamMember s/B');
    expect(parseGrantLabel(label)).toEqual({ label, twins: [] });
    expect(parseGrantLabel(`${label}${TWINS_SEPARATOR}${JSON.stringify([member, binding])}`)).toEqual({ label, twins: [member, binding] });
    expect(parseGrantLabel(`${label}${TWINS_SEPARATOR}[{"mode":"x"}]`)).toEqual({ label, twins: [] });
    expect(parseGrantLabel(`${label}${TWINS_SEPARATOR}{`)).toEqual({ label, twins: [] });
    expect(parseGrantLabel(undefined)).toEqual({ twins: [] });
  });
});
