/**
 * examples/hcl/main.tf, as an HCL user runs it (docs/hcl.md): the provider laid
 * out in the configuration's folder by the package's install command, then the
 * real `terraform` offline with no CLI configuration: init, plan (a member, a
 * conditional member with its `condition { ... }` block, a binding, a policy
 * and an import), apply, a clean plan, destroy; each step checked on the
 * emulator's write history. And an import ID with a misspelt role, as
 * Terraform prints its error.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { providerPackage } from '../../../lib/install';
import { GoogleApiEmulator } from '../../../lib/testing';
import { membersIn } from '../../support/write-history';
import { runCommand } from '../../support/terraform';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..', '..');
const EXAMPLE = path.join(ROOT, 'examples', 'hcl');
/** What `npx cdktf-google-iam-provider` runs (package.json's bin). */
const INSTALL_COMMAND = path.join(ROOT, 'lib', 'install', 'cli.js');

const AP = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';
const MJ = 'projects/my-project/locations/us-central1/migrationJobs/orders-db';
const AG = 'projects/my-project/locations/global/addressGroups/office-ranges';
const PLATFORM = { role: 'roles/networksecurity.admin', members: ['user:platform-team@example.com'] };
const DBA = { role: 'projects/my-project/roles/dbaOnCall', members: ['user:dba@example.com'] };
const VIEWER = 'roles/networksecurity.viewer';
const ADMIN = 'roles/networksecurity.admin';
const UNTIL_NEW_YEAR = {
  expression: 'request.time < timestamp("2027-01-01T00:00:00Z")',
  title: 'until-new-year',
  description: 'Temporary admin for the December freeze',
};

let emulator: GoogleApiEmulator;
let scratch: string;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'hcl-example-'));
  fs.writeFileSync(path.join(scratch, 'empty.tfrc'), '');
  env = { ...emulator.env(), TF_CLI_CONFIG_FILE: path.join(scratch, 'empty.tfrc') };
});
afterAll(async () => {
  await emulator.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A copy of the example in a folder of its own, with the provider laid out as docs/hcl.md says. */
async function configuration(name: string, edit: (text: string) => string = (text) => text): Promise<string> {
  const dir = path.join(scratch, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'main.tf'), edit(fs.readFileSync(path.join(EXAMPLE, 'main.tf'), 'utf8')));
  const installed = await runCommand(process.execPath, [INSTALL_COMMAND, 'install', '.'], dir, {});
  expect({ code: installed.code, stderr: installed.stderr }).toEqual({ code: 0, stderr: '' });
  return dir;
}

const terraform = (dir: string, ...args: string[]) => runCommand('terraform', [args[0], '-no-color', ...args.slice(1)], dir, env);

test('init offline, plan, apply, a clean plan, destroy: each write keeps what the configuration does not own', async () => {
  emulator.addResource(AP, { bindings: [PLATFORM] });
  emulator.addResource(MJ, { bindings: [DBA] });
  emulator.addResource(AG);
  emulator.clearWrites();
  const dir = await configuration('example');

  const init = await terraform(dir, 'init', '-input=false');
  expect(init.output).toContain(`Installed cdktf-google-iam/googleiam v${providerPackage().version} (unauthenticated)`);
  expect(init.output).not.toContain('Warning');

  const plan = await terraform(dir, 'plan', '-input=false', '-detailed-exitcode');
  expect(plan.code).toBe(2);
  expect(plan.output).toContain('Plan: 1 to import, 6 to add, 0 to change, 0 to destroy.');
  expect(plan.output).toMatch(
    /\+ grant \{\n\s+\+ member = "user:second-line@example.com"\n\s+\+ role   = "roles\/networksecurity.editor"\n\n\s+\+ condition \{/,
  );
  expect(plan.output).toContain('googleiam_migration_job_iam_member.dba_on_call will be imported');
  expect(plan.output).toMatch(/\+ condition \{\n\s+\+ description = "Temporary admin for the December freeze"/);
  expect(emulator.writes()).toEqual([]);

  const apply = await terraform(dir, 'apply', '-auto-approve', '-input=false');
  expect({ code: apply.code, summary: /Apply complete!.*/.exec(apply.output)?.[0] ?? apply.output }).toEqual({
    code: 0,
    summary: 'Apply complete! Resources: 1 imported, 6 added, 0 changed, 0 destroyed.',
  });
  // The authorization policy: both member grants, the conditional one with its condition, and the bulk grants; the
  // platform team's binding kept in every write.
  const apWrites = emulator.writes(AP);
  expect(apWrites.every((w) => membersIn(w, ADMIN).includes('user:platform-team@example.com'))).toBe(true);
  const apBindings = emulator.policy(AP).bindings ?? [];
  expect(apBindings).toHaveLength(4);
  expect(apBindings).toEqual(
    expect.arrayContaining([
      PLATFORM,
      { role: ADMIN, members: ['user:oncall@example.com'], condition: UNTIL_NEW_YEAR },
      { role: VIEWER, members: expect.arrayContaining(['group:api-readers@example.com', 'user:first-line@example.com']) },
      {
        role: 'roles/networksecurity.editor',
        members: ['user:second-line@example.com'],
        condition: { title: 'rota-2026', expression: UNTIL_NEW_YEAR.expression },
      },
    ]),
  );
  // The migration job: the binding written, the imported member (the dba's grant) left as it was.
  expect(emulator.writes(MJ).every((w) => membersIn(w, DBA.role).includes('user:dba@example.com'))).toBe(true);
  expect(emulator.policy(MJ).bindings).toEqual(
    expect.arrayContaining([
      DBA,
      {
        role: 'roles/datamigration.editor',
        members: ['serviceAccount:reporting@my-project.iam.gserviceaccount.com', 'user:alice@example.com'],
      },
      { role: 'roles/datamigration.admin', members: ['serviceAccount:migration-bot@my-project.iam.gserviceaccount.com'] },
    ]),
  );
  expect(emulator.policy(MJ).bindings).toHaveLength(3);
  expect(emulator.writes(AG).map((w) => w.policy.bindings)).toEqual([
    [{ role: 'roles/compute.networkUser', members: ['group:network-admins@example.com'] }],
  ]);
  expect(apply.output).toMatch(/internal_apis_roles = \[\n\s+"roles\/networksecurity\.admin",/);

  const writesAfterApply = emulator.writes().length;
  const clean = await terraform(dir, 'plan', '-input=false', '-detailed-exitcode');
  expect({ code: clean.code, output: clean.code === 0 ? '' : clean.output }).toEqual({ code: 0, output: '' });
  expect(clean.output).toContain('No changes.');
  expect(emulator.writes()).toHaveLength(writesAfterApply);

  const destroy = await terraform(dir, 'destroy', '-auto-approve', '-input=false');
  expect(/Destroy complete!.*/.exec(destroy.output)?.[0]).toBe('Destroy complete! Resources: 7 destroyed.');
  // Only what the configuration owns goes: the platform team's binding stays; the imported grant, now managed, is revoked.
  expect(emulator.policy(AP).bindings).toEqual([PLATFORM]);
  expect(emulator.policy(MJ).bindings ?? []).toEqual([]);
  expect(emulator.policy(AG).bindings ?? []).toEqual([]);
});

test('an import ID with a misspelt role: the error names the type and the ID, and the role the member holds', async () => {
  emulator.addResource(MJ, { bindings: [DBA] });
  const dir = await configuration('misspelt', (text) =>
    text.replace('roles/dbaOnCall user:dba@example.com"', 'roles/dbaOnCal user:dba@example.com"'),
  );
  await terraform(dir, 'init', '-input=false');
  const plan = await terraform(dir, 'plan', '-input=false');
  expect(plan.code).toBe(1);
  const id = `${MJ} projects/my-project/roles/dbaOnCal user:dba@example.com`;
  // Terraform wraps the detail at spaces.
  expect(plan.stderr.replace(/\s+/g, ' ')).toContain(
    `Error: Cannot import googleiam_migration_job_iam_member "${id}" ` +
      'user:dba@example.com does not hold projects/my-project/roles/dbaOnCal; it holds projects/my-project/roles/dbaOnCall',
  );
});

test('state written while the condition was a nested attribute (condition = {...}) reads unchanged under the block', async () => {
  emulator.addResource(AP, { bindings: [PLATFORM, { role: ADMIN, members: ['user:oncall@example.com'], condition: UNTIL_NEW_YEAR }] });
  const dir = await configuration('upgrade', (text) => withOnly('oncall_admin', text));
  // The object the former schema stored under "condition" (a SINGLE nested attribute), as terraform.tfstate holds it.
  const attributes = {
    name: AP,
    role: ADMIN,
    member: 'user:oncall@example.com',
    condition: UNTIL_NEW_YEAR,
    id: `${AP}/${ADMIN}/user:oncall@example.com/${UNTIL_NEW_YEAR.title}/${UNTIL_NEW_YEAR.description}/${UNTIL_NEW_YEAR.expression}`,
    etag: emulator.policy(AP).etag,
  };
  const state = {
    version: 4,
    terraform_version: '1.11.4',
    serial: 1,
    lineage: 'c0ffee00-0000-4000-8000-000000000036',
    outputs: {},
    resources: [
      {
        mode: 'managed',
        type: 'googleiam_authorization_policy_iam_member',
        name: 'oncall_admin',
        provider: 'provider["registry.terraform.io/cdktf-google-iam/googleiam"]',
        instances: [{ schema_version: 0, attributes, sensitive_attributes: [] }],
      },
    ],
    check_results: null,
  };
  fs.writeFileSync(path.join(dir, 'terraform.tfstate'), JSON.stringify(state));
  await terraform(dir, 'init', '-input=false');
  emulator.clearWrites();
  const plan = await terraform(dir, 'plan', '-input=false', '-detailed-exitcode');
  expect({ code: plan.code, output: plan.code === 0 ? '' : plan.output }).toEqual({ code: 0, output: '' });
  const shown = JSON.parse((await terraform(dir, 'show', '-json')).stdout) as {
    values: { root_module: { resources: { values: Record<string, unknown> }[] } };
  };
  expect(shown.values.root_module.resources[0].values.condition).toEqual(UNTIL_NEW_YEAR);
  expect(emulator.writes()).toEqual([]);
});

/** The example's `terraform`, `provider` and `locals`, and its resource `name` alone. */
function withOnly(name: string, text: string): string {
  const start = text.lastIndexOf('\n#', text.indexOf(`"${name}" {`));
  return text.slice(0, text.indexOf('# One principal, one role')) + text.slice(start + 1, text.indexOf('\n}\n', start) + 3);
}
