/**
 * Google's second authorization-policy collection, `authzPolicies` (what
 * provider-google's NetworkSecurityAuthzPolicy creates), at synth: the
 * constructs of its row, the "wrong shape" messages that point from either
 * authorization-policy type at the other, and composition with provider-google.
 */
import { TerraformStack, Testing } from 'cdktf';
// By submodule path only: the package index takes seconds and hundreds of MB to load.
import { NetworkSecurityAuthzPolicy } from '@cdktf/provider-google/lib/network-security-authz-policy';
import {
  AuthorizationPolicyIamBinding,
  AuthorizationPolicyIamMember,
  AuthorizationPolicyIamPolicy,
  DataNetworkSecurityAuthzPolicyIamPolicy,
  NetworkSecurityAuthzPolicyIamBinding,
  NetworkSecurityAuthzPolicyIamMember,
  NetworkSecurityAuthzPolicyIamPolicy,
} from '../../../lib';
import { ConstructValidationError } from '../../../lib/synth/errors';
import { thrownBy } from '../../support/rejection';
import { resolveIn } from '../../support/resolve';
import { resourceOf, synthJson } from '../../support/synth-json';

const AUTHZ = 'projects/p-123456/locations/us-central1/authzPolicies/lb-authz';
const AUTHORIZATION = 'projects/p-123456/locations/global/authorizationPolicies/mesh-authz';
const ROLE = 'roles/networksecurity.admin';
const ALICE = 'user:alice@example.com';
const X = { title: 'until-2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };

const newStack = () => new TerraformStack(Testing.app(), 'stack');

test('member, binding and policy declare the googleiam_network_security_authz_policy_iam_* resources with their arguments', () => {
  const stack = newStack();
  const member = new NetworkSecurityAuthzPolicyIamMember(stack, 'M', { name: AUTHZ, role: ROLE, member: ALICE, condition: X });
  const binding = new NetworkSecurityAuthzPolicyIamBinding(stack, 'B', {
    name: AUTHZ,
    role: ROLE,
    members: [ALICE, 'group:g@example.com'],
  });
  const policy = new NetworkSecurityAuthzPolicyIamPolicy(stack, 'P', {
    name: 'projects/p-123456/locations/us-central1/authzPolicies/owned',
    bindings: [{ role: ROLE, members: [ALICE] }],
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }],
  });

  expect(resolveIn(stack, member.fqn)).toMatch(/^\$\{googleiam_network_security_authz_policy_iam_member\./);
  expect(resolveIn(stack, binding.fqn)).toMatch(/^\$\{googleiam_network_security_authz_policy_iam_binding\./);
  expect(resolveIn(stack, policy.fqn)).toMatch(/^\$\{googleiam_network_security_authz_policy_iam_policy\./);
  expect(resourceOf(stack, member)).toEqual({ name: AUTHZ, role: ROLE, member: ALICE, condition: X });
  expect(resourceOf(stack, binding)).toEqual({ name: AUTHZ, role: ROLE, members: [ALICE, 'group:g@example.com'] });
  expect(resourceOf(stack, policy)).toEqual({
    name: 'projects/p-123456/locations/us-central1/authzPolicies/owned',
    bindings: [{ role: ROLE, members: [ALICE] }],
    audit_configs: [{ service: 'allServices', audit_log_configs: [{ log_type: 'DATA_READ' }] }],
  });
  expect([member, binding, policy].map((grant) => grant.project)).toEqual(['p-123456', 'p-123456', 'p-123456']);
});

test('the Output-form lookup reads the googleiam_network_security_authz_policy_iam_policy data source by id and location', () => {
  const stack = newStack();
  const read = new DataNetworkSecurityAuthzPolicyIamPolicy(stack, 'Read', {
    authzPolicyId: 'lb-authz',
    location: 'us-central1',
    project: 'p-123456',
  });
  expect(synthJson(stack).data.googleiam_network_security_authz_policy_iam_policy).toEqual({
    Read: { authz_policy_id: 'lb-authz', location: 'us-central1', project: 'p-123456', options_requested_policy_version: 3 },
  });
  expect(read.authzPolicyId).toBe('lb-authz');
});

describe('a name of the other authorization-policy collection is refused with a message naming the construct that takes it', () => {
  const wrongShape = (build: (stack: TerraformStack) => unknown) => thrownBy(() => build(newStack()), ConstructValidationError).message;

  test.each<[string, string, (stack: TerraformStack) => unknown]>([
    [
      'NetworkSecurityAuthzPolicyIamMember',
      'AuthorizationPolicyIamMember',
      (s) => new NetworkSecurityAuthzPolicyIamMember(s, 'C', { name: AUTHORIZATION, role: ROLE, member: ALICE }),
    ],
    [
      'NetworkSecurityAuthzPolicyIamBinding',
      'AuthorizationPolicyIamBinding',
      (s) => new NetworkSecurityAuthzPolicyIamBinding(s, 'C', { name: AUTHORIZATION, role: ROLE, members: [ALICE] }),
    ],
    [
      'NetworkSecurityAuthzPolicyIamPolicy',
      'AuthorizationPolicyIamPolicy',
      (s) => new NetworkSecurityAuthzPolicyIamPolicy(s, 'C', { name: AUTHORIZATION, bindings: [] }),
    ],
  ])('%s given an authorizationPolicies name points at %s', (_type, taker, build) => {
    expect(wrongShape(build)).toBe(
      `stack/C: name: wrong shape: this is an authorization policy name, which ${taker} takes; ` +
        `expected the authz policy name as projects/{project}/locations/{location}/authzPolicies/{id} (got ${JSON.stringify(AUTHORIZATION)})`,
    );
  });

  test.each<[string, string, (stack: TerraformStack) => unknown]>([
    [
      'AuthorizationPolicyIamMember',
      'NetworkSecurityAuthzPolicyIamMember',
      (s) => new AuthorizationPolicyIamMember(s, 'C', { name: AUTHZ, role: ROLE, member: ALICE }),
    ],
    [
      'AuthorizationPolicyIamBinding',
      'NetworkSecurityAuthzPolicyIamBinding',
      (s) => new AuthorizationPolicyIamBinding(s, 'C', { name: AUTHZ, role: ROLE, members: [ALICE] }),
    ],
    [
      'AuthorizationPolicyIamPolicy',
      'NetworkSecurityAuthzPolicyIamPolicy',
      (s) => new AuthorizationPolicyIamPolicy(s, 'C', { name: AUTHZ, bindings: [] }),
    ],
  ])('%s given an authzPolicies name points at %s', (_type, taker, build) => {
    expect(wrongShape(build)).toBe(
      `stack/C: name: wrong shape: this is an authz policy name, which ${taker} takes; ` +
        `expected the authorization policy name as projects/{project}/locations/{location}/authorizationPolicies/{id} (got ${JSON.stringify(AUTHZ)})`,
    );
  });

  test('a name of any other collection gets the plain message', () => {
    expect(
      wrongShape(
        (s) =>
          new NetworkSecurityAuthzPolicyIamMember(s, 'C', {
            name: 'projects/p-123456/locations/global/addressGroups/ag',
            role: ROLE,
            member: ALICE,
          }),
      ),
    ).toMatch(/^stack\/C: name: wrong shape; expected the authz policy name as /);
  });
});

test("composition: a grant named by provider-google's NetworkSecurityAuthzPolicy refers to its id, the full resource name", () => {
  const stack = newStack();
  const authz = new NetworkSecurityAuthzPolicy(stack, 'LbAuthz', {
    name: 'lb-authz',
    location: 'us-central1',
    action: 'ALLOW',
    target: { loadBalancingScheme: 'INTERNAL_MANAGED' },
  });
  // provider-google's `name` is the short id; `id` is projects/{project}/locations/{location}/authzPolicies/{name}.
  const grant = new NetworkSecurityAuthzPolicyIamMember(stack, 'Viewer', { name: authz.id, role: ROLE, member: ALICE });
  expect(resourceOf(stack, grant)).toEqual({ name: '${google_network_security_authz_policy.LbAuthz.id}', role: ROLE, member: ALICE });
  // Known only at apply: the project is derived in Terraform, the name checked by the provider at plan.
  expect(resolveIn(stack, grant.project)).toMatch(/^\$\{replace\(google_network_security_authz_policy\.LbAuthz\.id, /);
});
