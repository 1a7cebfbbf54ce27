/**
 * The bulk kinds at synth level: what `*IamMembers` and `*IamMemberRoles`
 * (typed and generic) declare, their addresses, each entry validated and
 * named by index and content with the construct path, and the app-wide
 * checks between them and the other kinds.
 */
import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import {
  AddressGroupIamMembers,
  AuthorizationPolicyIamBinding,
  AuthorizationPolicyIamMember,
  AuthorizationPolicyIamMemberRoles,
  AuthorizationPolicyIamMembers,
  AuthorizationPolicyIamPolicy,
  GoogleIamMemberRoles,
  GoogleIamMembers,
  MigrationJobIamMemberRoles,
} from '../../../lib';
import { ConstructValidationError } from '../../../lib/synth/errors';
import { thrownBy } from '../../support/rejection';
import { resourceOf, synthJson } from '../../support/synth-json';

const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const VIEWER = 'roles/networksecurity.viewer';
const EDITOR = 'roles/networksecurity.editor';
const X = { title: 'until-2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
const user = (n: string) => `user:${n}@example.com`;

const newStack = () => new TerraformStack(Testing.app(), 'stack');
/** What the grants' validations say (the stack's own, about its provider block, left out). */
const errorsOf = (stack: TerraformStack) =>
  stack.node
    .findAll()
    .filter((c) => c !== stack)
    .flatMap((c) => c.node.validate());

describe('what they declare', () => {
  test('a bulk grant is one resource with a grant block per entry, named by the resource and its construct id', () => {
    const stack = newStack();
    const team = new AuthorizationPolicyIamMembers(stack, 'Team', {
      name: AP,
      grants: [
        { role: VIEWER, member: user('a') },
        { role: EDITOR, member: user('b'), condition: X },
      ],
    });
    expect(resourceOf(stack, team)).toMatchObject({
      name: AP,
      grant: [
        { role: VIEWER, member: user('a') },
        { role: EDITOR, member: user('b'), condition: { expression: X.expression, title: X.title } },
      ],
    });
    expect(Object.keys(synthJson(stack).resource.googleiam_authorization_policy_iam_members)).toEqual([
      expect.stringMatching(/^ap_members_Team_[0-9a-f]{8}$/),
    ]);
    expect(team.grants).toHaveLength(2);
  });

  test("a principal's roles are one resource with a grant block per role, named by the resource and the principal", () => {
    const stack = newStack();
    const roles = new AuthorizationPolicyIamMemberRoles(stack, 'Alice', {
      name: AP,
      member: user('alice'),
      roles: [{ role: VIEWER }, { role: EDITOR, condition: X }],
    });
    expect(resourceOf(stack, roles)).toMatchObject({
      name: AP,
      member: user('alice'),
      grant: [{ role: VIEWER }, { role: EDITOR, condition: { title: X.title } }],
    });
    expect(Object.keys(synthJson(stack).resource.googleiam_authorization_policy_iam_member_roles)).toEqual([
      expect.stringMatching(/^ap_roles_user_alice_example_com_[0-9a-f]{8}$/),
    ]);
    // An empty list is a choice: the principal holds no role there.
    const none = new MigrationJobIamMemberRoles(stack, 'Nobody', {
      name: 'projects/p-123456/locations/us-central1/migrationJobs/mj',
      member: user('gone'),
      roles: [],
    });
    expect(resourceOf(stack, none).grant).toEqual([]);
  });

  test('the generic ones reach any IAM-enabled resource, with its API', () => {
    const stack = newStack();
    const resource = { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p-123456/secrets/db' };
    const many = new GoogleIamMembers(stack, 'Readers', {
      resource,
      grants: [{ role: 'roles/secretmanager.secretAccessor', member: user('a') }],
    });
    const roles = new GoogleIamMemberRoles(stack, 'App', {
      resource,
      member: user('app'),
      roles: [{ role: 'roles/secretmanager.viewer' }],
    });
    expect(resourceOf(stack, many)).toMatchObject({ service: 'secretmanager', api_version: 'v1', name: resource.name });
    expect(resourceOf(stack, roles)).toMatchObject({ service: 'secretmanager', member: user('app') });
    expect(errorsOf(stack)).toEqual([]);
  });
});

describe('every entry is validated as a grant of its own, named by index and content', () => {
  test.each<[string, object, RegExp]>([
    [
      'a principal of the wrong case',
      { role: VIEWER, member: 'User:x@example.com' },
      /^stack\/Team: grants\[1\]\.member: type prefixes are case-sensitive.* \(in roles\/networksecurity\.viewer for User:x@example\.com\)/,
    ],
    ['a role that is no role', { role: 'viewer', member: user('x') }, /^stack\/Team: grants\[1\]\.role: not a role name/],
    [
      'a condition on a basic role',
      { role: 'roles/viewer', member: user('x'), condition: X },
      /^stack\/Team: grants\[1\]\.condition: .*basic role.*\(in roles\/viewer for user:x@example\.com under the condition "until-2030"\)/,
    ],
  ])('%s', (_name, entry, message) => {
    const stack = newStack();
    const error = thrownBy(
      () => new AuthorizationPolicyIamMembers(stack, 'Team', { name: AP, grants: [{ role: VIEWER, member: user('a') }, entry as never] }),
      ConstructValidationError,
    );
    expect(error.message).toMatch(message);
  });

  test("a bulk grant of no entries is refused, naming the construct (a principal's empty roles are a choice: see above)", () => {
    const stack = newStack();
    const error = thrownBy(() => new AuthorizationPolicyIamMembers(stack, 'Nobody', { name: AP, grants: [] }), ConstructValidationError);
    expect(error).toMatchObject({ where: 'stack/Nobody', field: 'grants', value: [] });
    expect(error.message).toBe('stack/Nobody: grants: must list at least one grant; to grant nothing, remove the construct (got [])');
  });

  test('an entry listed twice in one construct is refused, naming both', () => {
    const stack = newStack();
    const error = thrownBy(
      () =>
        new AuthorizationPolicyIamMembers(stack, 'Team', {
          name: AP,
          grants: [
            { role: VIEWER, member: user('a') },
            { role: VIEWER, member: 'user:A@example.com' },
          ],
        }),
      ConstructValidationError,
    );
    expect(error.message).toMatch(
      /^stack\/Team: grants\[1\]\.role: grants\[0\] already lists roles\/networksecurity\.viewer for user:A@example\.com; list each once/,
    );
  });

  test("a role unknown to Google in a principal's roles fails synth, naming the entry", () => {
    const stack = newStack();
    const error = thrownBy(
      () =>
        new AuthorizationPolicyIamMemberRoles(stack, 'Alice', {
          name: AP,
          member: user('alice'),
          roles: [{ role: 'roles/networksecurity.viwer' }],
        }),
      ConstructValidationError,
    );
    expect(error.message).toMatch(/^stack\/Alice: roles\[0\]\.role: .*did you mean roles\/networksecurity\.viewer\?/);
  });

  test('values only Terraform knows are left to the provider', () => {
    const stack = newStack();
    const member = new TerraformVariable(stack, 'member', { type: 'string' });
    new AuthorizationPolicyIamMembers(stack, 'Team', { name: AP, grants: [{ role: VIEWER, member: member.stringValue }] });
    expect(errorsOf(stack)).toEqual([]);
  });
});

describe('app-wide checks between the kinds', () => {
  test('an entry that a member grant, or another bulk grant, also declares is refused in one stack, warned of across stacks', () => {
    const stack = newStack();
    new AuthorizationPolicyIamMember(stack, 'One', { name: AP, role: VIEWER, member: user('a') });
    new AuthorizationPolicyIamMembers(stack, 'Team', {
      name: AP,
      grants: [
        { role: EDITOR, member: user('b') },
        { role: VIEWER, member: user('a') },
      ],
    });
    expect(errorsOf(stack)).toEqual([
      expect.stringMatching(/^stack\/Team: grants\[1\]\.member: stack\/One grants the same member, role and condition/),
    ]);

    const app = Testing.app();
    const one = new TerraformStack(app, 'one');
    const two = new TerraformStack(app, 'two');
    new AuthorizationPolicyIamMembers(one, 'Team', { name: AP, grants: [{ role: VIEWER, member: user('a') }] });
    const twin = new AuthorizationPolicyIamMembers(two, 'Team', { name: AP, grants: [{ role: VIEWER, member: user('a') }] });
    expect(twin.node.validate()).toEqual([]);
    expect(twin.node.metadata.map((m) => m.data)).toContainEqual(
      expect.stringMatching(/one\/Team grants the same member, role and condition in another stack/),
    );
  });

  test('an entry on a binding another construct owns, or beside a policy construct, is refused', () => {
    const stack = newStack();
    new AuthorizationPolicyIamBinding(stack, 'Viewers', { name: AP, role: VIEWER, members: [user('b')] });
    new AuthorizationPolicyIamMembers(stack, 'Team', { name: AP, grants: [{ role: VIEWER, member: user('a') }] });
    expect(errorsOf(stack)).toEqual([
      expect.stringMatching(/^stack\/Team: grants\[0\]\.role: stack\/Viewers .* owns this role's whole member list/),
    ]);

    const other = newStack();
    new AuthorizationPolicyIamPolicy(other, 'All', { name: AP, bindings: [{ role: EDITOR, members: [user('b')] }] });
    new AuthorizationPolicyIamMembers(other, 'Team', { name: AP, grants: [{ role: VIEWER, member: user('a') }] });
    expect(errorsOf(other)).toEqual([expect.stringMatching(/^stack\/Team: name: stack\/All .* owns the whole policy/)]);
  });

  test("a principal's roles own the principal on the policy: any other grant naming it there is refused", () => {
    const stack = newStack();
    new AuthorizationPolicyIamMemberRoles(stack, 'Alice', { name: AP, member: user('alice'), roles: [{ role: VIEWER }] });
    new AuthorizationPolicyIamMember(stack, 'Extra', { name: AP, role: EDITOR, member: 'user:Alice@example.com' });
    new AuthorizationPolicyIamBinding(stack, 'Editors', {
      name: AP,
      role: 'roles/networksecurity.admin',
      members: [user('bob'), user('alice')],
    });
    new AuthorizationPolicyIamMemberRoles(stack, 'AliceAgain', { name: AP, member: user('alice'), roles: [] });
    new AddressGroupIamMembers(stack, 'Elsewhere', {
      name: 'projects/p-123456/locations/global/addressGroups/ag',
      grants: [{ role: 'roles/compute.networkUser', member: user('alice') }],
    });
    const errors = errorsOf(stack);
    expect(errors).toHaveLength(3);
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^stack\/Extra: member: stack\/Alice .* owns every role of this principal/),
        expect.stringMatching(/^stack\/Editors: members: stack\/Alice .* owns every role of this principal/),
        expect.stringMatching(/^stack\/AliceAgain: member: stack\/Alice .* owns every role of this principal/),
      ]),
    );
  });

  test("a binding beside a principal's roles holding the binding's role is refused (issue 49: each apply undid the other)", () => {
    const stack = newStack();
    new AuthorizationPolicyIamBinding(stack, 'Viewers', { name: AP, role: VIEWER, members: [user('carol')] });
    new AuthorizationPolicyIamMemberRoles(stack, 'Bob', { name: AP, member: user('bob'), roles: [{ role: VIEWER }, { role: EDITOR }] });
    new AuthorizationPolicyIamMemberRoles(stack, 'Dan', { name: AP, member: user('dan'), roles: [{ role: EDITOR }] });
    expect(errorsOf(stack)).toEqual([
      expect.stringMatching(/^stack\/Bob: member: stack\/Viewers \(AuthorizationPolicyIamBinding\) owns this role's whole member list/),
    ]);
  });

  test('entries count toward the principal limit of their policy', () => {
    const stack = newStack();
    const many = Array.from({ length: 1_501 }, (_, i) => ({ role: VIEWER, member: user(`u${i}`) }));
    new AuthorizationPolicyIamMembers(stack, 'Team', { name: AP, grants: many });
    expect(errorsOf(stack)).toEqual([
      expect.stringMatching(/^stack\/Team: grants: the grants in this app would put 1,501 principals on .*at most 1,500/),
    ]);
  });
});
