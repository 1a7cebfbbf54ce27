/**
 * Bad input fails at synth, before anything deploys, with the construct path
 * and the field in the message; every documented valid form synthesizes.
 */
import { App, TerraformStack, TerraformVariable } from 'cdktf';
import { AuthorizationPolicyIamMember, MigrationJobIamBinding, type IamCondition } from '../../../lib';

const AP = 'projects/demo-project/locations/global/authorizationPolicies/ap';
const MJ = 'projects/demo-project/locations/us-central1/migrationJobs/mj';
const ROLE = 'roles/networksecurity.viewer';
const OK_CONDITION: IamCondition = { title: 'weekdays', expression: 'request.time.getDayOfWeek("UTC") < 5' };

interface MemberInput {
  name?: string;
  role?: string;
  member?: string;
  condition?: IamCondition;
}
interface BindingInput {
  name?: string;
  role?: string;
  members?: string[];
  condition?: IamCondition;
}

type Build = (stack: TerraformStack) => void;
const member =
  (input: MemberInput): Build =>
  (stack) =>
    new AuthorizationPolicyIamMember(stack, 'Grant', { name: AP, role: ROLE, member: 'user:alice@example.com', ...input });
const binding =
  (input: BindingInput): Build =>
  (stack) =>
    new MigrationJobIamBinding(stack, 'Grant', {
      name: MJ,
      role: 'roles/datamigration.editor',
      members: ['user:alice@example.com'],
      ...input,
    });
const variable = (stack: TerraformStack, id: string) => new TerraformVariable(stack, id, { type: 'string' }).stringValue;
const repeat = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i));
const operators = (n: number) => repeat(n + 1, (i) => `request.path == "/p${i}"`).join(' || ');

/** Constructs and synthesizes (with validation); returns the error message, or undefined if it succeeded. */
function synthError(build: Build): string | undefined {
  const app = new App({ outdir: require('fs').mkdtempSync(require('path').join(require('os').tmpdir(), 'cdktf-google-iam-inputs-')) });
  const stack = new TerraformStack(app, 'stack');
  try {
    build(stack);
    app.synth();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  } finally {
    require('fs').rmSync(app.outdir, { recursive: true, force: true });
  }
}

const MALFORMED: [string, Build, string][] = [
  // principals
  ['empty member', member({ member: '' }), 'member'],
  ['blank member', member({ member: '   ' }), 'member'],
  ['trailing whitespace', member({ member: 'user:alice@example.com ' }), 'member'],
  ['space after the prefix', member({ member: 'user: alice@example.com' }), 'member'],
  ['no prefix', member({ member: 'alice@example.com' }), 'member'],
  ['prefix in the wrong case', member({ member: 'User:alice@example.com' }), 'member'],
  ['prefix in upper case', member({ member: 'GROUP:team@example.com' }), 'member'],
  ['unknown prefix', member({ member: 'users:alice@example.com' }), 'member'],
  ['email without domain', member({ member: 'user:alice' }), 'member'],
  ['email without host', member({ member: 'user:alice@' }), 'member'],
  ['email without local part', member({ member: 'user:@example.com' }), 'member'],
  ['two @ signs', member({ member: 'user:a@b@example.com' }), 'member'],
  ['a comma-separated list', member({ member: 'user:alice@example.com,user:bob@example.com' }), 'member'],
  ['a space-separated list', member({ member: 'user:alice@example.com user:bob@example.com' }), 'member'],
  ['empty group', member({ member: 'group:' }), 'member'],
  ['domain with a space', member({ member: 'domain:example .com' }), 'member'],
  ['domain without a dot', member({ member: 'domain:localhost' }), 'member'],
  ['domain starting with a hyphen', member({ member: 'domain:-example.com' }), 'member'],
  ['service account without domain', member({ member: 'serviceAccount:robot' }), 'member'],
  ['deleted principal as input', member({ member: 'deleted:user:old@example.com?uid=123456789' }), 'member'],
  ['allUsers in the wrong case', member({ member: 'allusers' }), 'member'],
  ['principal:// without a path', member({ member: 'principal://' }), 'member'],
  ['principalSet:// of an unknown service', member({ member: 'principalSet://example.com/anything' }), 'member'],
  ['Kubernetes service account without a KSA', member({ member: 'serviceAccount:demo-project.svc.id.goog[team]' }), 'member'],
  // roles
  ['empty role', member({ role: '' }), 'role'],
  ['bare role name', member({ role: 'viewer' }), 'role'],
  ['roles/ with nothing after it', member({ role: 'roles/' }), 'role'],
  ['Roles/ in the wrong case', member({ role: 'Roles/viewer' }), 'role'],
  ['role with a space', member({ role: 'roles/network security.viewer' }), 'role'],
  ['custom role without project', member({ role: 'projects//roles/custom' }), 'role'],
  ['folder-level custom role', member({ role: 'folders/123/roles/custom' }), 'role'],
  ['role with a trailing slash', member({ role: 'roles/viewer/' }), 'role'],
  // resource names
  ['empty name', member({ name: '' }), 'name'],
  ['bare id as name', member({ name: 'ap' }), 'name'],
  ['name without id', member({ name: 'projects/demo-project/locations/global/authorizationPolicies/' }), 'name'],
  ['name of another collection', member({ name: 'projects/demo-project/locations/global/addressGroups/ag' }), 'name'],
  ['migration job name for an authorization policy', member({ name: MJ }), 'name'],
  ['upper-case project', member({ name: 'projects/Demo-Project/locations/global/authorizationPolicies/ap' }), 'name'],
  ['empty location', member({ name: 'projects/demo-project/locations//authorizationPolicies/ap' }), 'name'],
  ['trailing slash', member({ name: `${AP}/` }), 'name'],
  ['full URL instead of a name', member({ name: `https://networksecurity.googleapis.com/v1/${AP}` }), 'name'],
  ['id with a space', member({ name: 'projects/demo-project/locations/global/authorizationPolicies/my ap' }), 'name'],
  ['authorization policy name for a migration job', binding({ name: AP }), 'name'],
  // conditions
  ['condition without title', member({ condition: { title: '', expression: 'true' } }), 'condition.title'],
  ['condition without expression', member({ condition: { title: 't', expression: '' } }), 'condition.expression'],
  ['CEL syntax error', member({ condition: { title: 't', expression: 'request.time <' } }), 'condition.expression'],
  ['unterminated string', member({ condition: { title: 't', expression: 'request.path == "/a' } }), 'condition.expression'],
  ['dangling operator', member({ condition: { title: 't', expression: 'true &&' } }), 'condition.expression'],
  ['13 logical operators', member({ condition: { title: 't', expression: operators(13) } }), 'condition.expression'],
  ['condition with a basic role', member({ role: 'roles/viewer', condition: OK_CONDITION }), 'condition'],
  ['condition with allUsers', member({ member: 'allUsers', condition: OK_CONDITION }), 'condition'],
  [
    'condition with allAuthenticatedUsers in a binding',
    binding({ members: ['user:a@example.com', 'allAuthenticatedUsers'], condition: OK_CONDITION }),
    'condition',
  ],
  // member lists
  ['empty member list', binding({ members: [] }), 'members'],
  ['one bad member among good ones', binding({ members: ['user:a@example.com', 'bob@example.com'] }), 'members[1]'],
  ['empty string in the list', binding({ members: [''] }), 'members[0]'],
  ['a list inside one entry', binding({ members: ['user:a@example.com;user:b@example.com'] }), 'members[0]'],
  // limits across the app
  ['1,501 principals in one binding', binding({ members: repeat(1501, (i) => `user:u${i}@example.com`) }), 'members'],
  ['251 groups in one binding', binding({ members: repeat(251, (i) => `group:g${i}@example.com`) }), 'members'],
  [
    '1,501 principals over many member grants',
    (stack) =>
      repeat(1501, (i) => `user:u${i}@example.com`).forEach(
        (m, i) => new AuthorizationPolicyIamMember(stack, `Grant${i}`, { name: AP, role: ROLE, member: m }),
      ),
    'member',
  ],
  [
    'two bindings of one role on one job',
    (stack) => {
      new MigrationJobIamBinding(stack, 'Grant', { name: MJ, role: 'roles/datamigration.editor', members: ['user:a@example.com'] });
      new MigrationJobIamBinding(stack, 'Grant2', { name: MJ, role: 'roles/datamigration.editor', members: ['user:b@example.com'] });
    },
    'role',
  ],
  // tokens mixed with literals: what is literal is still checked
  [
    'a literal bad member next to a token',
    (stack) => binding({ members: [variable(stack, 'who'), 'alice@example.com'] })(stack),
    'members[1]',
  ],
  ['a token name with a bad literal role', (stack) => member({ name: variable(stack, 'policy'), role: 'viewer' })(stack), 'role'],
  [
    'a token member with a bad literal condition',
    (stack) => member({ member: variable(stack, 'who'), condition: { title: 't', expression: '((' } })(stack),
    'condition.expression',
  ],
  [
    'a token title with a bad literal expression',
    (stack) => member({ condition: { title: variable(stack, 't'), expression: 'a ||' } })(stack),
    'condition.expression',
  ],
  ['a token role with a bad literal member', (stack) => member({ role: variable(stack, 'role'), member: 'alice' })(stack), 'member'],
];

describe('malformed input fails at synth with the construct path and the field', () => {
  test('the table is large enough to mean something', () => {
    expect(MALFORMED.length).toBeGreaterThanOrEqual(50);
  });

  test.each(MALFORMED)('%s', (_, build, field) => {
    const message = synthError(build);
    expect(message).toBeDefined();
    expect(message).toContain('stack/Grant');
    expect(message).toContain(`${field}:`);
  });
});

const VALID: [string, Build][] = [
  ['user', member({ member: 'user:alice@example.com' })],
  ['user with upper case letters', member({ member: 'user:Alice.Smith@Example.COM' })],
  ['group', member({ member: 'group:admins@example.com' })],
  ['service account', member({ member: 'serviceAccount:robot@demo-project.iam.gserviceaccount.com' })],
  ['Kubernetes service account', member({ member: 'serviceAccount:demo-project.svc.id.goog[team-a/runner]' })],
  ['domain', member({ member: 'domain:example.com' })],
  ['allUsers', member({ member: 'allUsers' })],
  ['allAuthenticatedUsers', member({ member: 'allAuthenticatedUsers' })],
  [
    'workforce pool principal',
    member({ member: 'principal://iam.googleapis.com/locations/global/workforcePools/corp/subject/alice@example.com' }),
  ],
  ['workforce pool group', member({ member: 'principalSet://iam.googleapis.com/locations/global/workforcePools/corp/group/admins' })],
  [
    'workload identity pool subject',
    member({
      member:
        'principal://iam.googleapis.com/projects/123456789/locations/global/workloadIdentityPools/github-ci/subject/repo:org/app:ref:refs/heads/main',
    }),
  ],
  [
    'workload identity pool attribute set',
    member({
      member:
        'principalSet://iam.googleapis.com/projects/123456789/locations/global/workloadIdentityPools/github-ci/attribute.repository/org/app',
    }),
  ],
  [
    'all service accounts of a project',
    member({ member: 'principalSet://cloudresourcemanager.googleapis.com/projects/123456789/type/ServiceAccount' }),
  ],
  ['project custom role', member({ role: 'projects/demo-project/roles/customViewer' })],
  ['organization custom role', member({ role: 'organizations/123456789/roles/customViewer' })],
  ['conditional member', member({ condition: { ...OK_CONDITION, description: 'only on weekdays' } })],
  [
    'multi-line condition with 12 operators',
    member({ condition: { title: 'many', expression: operators(12).replace(/ \|\| /g, ' ||\n') } }),
  ],
  [
    'binding of many kinds',
    binding({
      members: ['user:a@example.com', 'group:g@example.com', 'domain:example.com', 'serviceAccount:s@demo-project.iam.gserviceaccount.com'],
    }),
  ],
  ['conditional binding', binding({ condition: OK_CONDITION })],
  ['binding of 1,500 principals', binding({ members: repeat(1500, (i) => `user:u${i}@example.com`) })],
  [
    'project number and domain-scoped project',
    (stack) => {
      member({ name: 'projects/123456789012/locations/global/authorizationPolicies/ap' })(stack);
      new AuthorizationPolicyIamMember(stack, 'Scoped', {
        name: 'projects/example.com:demo-project/locations/us-central1/authorizationPolicies/ap',
        role: ROLE,
        member: 'user:a@example.com',
      });
    },
  ],
  [
    'tokens everywhere',
    (stack) =>
      member({
        name: variable(stack, 'n'),
        role: variable(stack, 'r'),
        member: variable(stack, 'm'),
        condition: { title: variable(stack, 't'), expression: variable(stack, 'e') },
      })(stack),
  ],
];

test.each(VALID)('valid: %s synthesizes', (_, build) => {
  expect(synthError(build)).toBeUndefined();
});
