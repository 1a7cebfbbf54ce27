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
  expect(diff.output.replace(/\s+/g, ' ')).toMatch(
    /MigrationJobIamBinding iam-grants\/DmsViewers: roles\/datamigration\.viewer on .*the binding is gone/,
  );

  // cdktf deploy has no -replace of its own; Terraform reads extra arguments from TF_CLI_ARGS_apply
  // (split like a shell command line: the single quotes keep the address's double quotes).
  const address = `terraform_data.google_iam_grants["datamigration:${MIGRATION_JOB}|roles/datamigration.viewer"]`;
  ok(await cdktf(['deploy', 'iam-grants', '--auto-approve', ...OFFLINE], { ...env, TF_CLI_ARGS_apply: `-replace='${address}'` }));
  expect(viewers()).toEqual(['user:alice@example.com', 'serviceAccount:reporting@demo-project.iam.gserviceaccount.com']);

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
