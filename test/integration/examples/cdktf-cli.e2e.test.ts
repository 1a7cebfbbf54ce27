/**
 * The README's deploy instructions, as written, with the real CLI from
 * cdktf-cli (installed by `npm ci`): `cdktf synth`, `cdktf deploy`, `cdktf diff`
 * and `cdktf destroy` of the example app against the emulator, offline and
 * with an empty Terraform CLI configuration: the provider synth laid out is
 * found with no set-up, and its pre-written lock entry spares the CLI's
 * `terraform providers lock` a registry it cannot reach (no flag needed).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MIGRATION_JOB } from '../../../examples/app';
import { startSeededEmulator } from '../../../examples/emulated';
import type { GoogleApiEmulator } from '../../../lib/testing';
import { emptyCliConfig, ownPluginCache, runCommand, type CommandResult } from '../../support/terraform';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..', '..');
const CDKTF = path.join(ROOT, 'node_modules', '.bin', 'cdktf');

let project: string;
let emulator: GoogleApiEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  // A project folder of its own (cdktf writes cdktf.out and the local state into its working directory),
  // whose app is the repository's example, as in the repository's cdktf.json.
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-cli-e2e-'));
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdktf.json'), 'utf8'));
  config.app = `${path.join(ROOT, 'node_modules', '.bin', 'ts-node')} --transpile-only ${path.join(ROOT, 'examples', 'main.ts')}`;
  fs.writeFileSync(path.join(project, 'cdktf.json'), JSON.stringify(config, null, 2));
  emulator = await startSeededEmulator();
  env = { ...emulator.env(), ...emptyCliConfig(project), ...ownPluginCache(project), CHECKPOINT_DISABLE: '1', CI: '1' };
});
afterAll(async () => {
  await emulator.close();
  fs.rmSync(project, { recursive: true, force: true });
});

function cdktf(args: string[], extraEnv: Record<string, string> = env): Promise<CommandResult> {
  return runCommand(CDKTF, args, project, extraEnv);
}

function ok(result: CommandResult): void {
  expect({ code: result.code, output: result.code === 0 ? '' : result.output.slice(-3000) }).toEqual({ code: 0, output: '' });
}

test('cdktf synth: both example stacks, with no Google configuration (the example uses its embedded emulator)', async () => {
  const noGoogle = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), CHECKPOINT_DISABLE: '1', CI: '1' };
  const result = await runCommand(CDKTF, ['synth'], project, noGoogle);
  ok(result);
  expect(fs.readdirSync(path.join(project, 'cdktf.out', 'stacks')).sort()).toEqual(['iam-grants', 'iam-lookups']);
});

test('cdktf deploy grants; cdktf diff shows drift as a change; cdktf deploy repairs it; cdktf destroy revokes', async () => {
  ok(await cdktf(['deploy', 'iam-grants', '--auto-approve']));
  const viewers = () => {
    const members = emulator.policy(MIGRATION_JOB).bindings?.find((b) => b.role === 'roles/datamigration.editor')?.members;
    return members && [...members].sort();
  };
  expect(viewers()).toEqual(['serviceAccount:reporting@demo-project.iam.gserviceaccount.com', 'user:alice@example.com']);
  // The lock entry synth wrote is the one terraform keeps: no "Incomplete lock file information".
  const lock = fs.readFileSync(path.join(project, 'cdktf.out', 'stacks', 'iam-grants', '.terraform.lock.hcl'), 'utf8');
  expect(lock).toContain('provider "registry.terraform.io/cdktf-google-iam/googleiam"');

  // Someone removes the binding in the console: the refresh sees it, and the diff is a change, named by construct.
  const policy = emulator.policy(MIGRATION_JOB);
  emulator.addResource(MIGRATION_JOB, { ...policy, bindings: policy.bindings?.filter((b) => b.role !== 'roles/datamigration.editor') });
  const diff = await cdktf(['diff', 'iam-grants']);
  ok(diff);
  expect(diff.output).toMatch(
    /googleiam_migration_job_iam_binding\.orders-db_datamigration_editor_[0-9a-f]{8}[\s\S]*will be (created|updated in-place)/,
  );
  expect(diff.output).not.toContain('Incomplete lock file information');

  ok(await cdktf(['deploy', 'iam-grants', '--auto-approve']));
  expect(viewers()).toEqual(['serviceAccount:reporting@demo-project.iam.gserviceaccount.com', 'user:alice@example.com']);
  const clean = await cdktf(['diff', 'iam-grants']);
  ok(clean);
  expect(clean.output).toContain('No changes');

  ok(await cdktf(['destroy', 'iam-grants', '--auto-approve']));
  expect(viewers()).toBeUndefined();
});

test('cdktf deploy of the lookups stack reads at plan time and shows the outputs', async () => {
  const deployed = await cdktf(['deploy', 'iam-lookups', '--auto-approve']);
  ok(deployed);
  expect(deployed.output).toContain('IMPORT_JOB_STATE_COMPLETED');
  expect(deployed.output).toContain('group:network-admins@example.com');
  ok(await cdktf(['destroy', 'iam-lookups', '--auto-approve']));
});

describe('a plain JavaScript app, under cdktf-cli', () => {
  let app: string;
  const POLICY = 'projects/demo-project/locations/global/authorizationPolicies/ci-checked';

  beforeAll(() => {
    // A project as a user has it: cdktf.json, an app in plain JavaScript, the library as an installed package.
    app = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-cli-js-'));
    fs.mkdirSync(path.join(app, 'node_modules'));
    fs.symlinkSync(ROOT, path.join(app, 'node_modules', 'cdktf-google-iam'));
    fs.symlinkSync(path.join(ROOT, 'node_modules', 'cdktf'), path.join(app, 'node_modules', 'cdktf'));
    fs.writeFileSync(path.join(app, 'cdktf.json'), JSON.stringify({ language: 'javascript', app: `${process.execPath} main.js` }));
    fs.writeFileSync(
      path.join(app, 'main.js'),
      [
        "const { App, TerraformStack } = require('cdktf');",
        "const { AuthorizationPolicyIamMember } = require('cdktf-google-iam');",
        'const app = new App();',
        "const stack = new TerraformStack(app, 'checked');",
        `new AuthorizationPolicyIamMember(stack, 'Readers', { name: '${POLICY}', role: 'roles/networksecurity.viewer', member: 'group:readers@example.com' });`,
        'app.synth();',
      ].join('\n'),
    );
    emulator.addResource(POLICY);
  });
  afterAll(() => fs.rmSync(app, { recursive: true, force: true }));

  const run = (args: string[]) => runCommand(CDKTF, args, app, env);

  test('drift fails a CI plan: terraform plan -detailed-exitcode exits 2 naming the grant; cdktf deploy repairs it', async () => {
    ok(await run(['deploy', 'checked', '--auto-approve']));
    emulator.addResource(POLICY, { bindings: [] });

    const plan = await runCommand(
      'terraform',
      ['plan', '-input=false', '-no-color', '-detailed-exitcode'],
      path.join(app, 'cdktf.out', 'stacks', 'checked'),
      env,
    );
    expect(plan.code).toBe(2);
    expect(plan.output).toMatch(
      /googleiam_authorization_policy_iam_member\.ci-checked_[\w-]*_group_readers_example_com_[0-9a-f]{8} will be created/,
    );

    ok(await run(['deploy', 'checked', '--auto-approve']));
    expect(emulator.policy(POLICY).bindings).toEqual([{ role: 'roles/networksecurity.viewer', members: ['group:readers@example.com'] }]);
    ok(await run(['destroy', 'checked', '--auto-approve']));
  });
});
