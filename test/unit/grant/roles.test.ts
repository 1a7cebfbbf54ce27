/**
 * Roles at synth, for every grant construct (member, binding, policy; typed and
 * generic): a roles/… Google does not list fails synth with the construct path
 * and the nearest real roles; a real role Google refuses on the resource type,
 * or a deprecated one, is a cdktf warning; custom roles, tokens and the roles
 * CDKTF_GOOGLE_IAM_EXTRA_ROLES lists pass.
 */
import * as fs from 'fs';
import * as path from 'path';
import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import type { IConstruct } from 'constructs';
import {
  AddressGroupIamBinding,
  AuthorizationPolicyIamMember,
  AuthorizationPolicyIamPolicy,
  GoogleIamBinding,
  GoogleIamMember,
  GoogleIamPolicy,
  MigrationJobIamBinding,
  MigrationJobIamMember,
  NetworkSecurityAuthzPolicyIamMember,
} from '../../../lib';
import { ConstructValidationError } from '../../../lib/synth/errors';
import { thrownBy } from '../../support/rejection';

const AP = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';
const AUTHZ = 'projects/my-project/locations/us-central1/authzPolicies/lb';
const AG = 'projects/my-project/locations/global/addressGroups/office';
const MJ = 'projects/my-project/locations/us-central1/migrationJobs/orders-db';
const SECRET = { service: 'secretmanager', apiVersion: 'v1', name: 'projects/my-project/secrets/db-password' };
const PROJECT = { service: 'cloudresourcemanager', apiVersion: 'v3', name: 'projects/my-project' };
const HOW_TO_GO_ON =
  'A custom role is named projects/{project}/roles/{id} or organizations/{organization}/roles/{id}; ' +
  'a role Google added after 2026-08-22 is accepted once listed in the environment variable CDKTF_GOOGLE_IAM_EXTRA_ROLES';

const newStack = () => new TerraformStack(Testing.app(), 'stack');

/** The warnings cdktf prints for `construct` (its annotations). */
function warningsOf(construct: IConstruct): string[] {
  return construct.node.metadata.filter((m) => m.type === '@cdktf/warn').map((m) => String(m.data));
}

/** The error message a construct built by `build` fails synth with. */
const synthError = (build: () => unknown) => thrownBy(build, ConstructValidationError).message;

describe('a role Google does not list: synth fails, naming the construct, the role and the real roles nearest to it', () => {
  test('the role the README once granted, on an authorization policy', () => {
    expect(
      synthError(
        () =>
          new AuthorizationPolicyIamMember(newStack(), 'Readers', {
            name: AP,
            role: 'roles/networksecurity.authorizationPolicyViewer',
            member: 'group:api-readers@example.com',
          }),
      ),
    ).toBe(
      "stack/Readers: role: not one of Google's basic and predefined roles (2,387, as IAM listed them on 2026-08-22); " +
        'the nearest that can be granted on an authorization policy: roles/networksecurity.viewer, roles/networksecurity.editor and roles/networksecurity.admin. ' +
        `${HOW_TO_GO_ON} (got "roles/networksecurity.authorizationPolicyViewer")`,
    );
  });

  test('a misspelling: did you mean', () => {
    const error = thrownBy(
      () =>
        new AddressGroupIamBinding(newStack(), 'Office', {
          name: AG,
          role: 'roles/networksecurity.viwer',
          members: ['user:a@example.com'],
        }),
      ConstructValidationError,
    );
    expect(error).toMatchObject({ where: 'stack/Office', field: 'role', value: 'roles/networksecurity.viwer' });
    expect(error.message).toBe(
      "stack/Office: role: not one of Google's basic and predefined roles (2,387, as IAM listed them on 2026-08-22); " +
        `did you mean roles/networksecurity.viewer? ${HOW_TO_GO_ON} (got "roles/networksecurity.viwer")`,
    );
  });

  test("in a policy: the binding's field, the real roles of a migration job", () => {
    expect(
      synthError(
        () =>
          new AuthorizationPolicyIamPolicy(newStack(), 'Policy', {
            name: AP,
            bindings: [
              { role: 'roles/networksecurity.admin', members: ['user:a@example.com'] },
              { role: 'roles/networksecurity.authorizationPolicyViewer', members: ['user:b@example.com'] },
            ],
          }),
      ),
    ).toMatch(
      /^stack\/Policy: bindings\[1\]\.role: not one of Google's basic and predefined roles .* the nearest that can be granted on an authorization policy: /,
    );
    expect(
      synthError(
        () =>
          new MigrationJobIamBinding(newStack(), 'Dbas', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] }),
      ),
    ).toContain(
      'the nearest that can be granted on a migration job: roles/datamigration.editor, roles/datamigration.admin and roles/iam.securityReviewer.',
    );
  });

  test("a generic grant: the roles of the resource's published collection", () => {
    expect(
      synthError(
        () =>
          new GoogleIamMember(newStack(), 'Secret', {
            resource: SECRET,
            role: 'roles/secretmanager.secretAcessor',
            member: 'user:a@example.com',
          }),
      ),
    ).toContain('did you mean roles/secretmanager.secretAccessor?');
    expect(
      synthError(
        () =>
          new GoogleIamPolicy(newStack(), 'Secret', {
            resource: SECRET,
            bindings: [{ role: 'roles/networksecurity.viwer', members: ['user:a@example.com'] }],
          }),
      ),
    ).toMatch(/^stack\/Secret: bindings\[0\]\.role: .*; did you mean roles\/networksecurity\.viewer\?/);
  });
});

describe('a real role Google refuses on the resource type, or a deprecated one: a warning', () => {
  test('not grantable: the warning says what Google answers and names roles that can be granted there', () => {
    const stack = newStack();
    const grant = new MigrationJobIamMember(stack, 'Dba', {
      name: MJ,
      role: 'roles/networksecurity.viewer',
      member: 'user:dba@example.com',
    });
    expect(warningsOf(grant)).toEqual([
      'stack/Dba: role: roles/networksecurity.viewer cannot be granted on a migration job: it holds no permission on datamigration.migrationJobs or on what lies under them, ' +
        'and Google answers setIamPolicy with 400 INVALID_ARGUMENT "Role roles/networksecurity.viewer is not supported for this resource." ' +
        'Roles that can be granted there include roles/datamigration.editor, roles/datamigration.admin and roles/iam.securityReviewer (got "roles/networksecurity.viewer")',
    ]);
    Testing.synth(stack); // a warning does not stop synth
  });

  test('in a policy: each binding that Google would refuse, by its field; on a generic resource too', () => {
    const policy = new AuthorizationPolicyIamPolicy(newStack(), 'Policy', {
      name: AP,
      bindings: [
        { role: 'roles/datamigration.admin', members: ['user:a@example.com'] },
        { role: 'roles/networksecurity.viewer', members: ['user:b@example.com'] },
        { role: 'roles/secretmanager.secretAccessor', members: ['user:c@example.com'] },
      ],
    });
    expect(warningsOf(policy).map((w) => w.split(':').slice(0, 2).join(':'))).toEqual([
      'stack/Policy: bindings[0].role',
      'stack/Policy: bindings[2].role',
    ]);
    const secret = new GoogleIamBinding(newStack(), 'Secret', {
      resource: SECRET,
      role: 'roles/pubsub.publisher',
      members: ['user:a@example.com'],
    });
    expect(warningsOf(secret)).toEqual([
      expect.stringContaining(
        'stack/Secret: role: roles/pubsub.publisher cannot be granted on projects/*/secrets/* (secretmanager): it holds no permission on secretmanager.secrets',
      ),
    ]);
  });

  test('a deprecated role', () => {
    const grant = new GoogleIamMember(newStack(), 'Broker', {
      resource: PROJECT,
      role: 'roles/servicebroker.admin',
      member: 'user:a@example.com',
    });
    expect(warningsOf(grant)).toEqual([
      'stack/Broker: role: Google lists roles/servicebroker.admin as DEPRECATED (roles as IAM listed them on 2026-08-22): it may stop working; grant a current role instead (got "roles/servicebroker.admin")',
    ]);
  });
});

describe('what passes with no word', () => {
  test('the real roles of each typed type, basic roles, and any role on a project', () => {
    const stack = newStack();
    const grants = [
      new AuthorizationPolicyIamMember(stack, 'Ap', { name: AP, role: 'roles/networksecurity.viewer', member: 'user:a@example.com' }),
      new NetworkSecurityAuthzPolicyIamMember(stack, 'Authz', {
        name: AUTHZ,
        role: 'roles/compute.networkViewer',
        member: 'user:a@example.com',
      }),
      new AddressGroupIamBinding(stack, 'Ag', { name: AG, role: 'roles/compute.networkUser', members: ['user:a@example.com'] }),
      new MigrationJobIamMember(stack, 'Mj', { name: MJ, role: 'roles/datamigration.editor', member: 'user:a@example.com' }),
      new MigrationJobIamMember(stack, 'Owner', { name: MJ, role: 'roles/owner', member: 'user:b@example.com' }),
      new GoogleIamMember(stack, 'Project', { resource: PROJECT, role: 'roles/datamigration.admin', member: 'user:a@example.com' }),
    ];
    for (const grant of grants) expect(warningsOf(grant)).toEqual([]);
  });

  test('custom roles, roles Terraform knows only at apply, and roles CDKTF_GOOGLE_IAM_EXTRA_ROLES lists', () => {
    const stack = newStack();
    const role = new TerraformVariable(stack, 'role', { type: 'string' }).stringValue;
    const grants = [
      new AuthorizationPolicyIamMember(stack, 'Project', {
        name: AP,
        role: 'projects/my-project/roles/apiReader',
        member: 'user:a@example.com',
      }),
      new AuthorizationPolicyIamMember(stack, 'Org', {
        name: AP,
        role: 'organizations/123456789012/roles/apiReader',
        member: 'user:a@example.com',
      }),
      new AuthorizationPolicyIamMember(stack, 'Token', { name: AP, role, member: 'user:a@example.com' }),
    ];
    for (const grant of grants) expect(warningsOf(grant)).toEqual([]);

    const added = () =>
      new AuthorizationPolicyIamMember(newStack(), 'New', { name: AP, role: 'roles/widgets.admin', member: 'user:a@example.com' });
    expect(synthError(added)).toContain('(got "roles/widgets.admin")');
    const before = process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES;
    process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES = 'roles/gadgets.viewer, roles/widgets.admin';
    try {
      expect(warningsOf(added())).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES;
      else process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES = before;
    }
  });

  test("a warning reaches the manifest cdktf-cli prints warnings from, at the grant's path", () => {
    const stack = newStack();
    new MigrationJobIamMember(stack, 'Dba', { name: MJ, role: 'roles/compute.networkViewer', member: 'user:dba@example.com' });
    const outdir = Testing.fullSynth(stack);
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, 'manifest.json'), 'utf8')) as {
      stacks: Record<string, { annotations: { constructPath: string; level: string; message: string }[] }>;
    };
    expect(manifest.stacks.stack.annotations).toEqual([
      {
        constructPath: 'stack/Dba',
        level: '@cdktf/warn',
        message: expect.stringMatching(/^stack\/Dba: role: roles\/compute\.networkViewer cannot be granted on a migration job: /),
      },
    ]);
  });
});
