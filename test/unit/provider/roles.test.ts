/**
 * Roles in the provider's ValidateResourceConfig, for HCL and for roles
 * Terraform knows only at plan: a roles/… Google does not list is an error
 * where Terraform validates statically and a warning inside a plan or apply
 * walk (as every refusal: an error there would stop terraform destroy); a real
 * role Google refuses on the resource type, or a deprecated one, is a warning.
 * Each diagnostic sits on the attribute that holds the role; Terraform shows it
 * with the resource's address.
 */
import { Diagnostics } from '../../../lib/provider/framework/diagnostics';
import { UNKNOWN, type CtyObject } from '../../../lib/provider/framework/cty';
import { googleIamProvider } from '../../../lib/provider/google-iam-provider';
import { fullValue } from '../../support/provider-harness';

const provider = googleIamProvider({});
const AP = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';
const MJ = 'projects/my-project/locations/us-central1/migrationJobs/orders-db';

/** ValidateResourceConfig as Terraform sends it: statically, or (`providerConfigured`) inside a plan or apply walk. */
function validate(typeName: string, values: CtyObject, providerConfigured = false): Diagnostics {
  const diagnostics = new Diagnostics();
  const resource = provider.resources.find((r) => r.typeName === typeName)!;
  // The IAM security rules have tests of their own (checks.test.ts).
  resource.validate!(fullValue(resource, values), diagnostics, { providerConfigured, providerConfig: { iam_checks: 'off' } });
  return diagnostics;
}

describe('a role Google does not list', () => {
  const values = { name: AP, role: 'roles/networksecurity.viwer', member: 'user:a@example.com' };

  test('statically: an error on the role, naming it and what it may be', () => {
    expect(validate('googleiam_authorization_policy_iam_member', values).all).toEqual([
      {
        severity: 'ERROR',
        summary: 'Unknown IAM role',
        detail:
          "role: not one of Google's basic and predefined roles (2,387, as IAM listed them on 2026-08-22); did you mean roles/networksecurity.viewer? " +
          'A custom role is named projects/{project}/roles/{id} or organizations/{organization}/roles/{id}; ' +
          'a role Google added after 2026-08-22 is accepted once listed in the environment variable CDKTF_GOOGLE_IAM_EXTRA_ROLES (got "roles/networksecurity.viwer")',
        attribute: ['role'],
      },
    ]);
  });

  test('inside a plan or apply walk: the same, as a warning that says the apply refuses it', () => {
    const [diagnostic] = validate('googleiam_authorization_policy_iam_member', values, true).all;
    expect(diagnostic).toMatchObject({ severity: 'WARNING', summary: 'Unknown IAM role', attribute: ['role'] });
    expect(diagnostic.detail).toContain('did you mean roles/networksecurity.viewer?');
    expect(diagnostic.detail).toContain('terraform apply refuses it before sending anything to Google');
  });

  test("in a policy's binding, on a generic resource", () => {
    const diagnostics = validate('googleiam_iam_policy', {
      service: 'secretmanager',
      api_version: 'v1',
      name: 'projects/my-project/secrets/db-password',
      bindings: [
        { role: 'roles/secretmanager.secretAccessor', members: ['user:a@example.com'], condition: null },
        { role: 'roles/datamigration.viewer', members: ['user:a@example.com'], condition: null },
      ],
    });
    expect(diagnostics.all).toEqual([
      expect.objectContaining({
        severity: 'ERROR',
        summary: 'Unknown IAM role',
        attribute: ['bindings', 1, 'role'],
        detail: expect.stringContaining('the nearest that can be granted on projects/*/secrets/* (secretmanager): roles/secretmanager.'),
      }),
    ]);
  });

  test('a role Terraform does not know yet is checked when it does; CDKTF_GOOGLE_IAM_EXTRA_ROLES lets one through', () => {
    expect(validate('googleiam_migration_job_iam_binding', { name: MJ, role: UNKNOWN, members: ['user:a@example.com'] }).all).toEqual([]);
    const added = { name: MJ, role: 'roles/widgets.admin', members: ['user:a@example.com'] };
    expect(validate('googleiam_migration_job_iam_binding', added).hasError).toBe(true);
    const before = process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES;
    process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES = 'roles/widgets.admin';
    try {
      expect(validate('googleiam_migration_job_iam_binding', added).all).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES;
      else process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES = before;
    }
  });
});

describe('a real role Google refuses on the type, or a deprecated one: a warning in a plan (once: not statically too)', () => {
  test('not grantable', () => {
    const values = { name: MJ, role: 'roles/networksecurity.viewer', member: 'user:dba@example.com' };
    expect(validate('googleiam_migration_job_iam_member', values).all).toEqual([]);
    expect(validate('googleiam_migration_job_iam_member', values, true).all).toEqual([
      {
        severity: 'WARNING',
        summary: 'IAM role not grantable on this resource type',
        detail:
          'role: roles/networksecurity.viewer cannot be granted on a migration job: it holds no permission on datamigration.migrationJobs or on what lies under them, ' +
          'and Google answers setIamPolicy with 400 INVALID_ARGUMENT "Role roles/networksecurity.viewer is not supported for this resource." ' +
          'Roles that can be granted there include roles/datamigration.editor, roles/datamigration.admin and roles/iam.securityReviewer (got "roles/networksecurity.viewer")',
        attribute: ['role'],
      },
    ]);
  });

  test('deprecated, in a binding of a generic grant on a project (which takes every role)', () => {
    const diagnostics = validate(
      'googleiam_iam_binding',
      {
        service: 'cloudresourcemanager',
        api_version: 'v3',
        name: 'projects/my-project',
        role: 'roles/servicebroker.operator',
        members: ['user:a@example.com'],
      },
      true,
    );
    expect(diagnostics.all).toEqual([
      expect.objectContaining({
        severity: 'WARNING',
        summary: 'Deprecated IAM role',
        attribute: ['role'],
        detail: expect.stringContaining('Google lists roles/servicebroker.operator as DEPRECATED'),
      }),
    ]);
  });

  test('real roles of the type, basic roles and custom roles: nothing to say', () => {
    for (const role of [
      'roles/datamigration.editor',
      'roles/iam.securityReviewer',
      'roles/viewer',
      'projects/my-project/roles/dbaOnCall',
    ]) {
      expect(validate('googleiam_migration_job_iam_member', { name: MJ, role, member: 'user:a@example.com' }, true).all).toEqual([]);
    }
  });
});
