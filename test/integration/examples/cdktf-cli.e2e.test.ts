/**
 * The README's deploy instructions, as written, with the real CLI from
 * cdktf-cli (installed by `npm ci`): `cdktf synth`, `cdktf deploy`, `cdktf diff`
 * and `cdktf destroy` of the example app against the emulator. Offline, the
 * stand-in external provider comes from a filesystem mirror, so the CLI's
 * `terraform providers lock` (which asks the registry) is skipped with
 * `--skip-provider-lock`; with the registry reachable it is not needed.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MIGRATION_JOB } from '../../../examples/app';
import { startSeededEmulator } from '../../../examples/emulated';
import type { GoogleApiEmulator } from '../../../lib/testing';
import { asSeen, printedRepairs, runPrinted } from '../../support/drift-output';
import { externalProviderEnv, runCommand, type CommandResult } from '../../support/terraform';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..', '..');
const CDKTF = path.join(ROOT, 'node_modules', '.bin', 'cdktf');
const OFFLINE = ['--skip-provider-lock'];

let project: string;
let emulator: GoogleApiEmulator;
let env: Record<string, string>;

beforeAll(async () => {
  // A project folder of its own (cdktf writes cdktf.out and the local state into its working directory),
  // whose app is the repository's example, as in the repository's cdktf.json.
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-cli-e2e-'));
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, 'cdktf.json'), 'utf8'));
  config.app = `${path.join(ROOT, 'node_modules', '.bin', 'ts-node')} --transpile-only ${path.join(ROOT, 'examples', 'main.ts')}`;
  fs.writeFileSync(path.join(project, 'cdktf.json'), JSON.stringify(config, null, 2));
  emulator = await startSeededEmulator();
  env = {
    ...emulator.env(),
    ...externalProviderEnv(),
    CDKTF_GOOGLE_IAM_STATE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-cli-runner-')),
    CHECKPOINT_DISABLE: '1',
    CI: '1',
  };
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

test('cdktf deploy grants; cdktf diff reports drift; the repair; cdktf destroy revokes', async () => {
  ok(await cdktf(['deploy', 'iam-grants', '--auto-approve', ...OFFLINE]));
  const viewers = () => emulator.policy(MIGRATION_JOB).bindings?.find((b) => b.role === 'roles/datamigration.viewer')?.members;
  expect(viewers()).toEqual(['user:alice@example.com', 'serviceAccount:reporting@demo-project.iam.gserviceaccount.com']);

  const policy = emulator.policy(MIGRATION_JOB);
  emulator.addResource(MIGRATION_JOB, { ...policy, bindings: policy.bindings?.filter((b) => b.role !== 'roles/datamigration.viewer') });
  const diff = await cdktf(['diff', 'iam-grants', ...OFFLINE]);
  ok(diff);
  expect(asSeen(diff.output).replace(/\s+/g, ' ')).toMatch(
    /MigrationJobIamBinding iam-grants\/DmsViewers: roles\/datamigration\.viewer on .*the binding is gone/,
  );

  // The repair as cdktf diff prints it (cdktf-cli rewrites the addresses of constructs it knows; not this one),
  // run through a shell in the project's folder. cdktf deploy asks for approval interactively: the test adds
  // --auto-approve to the printed command, as a script would.
  const { cdktf: printed } = printedRepairs(diff.output);
  expect(printed).toEqual(['TF_CLI_ARGS_apply=-replace=terraform_data.google_iam_repair cdktf deploy iam-grants']);
  ok(await runPrinted(`PATH=${path.dirname(CDKTF)}:$PATH ${printed[0]} --auto-approve ${OFFLINE.join(' ')}`, project, env));
  expect(viewers()).toEqual(['user:alice@example.com', 'serviceAccount:reporting@demo-project.iam.gserviceaccount.com']);
  const clean = await cdktf(['diff', 'iam-grants', ...OFFLINE]);
  ok(clean);
  expect(clean.output).not.toContain('Warning');

  ok(await cdktf(['destroy', 'iam-grants', '--auto-approve', ...OFFLINE]));
  expect(viewers()).toBeUndefined();
});

test('cdktf deploy of the lookups stack reads at plan time and shows the outputs', async () => {
  const deployed = await cdktf(['deploy', 'iam-lookups', '--auto-approve', ...OFFLINE]);
  ok(deployed);
  expect(deployed.output).toContain('IMPORT_JOB_STATE_COMPLETED');
  expect(deployed.output).toContain('group:network-admins@example.com');
  ok(await cdktf(['destroy', 'iam-lookups', '--auto-approve', ...OFFLINE]));
});

describe('a plain JavaScript app with failPlanOnDrift, under cdktf-cli', () => {
  let app: string;
  const POLICY = 'projects/demo-project/locations/global/authorizationPolicies/ci-checked';

  beforeAll(() => {
    // A project as a user has it: cdktf.json, an app in plain JavaScript, the library as an installed package.
    app = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-cli-js-'));
    fs.mkdirSync(path.join(app, 'node_modules'));
    fs.symlinkSync(ROOT, path.join(app, 'node_modules', 'cdktf-google-iam'));
    fs.symlinkSync(path.join(ROOT, 'node_modules', 'cdktf'), path.join(app, 'node_modules', 'cdktf'));
    fs.writeFileSync(path.join(app, 'cdktf.json'), JSON.stringify({ language: 'javascript', app: `${process.execPath} main.js` }));
    fs.writeFileSync(
      path.join(app, 'main.js'),
      [
        "const { App, TerraformStack } = require('cdktf');",
        "const { AuthorizationPolicyIamMember, GoogleIamGrants } = require('cdktf-google-iam');",
        'const app = new App();',
        "const stack = new TerraformStack(app, 'checked');",
        'GoogleIamGrants.of(stack).failPlanOnDrift = true;',
        `new AuthorizationPolicyIamMember(stack, 'Readers', { name: '${POLICY}', role: 'roles/networksecurity.authorizationPolicyViewer', member: 'group:readers@example.com' });`,
        'app.synth();',
      ].join('\n'),
    );
    emulator.addResource(POLICY);
  });
  afterAll(() => fs.rmSync(app, { recursive: true, force: true }));

  const run = (args: string[]) => runCommand(CDKTF, args, app, env);

  test('cdktf diff fails on drift, naming the construct, role, principal and the repair; the printed repair works', async () => {
    ok(await run(['deploy', 'checked', '--auto-approve', ...OFFLINE]));
    ok(await run(['diff', 'checked', ...OFFLINE]));

    emulator.addResource(POLICY, { bindings: [] });
    const failed = await run(['diff', 'checked', ...OFFLINE]);
    expect(failed.code).not.toBe(0);
    const seen = asSeen(failed.output).replace(/\s+/g, ' ');
    expect(seen).toContain('Error: Resource postcondition failed');
    expect(seen).toContain(
      `AuthorizationPolicyIamMember checked/Readers: roles/networksecurity.authorizationPolicyViewer on ${POLICY}: group:readers@example.com is missing.`,
    );

    const { cdktf: printed } = printedRepairs(failed.output);
    expect(printed).toEqual(['TF_CLI_ARGS_apply=-replace=terraform_data.google_iam_repair cdktf deploy checked']);
    ok(await runPrinted(`PATH=${path.dirname(CDKTF)}:$PATH ${printed[0]} --auto-approve ${OFFLINE.join(' ')}`, app, env));
    expect(emulator.policy(POLICY).bindings).toEqual([
      { role: 'roles/networksecurity.authorizationPolicyViewer', members: ['group:readers@example.com'] },
    ]);
    ok(await run(['diff', 'checked', ...OFFLINE]));
    ok(await run(['destroy', 'checked', '--auto-approve', ...OFFLINE]));
  });
});
