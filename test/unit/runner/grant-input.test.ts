import type { Grant } from '../../../lib/iam/grant';
import { parseGrant } from '../../../lib/runner/grant-input';

const resource = { service: 'networksecurity', apiVersion: 'v1', name: 'projects/p/locations/global/authorizationPolicies/ap' };
const member: Grant = {
  mode: 'member',
  resource,
  role: 'roles/viewer',
  member: 'user:a@example.com',
  condition: { title: 't', expression: 'true', description: 'd' },
};
const binding: Grant = {
  mode: 'binding',
  resource: { ...resource, getIamPolicyMethod: 'POST' },
  role: 'roles/viewer',
  members: ['user:a@example.com'],
};
const policy: Grant = {
  mode: 'policy',
  resource,
  bindings: [{ role: 'roles/a.b', members: ['user:a@example.com'] }],
  auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: [] }] }],
};

test.each([member, binding, policy])('a grant round-trips: %j', (grant) => {
  expect(parseGrant(JSON.stringify(grant))).toEqual(grant);
});

test('unknown fields are dropped, so nothing but what synth wrote reaches Google', () => {
  expect(parseGrant(JSON.stringify({ ...member, extra: 1, resource: { ...resource, host: 'evil.example.com' } }))).toEqual(member);
});

test.each([
  [undefined, /CDKTF_GOOGLE_IAM_GRANT is empty/],
  ['{', /not JSON/],
  ['[]', /the grant must be an object/],
  [JSON.stringify({ ...member, mode: 'owner' }), /mode must be member, binding or policy/],
  [JSON.stringify({ ...binding, members: [] }), /members must list at least one principal/],
  [JSON.stringify({ ...binding, members: ['user:a@example.com', 7] }), /members\[1\] must be a non-empty string/],
  [JSON.stringify({ ...member, role: '' }), /role must be a non-empty string/],
  [JSON.stringify({ ...member, condition: { title: 't' } }), /condition.expression must be a non-empty string/],
  [JSON.stringify({ ...member, resource: { ...resource, service: 'evil.example.com/x' } }), /resource.service must be an API name/],
  [JSON.stringify({ ...member, resource: { ...resource, apiVersion: '../../v1' } }), /resource.apiVersion must look like v1/],
  [JSON.stringify({ ...member, resource: { ...resource, name: 'projects/p/../../x' } }), /resource.name must be a resource path/],
  [JSON.stringify({ ...member, resource: { ...resource, name: 'projects/p?alt=media' } }), /resource.name must be a resource path/],
  [JSON.stringify({ ...member, resource: { ...resource, getIamPolicyMethod: 'PUT' } }), /getIamPolicyMethod must be GET, POST, POST_QUERY/],
  [JSON.stringify({ ...policy, bindings: {} }), /bindings must be a list/],
])('a malformed grant is refused before anything is sent: %s', (json, message) => {
  expect(() => parseGrant(json)).toThrow(message);
});

test('a domain-scoped project in a resource name is accepted; a colon in the last segment (a verb) is not', () => {
  const scoped = {
    ...member,
    resource: { ...resource, name: 'projects/example.com:my-project/locations/global/authorizationPolicies/ap' },
  };
  expect(parseGrant(JSON.stringify(scoped))).toEqual(scoped);
  expect(() =>
    parseGrant(
      JSON.stringify({ ...member, resource: { ...resource, name: 'projects/p/locations/global/authorizationPolicies/ap:setIamPolicy' } }),
    ),
  ).toThrow(/resource.name must be a resource path/);
  expect(() => parseGrant(JSON.stringify({ ...member, resource: { ...resource, name: 'projects/p/' } }))).toThrow(
    /resource.name must be a resource path/,
  );
});
