/**
 * Roles under the real `terraform`, in HCL (the provider laid out by the
 * package's install command, as docs/hcl.md says): a roles/… Google does not
 * list fails `terraform plan` with the resource's address, the role and the
 * nearest real roles, before anything is written; a role known only at plan (a
 * variable) is a warning there and the apply refuses it before writing; a real
 * role Google refuses on the resource type is a warning at plan, and Google's
 * (the emulator's) 400 at apply.
 */
import * as fs from 'fs';
import * as path from 'path';
import { hclConfigurationsOfThisFile, unwrapped } from '../../support/hcl-configurations';
import { runCommand } from '../../support/terraform';

jest.setTimeout(300_000);

const AP = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';
const MJ = 'projects/my-project/locations/us-central1/migrationJobs/orders-db';

const hcl = hclConfigurationsOfThisFile('roles-plan', [AP, MJ]);
const { configuration, terraform } = hcl;

const member = (type: string, name: string, role: string) => `
resource "googleiam_${type}_iam_member" "readers" {
  name   = "${name}"
  role   = ${role}
  member = "group:api-readers@example.com"
}
`;

test('a role Google does not list: terraform plan fails at the resource, naming the role and the real ones nearest', async () => {
  const dir = await configuration('unknown', member('authorization_policy', AP, '"roles/networksecurity.authorizationPolicyViewer"'));
  const plan = await terraform(dir, 'plan', '-input=false');
  expect(plan.code).toBe(1);
  expect(unwrapped(plan.stderr)).toContain(
    'Error: Unknown IAM role with googleiam_authorization_policy_iam_member.readers, on main.tf line 9, in resource "googleiam_authorization_policy_iam_member" "readers": ' +
      '9: role = "roles/networksecurity.authorizationPolicyViewer" ' +
      "role: not one of Google's basic and predefined roles (2,387, as IAM listed them on 2026-08-22); " +
      'the nearest that can be granted on an authorization policy: roles/networksecurity.viewer, roles/networksecurity.editor and roles/networksecurity.admin. ' +
      'A custom role is named projects/{project}/roles/{id} or organizations/{organization}/roles/{id}; ' +
      'a role Google added after 2026-08-22 is accepted once listed in the environment variable CDKTF_GOOGLE_IAM_EXTRA_ROLES ' +
      '(got "roles/networksecurity.authorizationPolicyViewer")',
  );
  expect(hcl.emulator.writes()).toEqual([]);
  // The plan's output, for the record of what a user sees.
  fs.writeFileSync(path.join(hcl.scratch, 'unknown.txt'), plan.stderr);
});

test('a misspelt role: did you mean; CDKTF_GOOGLE_IAM_EXTRA_ROLES lets a role Google added since through', async () => {
  const dir = await configuration('misspelt', member('authorization_policy', AP, '"roles/networksecurity.viwer"'));
  const plan = await terraform(dir, 'plan', '-input=false');
  expect(plan.code).toBe(1);
  expect(unwrapped(plan.stderr)).toContain('Error: Unknown IAM role with googleiam_authorization_policy_iam_member.readers');
  expect(unwrapped(plan.stderr)).toContain('did you mean roles/networksecurity.viewer?');
  const allowed = await runCommand('terraform', ['plan', '-no-color', '-input=false'], dir, {
    ...hcl.env,
    CDKTF_GOOGLE_IAM_EXTRA_ROLES: 'roles/networksecurity.viwer',
  });
  expect({ code: allowed.code, stderr: allowed.stderr }).toEqual({ code: 0, stderr: '' });
});

test('a role known only at plan (a variable): a warning at plan, refused by the apply before anything is written', async () => {
  const dir = await configuration(
    'from-variable',
    `variable "role" {
  type = string
}
${member('migration_job', MJ, 'var.role')}`,
  );
  const plan = await terraform(dir, 'plan', '-input=false', '-var', 'role=roles/datamigration.viewer');
  expect(plan.code).toBe(0);
  expect(unwrapped(plan.output)).toContain('Warning: Unknown IAM role with googleiam_migration_job_iam_member.readers');
  expect(unwrapped(plan.output)).toContain(
    'the nearest that can be granted on a migration job: roles/datamigration.editor, roles/datamigration.admin and roles/iam.securityReviewer.',
  );
  expect(unwrapped(plan.output)).toContain('terraform apply refuses it before sending anything to Google');
  const apply = await terraform(dir, 'apply', '-auto-approve', '-input=false', '-var', 'role=roles/datamigration.viewer');
  expect(apply.code).toBe(1);
  expect(unwrapped(apply.stderr)).toContain('Error: Unknown IAM role with googleiam_migration_job_iam_member.readers');
  expect(hcl.emulator.writes()).toEqual([]);
});

test("a real role Google refuses on the type: a warning at plan, Google's 400 at apply", async () => {
  const dir = await configuration('not-grantable', member('migration_job', MJ, '"roles/networksecurity.viewer"'));
  const plan = await terraform(dir, 'plan', '-input=false');
  expect(plan.code).toBe(0);
  expect(unwrapped(plan.output)).toContain(
    'Warning: IAM role not grantable on this resource type with googleiam_migration_job_iam_member.readers, on main.tf line 9, in resource "googleiam_migration_job_iam_member" "readers": ' +
      '9: role = "roles/networksecurity.viewer" ' +
      'role: roles/networksecurity.viewer cannot be granted on a migration job: it holds no permission on datamigration.migrationJobs or on what lies under them, ' +
      'and Google answers setIamPolicy with 400 INVALID_ARGUMENT "Role roles/networksecurity.viewer is not supported for this resource." ' +
      'Roles that can be granted there include roles/datamigration.editor, roles/datamigration.admin and roles/iam.securityReviewer (got "roles/networksecurity.viewer")',
  );
  fs.writeFileSync(path.join(hcl.scratch, 'not-grantable.txt'), plan.output);
  const apply = await terraform(dir, 'apply', '-auto-approve', '-input=false');
  expect(apply.code).toBe(1);
  expect(unwrapped(apply.stderr)).toContain('Role roles/networksecurity.viewer is not supported for this resource.');
  expect(hcl.emulator.writes()).toEqual([]);
});

test("a binding made elsewhere with a role Google refuses: the apply's error says it is not the grant's own role", async () => {
  const seeded = 'projects/my-project/locations/us-central1/migrationJobs/seeded';
  // Made before Google refused the role there (or by an API that did not check): every write sends it back.
  hcl.emulator.addResource(seeded, { bindings: [{ role: 'roles/networksecurity.viewer', members: ['user:old@example.com'] }] });
  const dir = await configuration('seeded-refused', member('migration_job', seeded, '"roles/datamigration.editor"'));
  const apply = await terraform(dir, 'apply', '-auto-approve', '-input=false');
  expect(apply.code).toBe(1);
  expect(unwrapped(apply.stderr)).toContain('Role roles/networksecurity.viewer is not supported for this resource. [');
  expect(unwrapped(apply.stderr)).toContain(
    "roles/networksecurity.viewer is not this grant's role: the policy already holds a binding of roles/networksecurity.viewer, made elsewhere, " +
      'and every write sends the whole policy back, so Google refuses every write of it until that binding is changed or removed',
  );
  expect(hcl.emulator.writes(seeded)).toEqual([]);
});
