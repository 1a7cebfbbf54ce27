/**
 * The family at synth level: which resource of the provider each member,
 * binding and policy construct (typed and generic) declares, the generic
 * grants' getIamPolicy method per service, and every synth-time error, each
 * naming the construct path, the field and the value.
 */
import { App, TerraformStack, TerraformVariable, Testing } from 'cdktf';
import {
  AddressGroupIamBinding,
  AddressGroupIamMember,
  AddressGroupIamPolicy,
  AuthorizationPolicyIamBinding,
  AuthorizationPolicyIamMember,
  AuthorizationPolicyIamPolicy,
  GetIamPolicyMethod,
  GoogleIamBinding,
  GoogleIamMember,
  GoogleIamPolicy,
  MigrationJobIamBinding,
  MigrationJobIamMember,
  MigrationJobIamPolicy,
  type GoogleIamResource,
} from '../../../lib';
import { ConstructValidationError } from '../../../lib/synth/errors';
import { resourceOf, synthJson } from '../../support/synth-json';
import { thrownBy } from '../../support/rejection';
import { resolveIn } from '../../support/resolve';

const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const AG = 'projects/p-123456/locations/global/addressGroups/ag';
const MJ = 'projects/p-123456/locations/us-central1/migrationJobs/mj';
const SECRET: GoogleIamResource = { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p-123456/secrets/db-password' };
const PROJECT: GoogleIamResource = { service: 'cloudresourcemanager', apiVersion: 'v3', name: 'projects/p-123456' };
const ROLE = 'roles/networksecurity.viewer';
/** A role Google takes on every resource type these tests grant on (it holds each one's getIamPolicy). */
const REVIEWER = 'roles/iam.securityReviewer';
const X = { title: 'until-2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };

const newStack = () => new TerraformStack(Testing.app(), 'stack');

describe('what each construct declares', () => {
  test('member, binding and policy for the three resource types: one resource of its type each, named by what it grants', () => {
    const stack = newStack();
    const binding = new AuthorizationPolicyIamBinding(stack, 'ApB', { name: AP, role: ROLE, members: ['user:a@example.com'] });
    const policy = new AuthorizationPolicyIamPolicy(stack, 'ApP', {
      name: 'projects/p-123456/locations/global/authorizationPolicies/other',
      bindings: [{ role: ROLE, members: ['user:a@example.com'], condition: { ...X, description: 'd' } }],
      auditConfigs: [
        {
          service: 'allServices',
          auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:quiet@example.com'] }, { logType: 'ADMIN_READ' }],
        },
      ],
    });
    new AddressGroupIamMember(stack, 'AgM', { name: AG, role: 'roles/compute.networkUser', member: 'user:a@example.com' });
    new AddressGroupIamBinding(stack, 'AgB', {
      name: AG,
      role: 'roles/compute.networkViewer',
      members: ['group:g@example.com'],
    });
    new AddressGroupIamPolicy(stack, 'AgP', { name: 'projects/p-123456/locations/global/addressGroups/owned', bindings: [] });
    new MigrationJobIamMember(stack, 'MjM', { name: MJ, role: 'roles/datamigration.editor', member: 'user:a@example.com', condition: X });
    new MigrationJobIamPolicy(stack, 'MjP', {
      name: 'projects/p-123456/locations/us-central1/migrationJobs/owned',
      bindings: [{ role: 'roles/datamigration.admin', members: ['user:b@example.com'] }],
    });

    const resources = synthJson(stack).resource;
    // Each resource is named by what it grants (persisted: a change would replace users' grants), not by its construct.
    expect(Object.fromEntries(Object.entries(resources).map(([type, byName]) => [type, Object.keys(byName as object)]))).toEqual({
      googleiam_authorization_policy_iam_binding: ['ap_networksecurity_viewer_26765173'],
      googleiam_authorization_policy_iam_policy: ['other_policy_ae7b0582'],
      googleiam_address_group_iam_member: ['ag_compute_networkUser_user_a_example_com_2569df97'],
      googleiam_address_group_iam_binding: ['ag_compute_networkViewer_15a4f9a3'],
      googleiam_address_group_iam_policy: ['owned_policy_f03dedb7'],
      googleiam_migration_job_iam_member: ['mj_datamigration_editor_user_a_example_com_until-2030_5017b196'],
      googleiam_migration_job_iam_policy: ['owned_policy_90f5c8b5'],
    });
    expect(resources.googleiam_authorization_policy_iam_policy.other_policy_ae7b0582).toEqual({
      name: 'projects/p-123456/locations/global/authorizationPolicies/other',
      bindings: [{ role: ROLE, members: ['user:a@example.com'], condition: { ...X, description: 'd' } }],
      audit_configs: [
        {
          service: 'allServices',
          audit_log_configs: [{ log_type: 'DATA_READ', exempted_members: ['user:quiet@example.com'] }, { log_type: 'ADMIN_READ' }],
        },
      ],
    });
    // No auditConfigs declared: none in the configuration, so the provider leaves them alone.
    expect(resources.googleiam_migration_job_iam_policy.owned_policy_90f5c8b5).not.toHaveProperty('audit_configs');
    expect(resources.googleiam_address_group_iam_policy.owned_policy_f03dedb7).toEqual({
      name: 'projects/p-123456/locations/global/addressGroups/owned',
      bindings: [],
    });
    expect(resources.googleiam_migration_job_iam_member['mj_datamigration_editor_user_a_example_com_until-2030_5017b196']).toEqual({
      name: MJ,
      role: 'roles/datamigration.editor',
      member: 'user:a@example.com',
      condition: X,
    });
    expect(resources.googleiam_authorization_policy_iam_binding.ap_networksecurity_viewer_26765173).toEqual({
      name: AP,
      role: ROLE,
      members: ['user:a@example.com'],
    });

    expect(policy.project).toBe('p-123456');
    expect(policy.bindings[0].role).toBe(ROLE);
    expect(resolveIn(stack, policy.fqn)).toBe('${googleiam_authorization_policy_iam_policy.other_policy_ae7b0582}');
    expect(resolveIn(stack, policy.id)).toBe('${googleiam_authorization_policy_iam_policy.other_policy_ae7b0582.id}');
    expect(resolveIn(stack, binding.etag)).toBe('${googleiam_authorization_policy_iam_binding.ap_networksecurity_viewer_26765173.etag}');
  });

  test("generic grants: Google's published shape for the collection unless the construct says; a GET Google publishes is left out", () => {
    const stack = newStack();
    const secret = new GoogleIamMember(stack, 'Secret', {
      resource: SECRET,
      role: 'roles/secretmanager.secretAccessor',
      member: 'user:a@example.com',
    });
    const project = new GoogleIamBinding(stack, 'Project', { resource: PROJECT, role: 'roles/browser', members: ['user:a@example.com'] });
    const spanner = new GoogleIamPolicy(stack, 'Spanner', {
      resource: { service: 'spanner', apiVersion: 'v1', name: 'projects/p-123456/instances/i' },
      bindings: [{ role: 'roles/spanner.databaseReader', members: ['user:a@example.com'] }],
    });
    const forcedPost = new GoogleIamMember(stack, 'ForcedPost', {
      resource: { ...SECRET, name: 'projects/p-123456/secrets/other', policyReadMethod: GetIamPolicyMethod.POST },
      role: 'roles/secretmanager.secretAccessor',
      member: 'user:a@example.com',
    });
    const forcedGet = new GoogleIamMember(stack, 'ForcedGet', {
      resource: {
        service: 'cloudresourcemanager',
        apiVersion: 'v1',
        name: 'projects/other-project',
        policyReadMethod: GetIamPolicyMethod.GET,
      },
      role: 'roles/browser',
      member: 'user:a@example.com',
    });

    // POST with the version in the query (Vertex AI, IAM service accounts); one API, two shapes by version (Dataproc).
    const model = new GoogleIamMember(stack, 'Model', {
      resource: { service: 'aiplatform', apiVersion: 'v1', name: 'projects/p-123456/locations/us-central1/models/m' },
      role: 'roles/aiplatform.user',
      member: 'user:a@example.com',
    });
    const account = new GoogleIamMember(stack, 'Account', {
      resource: { service: 'iam', apiVersion: 'v1', name: 'projects/p-123456/serviceAccounts/sa@p-123456.iam.gserviceaccount.com' },
      role: 'roles/iam.serviceAccountUser',
      member: 'user:a@example.com',
    });
    const dataprocV1 = new GoogleIamMember(stack, 'DataprocV1', {
      resource: { service: 'dataproc', apiVersion: 'v1', name: 'projects/p-123456/regions/r/autoscalingPolicies/a' },
      role: 'roles/dataproc.viewer',
      member: 'user:a@example.com',
    });
    const dataprocV1beta2 = new GoogleIamMember(stack, 'DataprocV1beta2', {
      resource: { service: 'dataproc', apiVersion: 'v1beta2', name: 'projects/p-123456/regions/r/workflowTemplates/w' },
      role: 'roles/dataproc.viewer',
      member: 'user:a@example.com',
    });
    expect([model, account, dataprocV1, dataprocV1beta2].map((c) => c.resource.policyReadMethod)).toEqual([
      'POST_QUERY',
      'POST_QUERY',
      'POST',
      'GET',
    ]);

    expect(resourceOf(stack, secret)).toMatchObject({
      service: 'secretmanager',
      api_version: 'v1',
      name: 'projects/p-123456/secrets/db-password',
    });
    // A GET that Google publishes is left out; the provider finds it in the same table.
    expect(resourceOf(stack, secret)).not.toHaveProperty('get_iam_policy_method');
    expect(resourceOf(stack, project)).toMatchObject({ service: 'cloudresourcemanager', api_version: 'v3', get_iam_policy_method: 'POST' });
    expect(resourceOf(stack, spanner).get_iam_policy_method).toBe('POST');
    // An override that departs from what Google publishes travels with the grant.
    expect(resourceOf(stack, forcedPost).get_iam_policy_method).toBe('POST');
    expect(resourceOf(stack, forcedGet).get_iam_policy_method).toBe('GET');
    expect([secret, project, spanner, forcedPost, forcedGet].map((c) => c.resource.policyReadMethod)).toEqual([
      'GET',
      'POST',
      'POST',
      'POST',
      'GET',
    ]);
    expect(project.project).toBe('p-123456');
  });

  test('values only Terraform knows are passed through unvalidated, the project derived in Terraform', () => {
    const stack = newStack();
    const name = new TerraformVariable(stack, 'secret', { type: 'string' }).stringValue;
    const members = new TerraformVariable(stack, 'members', { type: 'list(string)' }).listValue;
    const binding = new GoogleIamBinding(stack, 'B', {
      resource: { service: 'secretmanager', apiVersion: 'v1', name },
      role: 'roles/secretmanager.viewer',
      members,
    });
    new GoogleIamPolicy(stack, 'P', {
      resource: SECRET,
      bindings: [
        { role: 'roles/secretmanager.viewer', members },
        { role: 'roles/secretmanager.secretAccessor', members: ['user:a@example.com'] },
      ],
    });
    const { resource } = synthJson(stack);
    // A grant holding values only Terraform knows is named by its construct's path.
    expect(resource.googleiam_iam_binding.B).toMatchObject({ name: '${var.secret}', members: '${var.members}' });
    expect(resource.googleiam_iam_policy.P.bindings[0]).toEqual({ role: 'roles/secretmanager.viewer', members: '${var.members}' });
    expect(resolveIn(stack, binding.project)).toBe('${replace(var.secret, "/^projects\\/([^/]+)(\\/.*)?$|^.*$/", "$1")}');
  });
});

describe('synth-time validation names the construct path, the field and the value', () => {
  const s = newStack;
  const cases: [string, () => unknown, RegExp][] = [
    // A name of the wrong type, for each construct.
    [
      'AuthorizationPolicyIamBinding name',
      () => new AuthorizationPolicyIamBinding(s(), 'C', { name: MJ, role: ROLE, members: ['user:a@example.com'] }),
      /^stack\/C: name: wrong shape; expected the authorization policy name as projects\/\{project\}\/locations\/\{location\}\/authorizationPolicies\/\{id\} \(got ".*migrationJobs\/mj"\)$/,
    ],
    [
      'AuthorizationPolicyIamPolicy name',
      () => new AuthorizationPolicyIamPolicy(s(), 'C', { name: AG, bindings: [] }),
      /^stack\/C: name: wrong shape; expected the authorization policy name/,
    ],
    [
      'AddressGroupIamMember name',
      () => new AddressGroupIamMember(s(), 'C', { name: AP, role: ROLE, member: 'user:a@example.com' }),
      /^stack\/C: name: wrong shape; expected the address group name as projects\/\{project\}\/locations\/\{location\}\/addressGroups\/\{id\}/,
    ],
    [
      'AddressGroupIamBinding name',
      () =>
        new AddressGroupIamBinding(s(), 'C', {
          name: 'projects/p-123456/locations/global/addressGroups/a b',
          role: ROLE,
          members: ['user:a@example.com'],
        }),
      /^stack\/C: name: bad id segment "a b"/,
    ],
    [
      'AddressGroupIamPolicy name',
      () => new AddressGroupIamPolicy(s(), 'C', { name: 'projects/P/locations/global/addressGroups/ag', bindings: [] }),
      /^stack\/C: name: bad project segment "P"/,
    ],
    [
      'MigrationJobIamMember name',
      () => new MigrationJobIamMember(s(), 'C', { name: AP, role: REVIEWER, member: 'user:a@example.com' }),
      /^stack\/C: name: wrong shape; expected the migration job name as projects\/\{project\}\/locations\/\{location\}\/migrationJobs\/\{id\}/,
    ],
    [
      'MigrationJobIamPolicy name',
      () => new MigrationJobIamPolicy(s(), 'C', { name: 'projects/p-123456/locations/US/migrationJobs/mj', bindings: [] }),
      /^stack\/C: name: bad location segment "US"/,
    ],
    // Roles, members and conditions, as the existing constructs check them.
    [
      'bad role (member)',
      () => new AddressGroupIamMember(s(), 'C', { name: AG, role: 'viewer', member: 'user:a@example.com' }),
      /^stack\/C: role: not a role name; .*\(got "viewer"\)$/,
    ],
    [
      'bad role (generic binding)',
      () => new GoogleIamBinding(s(), 'C', { resource: SECRET, role: 'roles/', members: ['user:a@example.com'] }),
      /^stack\/C: role: not a role name/,
    ],
    [
      'bad member (generic member)',
      () => new GoogleIamMember(s(), 'C', { resource: SECRET, role: 'roles/secretmanager.viewer', member: 'alice@example.com' }),
      /^stack\/C: member: .*\(got "alice@example.com"\)$/,
    ],
    [
      'bad members entry (binding)',
      () => new AuthorizationPolicyIamBinding(s(), 'C', { name: AP, role: ROLE, members: ['user:a@example.com', 'User:b@example.com'] }),
      /^stack\/C: members\[1\]: .*"User:b@example.com"/,
    ],
    [
      'empty members (binding)',
      () => new AddressGroupIamBinding(s(), 'C', { name: AG, role: ROLE, members: [] }),
      /^stack\/C: members: must list at least one principal/,
    ],
    [
      'CEL syntax error (member)',
      () =>
        new MigrationJobIamMember(s(), 'C', {
          name: MJ,
          role: REVIEWER,
          member: 'user:a@example.com',
          condition: { title: 't', expression: 'request.time <' },
        }),
      /^stack\/C: condition\.expression: not valid CEL: .*line 1, column/,
    ],
    [
      'condition without title (generic)',
      () =>
        new GoogleIamMember(s(), 'C', {
          resource: SECRET,
          role: 'roles/secretmanager.viewer',
          member: 'user:a@example.com',
          condition: { title: '', expression: 'true' },
        }),
      /^stack\/C: condition\.title: a title is required/,
    ],
    [
      'condition on a basic role (binding)',
      () => new AuthorizationPolicyIamBinding(s(), 'C', { name: AP, role: 'roles/viewer', members: ['user:a@example.com'], condition: X }),
      /^stack\/C: condition: /,
    ],
    // Policies: every binding as the others are checked, and each binding once.
    [
      'policy: bad role',
      () =>
        new AuthorizationPolicyIamPolicy(s(), 'C', {
          name: AP,
          bindings: [
            { role: ROLE, members: ['user:a@example.com'] },
            { role: 'owner', members: ['user:a@example.com'] },
          ],
        }),
      /^stack\/C: bindings\[1\]\.role: not a role name; .*\(got "owner"\)$/,
    ],
    [
      'policy: bad member',
      () => new AddressGroupIamPolicy(s(), 'C', { name: AG, bindings: [{ role: ROLE, members: ['user:a@example.com', 'group:'] }] }),
      /^stack\/C: bindings\[0\]\.members\[1\]: .*\(got "group:"\)$/,
    ],
    [
      'policy: empty members',
      () => new MigrationJobIamPolicy(s(), 'C', { name: MJ, bindings: [{ role: REVIEWER, members: [] }] }),
      /^stack\/C: bindings\[0\]\.members: must list at least one principal/,
    ],
    [
      'policy: bad condition',
      () =>
        new GoogleIamPolicy(s(), 'C', {
          resource: SECRET,
          bindings: [{ role: REVIEWER, members: ['user:a@example.com'], condition: { title: 't', expression: '(' } }],
        }),
      /^stack\/C: bindings\[0\]\.condition\.expression: not valid CEL/,
    ],
    [
      'policy: condition with allUsers',
      () => new AuthorizationPolicyIamPolicy(s(), 'C', { name: AP, bindings: [{ role: ROLE, members: ['allUsers'], condition: X }] }),
      /^stack\/C: bindings\[0\]\.condition: /,
    ],
    [
      'policy: duplicate unconditional binding',
      () =>
        new AuthorizationPolicyIamPolicy(s(), 'C', {
          name: AP,
          bindings: [
            { role: ROLE, members: ['user:a@example.com'] },
            { role: 'roles/networksecurity.editor', members: ['user:a@example.com'] },
            { role: ROLE, members: ['user:b@example.com'] },
          ],
        }),
      /^stack\/C: bindings\[2\]\.role: bindings\[0\] already declares this binding \(same role, unconditional\); list all its members in one binding \(got "roles\/networksecurity\.viewer"\)$/,
    ],
    [
      'policy: duplicate conditional binding',
      () =>
        new GoogleIamPolicy(s(), 'C', {
          resource: SECRET,
          bindings: [
            { role: REVIEWER, members: ['user:a@example.com'], condition: X },
            { role: REVIEWER, members: ['user:b@example.com'], condition: { ...X } },
          ],
        }),
      /^stack\/C: bindings\[1\]\.role: bindings\[0\] already declares this binding \(same role and condition \("until-2030"\)\)/,
    ],
    // Audit configs.
    [
      'audit: LOG_TYPE_UNSPECIFIED',
      () =>
        new AddressGroupIamPolicy(s(), 'C', {
          name: AG,
          bindings: [],
          auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'LOG_TYPE_UNSPECIFIED' }] }],
        }),
      /^stack\/C: auditConfigs\[0\]\.auditLogConfigs\[0\]\.logType: Google documents it as "should never be this"; expected one of ADMIN_READ, DATA_WRITE, DATA_READ/,
    ],
    [
      'audit: unknown log type',
      () =>
        new GoogleIamPolicy(s(), 'C', {
          resource: SECRET,
          bindings: [],
          auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'ADMIN_READ' }, { logType: 'data_read' }] }],
        }),
      /^stack\/C: auditConfigs\[0\]\.auditLogConfigs\[1\]\.logType: expected one of ADMIN_READ, DATA_WRITE, DATA_READ .*\(got "data_read"\)$/,
    ],
    [
      'audit: log type twice',
      () =>
        new GoogleIamPolicy(s(), 'C', {
          resource: SECRET,
          bindings: [],
          auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }, { logType: 'DATA_READ' }] }],
        }),
      /^stack\/C: auditConfigs\[0\]\.auditLogConfigs\[1\]\.logType: auditConfigs\[0\]\.auditLogConfigs\[0\] already configures DATA_READ/,
    ],
    [
      'audit: bad service',
      () => new MigrationJobIamPolicy(s(), 'C', { name: MJ, bindings: [], auditConfigs: [{ service: 'all', auditLogConfigs: [] }] }),
      /^stack\/C: auditConfigs\[0\]\.service: expected allServices or a service name such as secretmanager\.googleapis\.com \(got "all"\)$/,
    ],
    [
      'audit: service twice',
      () =>
        new MigrationJobIamPolicy(s(), 'C', {
          name: MJ,
          bindings: [],
          auditConfigs: [
            { service: 'allServices', auditLogConfigs: [] },
            { service: 'allServices', auditLogConfigs: [] },
          ],
        }),
      /^stack\/C: auditConfigs\[1\]\.service: auditConfigs\[0\] already configures this service; merge them/,
    ],
    [
      'audit: bad exempted member',
      () =>
        new AuthorizationPolicyIamPolicy(s(), 'C', {
          name: AP,
          bindings: [],
          auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['quiet@example.com'] }] }],
        }),
      /^stack\/C: auditConfigs\[0\]\.auditLogConfigs\[0\]\.exemptedMembers\[0\]: .*\(got "quiet@example.com"\)$/,
    ],
    // The generic resource.
    [
      'resource.service with capitals',
      () =>
        new GoogleIamMember(s(), 'C', { resource: { ...SECRET, service: 'SecretManager' }, role: REVIEWER, member: 'user:a@example.com' }),
      /^stack\/C: resource\.service: expected a Google API name of lowercase letters and digits .*\(got "SecretManager"\)$/,
    ],
    [
      'resource.service as a host name',
      () =>
        new GoogleIamBinding(s(), 'C', {
          resource: { ...SECRET, service: 'secretmanager.googleapis.com' },
          role: REVIEWER,
          members: ['user:a@example.com'],
        }),
      /^stack\/C: resource\.service: expected the API's name without \.googleapis\.com, e.g\. "secretmanager"/,
    ],
    [
      'resource.service with a hyphen',
      () => new GoogleIamPolicy(s(), 'C', { resource: { ...SECRET, service: 'secret-manager' }, bindings: [] }),
      /^stack\/C: resource\.service: expected a Google API name/,
    ],
    [
      'resource.name in no bucket collection (Cloud Storage names a bucket b/<bucket> or projects/_/buckets/<bucket>)',
      () =>
        new GoogleIamMember(s(), 'C', {
          resource: { service: 'storage', apiVersion: 'v1', name: 'projects/p/buckets/logs' },
          role: REVIEWER,
          member: 'user:a@example.com',
        }),
      /^stack\/C: resource\.name: not in any IAM-enabled collection of storage v1 .*b\/\*, b\/\*\/managedFolders\/\*, b\/\*\/o\/\*/,
    ],
    [
      "resource.service without IAM in Google's published API",
      () => new GoogleIamMember(s(), 'C', { resource: { ...SECRET, service: 'nosuchapi' }, role: REVIEWER, member: 'user:a@example.com' }),
      /^stack\/C: resource\.service: not an API with IAM-enabled collections in Google's published API \(googleapis 188\.0\.0\)/,
    ],
    [
      'resource.apiVersion without IAM collections',
      () => new GoogleIamMember(s(), 'C', { resource: { ...SECRET, apiVersion: 'v9' }, role: REVIEWER, member: 'user:a@example.com' }),
      /^stack\/C: resource\.apiVersion: secretmanager has no IAM-enabled collection in version v9 .*its versions with IAM: v1, v1beta1, v1beta2/,
    ],
    [
      'resource.name in no collection of the API version',
      () =>
        new GoogleIamMember(s(), 'C', {
          resource: { ...SECRET, name: 'projects/p/topics/t' },
          role: REVIEWER,
          member: 'user:a@example.com',
        }),
      /^stack\/C: resource\.name: not in any IAM-enabled collection of secretmanager v1 .*projects\/\*\/secrets\/\*.* \(got "projects\/p\/topics\/t"\)$/,
    ],
    [
      'resource.name of a collection whose policy is read-only',
      () =>
        new GoogleIamMember(s(), 'C', {
          resource: { service: 'datacatalog', apiVersion: 'v1', name: 'projects/p/locations/l/entryGroups/g/entries/e' },
          role: REVIEWER,
          member: 'user:a@example.com',
        }),
      /^stack\/C: resource\.name: Google publishes getIamPolicy but no setIamPolicy for datacatalog v1/,
    ],
    [
      'auditConfigs on an API whose setIamPolicy has no updateMask (Pub/Sub)',
      () =>
        new GoogleIamPolicy(s(), 'C', {
          resource: { service: 'pubsub', apiVersion: 'v1', name: 'projects/p/topics/t' },
          bindings: [],
          auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }],
        }),
      /^stack\/C: auditConfigs: in Google's published API \(googleapis 188\.0\.0\) pubsub v1's setIamPolicy has no updateMask/,
    ],
    [
      'auditConfigs on an API whose Policy has none (logging views, though its setIamPolicy has updateMask)',
      () =>
        new GoogleIamPolicy(s(), 'C', {
          resource: { service: 'logging', apiVersion: 'v2', name: 'projects/p/locations/global/buckets/b/views/v' },
          bindings: [],
          auditConfigs: [],
        }),
      /^stack\/C: auditConfigs: .* logging v2's setIamPolicy takes a Policy without auditConfigs: audit configs cannot be set here/,
    ],
    [
      'resource.apiVersion without v',
      () => new GoogleIamMember(s(), 'C', { resource: { ...SECRET, apiVersion: '1' }, role: REVIEWER, member: 'user:a@example.com' }),
      /^stack\/C: resource\.apiVersion: expected a Google API version such as v1, v2, v3, v1beta1, v2alpha or beta \(got "1"\)$/,
    ],
    [
      'resource.apiVersion with a path',
      () => new GoogleIamPolicy(s(), 'C', { resource: { ...SECRET, apiVersion: 'v1/projects' }, bindings: [] }),
      /^stack\/C: resource\.apiVersion: .*\(got "v1\/projects"\)$/,
    ],
    [
      'resource.name empty',
      () => new GoogleIamMember(s(), 'C', { resource: { ...SECRET, name: '' }, role: REVIEWER, member: 'user:a@example.com' }),
      /^stack\/C: resource\.name: a resource name is required; expected the resource's full name .*\(got ""\)$/,
    ],
    [
      'resource.name with ..',
      () =>
        new GoogleIamMember(s(), 'C', {
          resource: { ...SECRET, name: 'projects/p/../../v1/x' },
          role: REVIEWER,
          member: 'user:a@example.com',
        }),
      /^stack\/C: resource\.name: contains a \. or \.\. segment/,
    ],
    [
      'resource.name with ?',
      () =>
        new GoogleIamBinding(s(), 'C', {
          resource: { ...SECRET, name: 'projects/p/secrets/s?alt=media' },
          role: REVIEWER,
          members: ['user:a@example.com'],
        }),
      /^stack\/C: resource\.name: contains "\?", which would change the request URL/,
    ],
    [
      'resource.name with #',
      () =>
        new GoogleIamBinding(s(), 'C', {
          resource: { ...SECRET, name: 'projects/p/secrets/s#x' },
          role: REVIEWER,
          members: ['user:a@example.com'],
        }),
      /^stack\/C: resource\.name: contains "#"/,
    ],
    [
      'resource.name with whitespace',
      () => new GoogleIamPolicy(s(), 'C', { resource: { ...SECRET, name: 'projects/p/secrets/my secret' }, bindings: [] }),
      /^stack\/C: resource\.name: contains whitespace/,
    ],
    [
      'resource.name with a leading slash',
      () => new GoogleIamPolicy(s(), 'C', { resource: { ...SECRET, name: '/projects/p/secrets/s' }, bindings: [] }),
      /^stack\/C: resource\.name: starts or ends with a slash/,
    ],
    [
      'resource.name with a trailing slash',
      () =>
        new GoogleIamMember(s(), 'C', {
          resource: { ...SECRET, name: 'projects/p/secrets/s/' },
          role: REVIEWER,
          member: 'user:a@example.com',
        }),
      /^stack\/C: resource\.name: starts or ends with a slash/,
    ],
    [
      'resource.name with //',
      () =>
        new GoogleIamMember(s(), 'C', {
          resource: { ...SECRET, name: 'projects//secrets/s' },
          role: REVIEWER,
          member: 'user:a@example.com',
        }),
      /^stack\/C: resource\.name: contains an empty segment/,
    ],
    [
      'resource.name with a verb',
      () =>
        new GoogleIamMember(s(), 'C', {
          resource: { ...SECRET, name: 'projects/p/secrets/s:setIamPolicy' },
          role: REVIEWER,
          member: 'user:a@example.com',
        }),
      /^stack\/C: resource\.name: has ":" in its last segment/,
    ],
    [
      'resource.policyReadMethod',
      () =>
        new GoogleIamMember(s(), 'C', {
          resource: { ...SECRET, policyReadMethod: 'PUT' as GetIamPolicyMethod },
          role: REVIEWER,
          member: 'user:a@example.com',
        }),
      /^stack\/C: resource\.policyReadMethod: expected GET, POST, POST_QUERY \(got "PUT"\)$/,
    ],
  ];
  test.each(cases)('%s', (_label, build, message) => {
    expect(thrownBy(build, ConstructValidationError).message).toMatch(message);
  });

  test('the same role under two different conditions is two bindings of one policy', () => {
    expect(
      () =>
        new GoogleIamPolicy(newStack(), 'C', {
          resource: SECRET,
          bindings: [
            { role: REVIEWER, members: ['user:a@example.com'] },
            { role: REVIEWER, members: ['user:a@example.com'], condition: X },
            { role: REVIEWER, members: ['user:b@example.com'], condition: { ...X, title: 'other' } },
          ],
        }),
    ).not.toThrow();
  });
});

describe('app-wide checks', () => {
  function synthErrors(build: (stack: TerraformStack) => void): string {
    const app = new App({ outdir: Testing.app().outdir });
    const stack = new TerraformStack(app, 'stack');
    build(stack);
    try {
      Testing.synth(stack, true);
    } catch (error) {
      return (error as Error).message;
    }
    return '';
  }

  test.each([
    [
      'AddressGroupIamPolicy',
      'AddressGroupIamMember',
      (st: TerraformStack) => {
        new AddressGroupIamPolicy(st, 'Policy', {
          name: AG,
          bindings: [{ role: 'roles/compute.networkViewer', members: ['user:a@example.com'] }],
        });
        new AddressGroupIamMember(st, 'Grant', { name: AG, role: 'roles/compute.networkUser', member: 'user:b@example.com' });
      },
    ],
    [
      'MigrationJobIamPolicy',
      'MigrationJobIamBinding',
      (st: TerraformStack) => {
        new MigrationJobIamBinding(st, 'Grant', { name: MJ, role: 'roles/datamigration.editor', members: ['user:b@example.com'] });
        new MigrationJobIamPolicy(st, 'Policy', { name: MJ, bindings: [] });
      },
    ],
    [
      'GoogleIamPolicy',
      'AuthorizationPolicyIamMember',
      (st: TerraformStack) => {
        // The generic and the typed construct name the same policy: they are checked against each other.
        new GoogleIamPolicy(st, 'Policy', { resource: { service: 'networksecurity', apiVersion: 'v1', name: AP }, bindings: [] });
        new AuthorizationPolicyIamMember(st, 'Grant', { name: AP, role: ROLE, member: 'user:b@example.com' });
      },
    ],
    [
      'AuthorizationPolicyIamPolicy',
      'GoogleIamBinding',
      (st: TerraformStack) => {
        new AuthorizationPolicyIamPolicy(st, 'Policy', { name: AP, bindings: [] });
        new GoogleIamBinding(st, 'Grant', {
          resource: { service: 'networksecurity', apiVersion: 'v1', name: AP },
          role: ROLE,
          members: ['user:b@example.com'],
        });
      },
    ],
  ])('a %s beside a %s on the same resource is refused, naming both paths', (policyType, _grantType, build) => {
    expect(synthErrors(build)).toMatch(
      new RegExp(
        `stack/Grant: name: stack/Policy \\(${policyType}\\) owns the whole policy of this resource, so each apply of one would undo the other; declare the binding in the policy instead`,
      ),
    );
  });

  test('two policy constructs on one resource are refused, naming the first', () => {
    expect(
      synthErrors((st) => {
        new GoogleIamPolicy(st, 'First', { resource: PROJECT, bindings: [] });
        new GoogleIamPolicy(st, 'Second', { resource: { ...PROJECT, apiVersion: 'v1' }, bindings: [] });
      }),
    ).toMatch(/stack\/Second: name: only one IAM policy construct may own a resource's policy; stack\/First already owns it/);
  });

  test('member and binding fights are caught for the new types too; other resources and services are independent', () => {
    const message = synthErrors((st) => {
      new AuthorizationPolicyIamBinding(st, 'Owner', { name: AP, role: ROLE, members: ['user:a@example.com'] });
      new AuthorizationPolicyIamMember(st, 'Member', { name: AP, role: ROLE, member: 'user:b@example.com' });
      new GoogleIamBinding(st, 'SecretA', { resource: SECRET, role: 'roles/secretmanager.viewer', members: ['user:a@example.com'] });
      new GoogleIamBinding(st, 'SecretB', { resource: SECRET, role: 'roles/secretmanager.viewer', members: ['user:b@example.com'] });
      new GoogleIamPolicy(st, 'ProjectPolicy', {
        resource: PROJECT,
        bindings: [{ role: 'roles/browser', members: ['user:a@example.com'] }],
      });
      new GoogleIamMember(st, 'OtherSecret', {
        resource: { ...SECRET, name: 'projects/p-123456/secrets/other' },
        role: 'roles/secretmanager.viewer',
        member: 'user:b@example.com',
      });
    });
    expect(message).toMatch(/stack\/Member: role: stack\/Owner \(AuthorizationPolicyIamBinding\) owns this role's whole member list/);
    expect(message).toMatch(
      /stack\/SecretB: role: only one binding construct may own a role on a resource .*stack\/SecretA already owns it/,
    );
    expect(message).not.toMatch(/ProjectPolicy|OtherSecret/);
  });

  test('the same member grant twice in a stack is refused (deleting either would revoke it); in two stacks it is a warning', () => {
    expect(
      synthErrors((st) => {
        new AuthorizationPolicyIamMember(st, 'First', { name: AP, role: ROLE, member: 'user:Alice@Example.com' });
        new AuthorizationPolicyIamMember(st, 'Second', { name: AP, role: ROLE, member: 'user:alice@example.com' });
      }),
    ).toMatch(/stack\/Second: member: stack\/First grants the same member, role and condition on .*; declare it once/);

    const app = Testing.app();
    const [one, two] = [new TerraformStack(app, 'one'), new TerraformStack(app, 'two')];
    new AuthorizationPolicyIamMember(one, 'Grant', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    const twin = new AuthorizationPolicyIamMember(two, 'Grant', { name: AP, role: ROLE, member: 'user:alice@example.com' });
    expect(twin.node.validate()).toEqual([]);
    expect(twin.node.findAll().flatMap((c) => c.node.metadata.map((m) => m.data))).toContainEqual(
      expect.stringMatching(/one\/Grant grants the same member, role and condition in another stack/),
    );
  });
});

test('a generic construct given no resource (plain JavaScript) reports the field', () => {
  expect(() => new GoogleIamMember(newStack(), 'C', { role: ROLE, member: 'user:a@example.com' } as never)).toThrow(
    /^stack\/C: resource: expected \{ service, apiVersion, name, policyReadMethod\? \} \(got undefined\)$/,
  );
  expect(() => new GoogleIamPolicy(newStack(), 'C', { resource: { service: 'pubsub', apiVersion: 'v1' }, bindings: [] } as never)).toThrow(
    /^stack\/C: resource\.name: a resource name is required/,
  );
});
