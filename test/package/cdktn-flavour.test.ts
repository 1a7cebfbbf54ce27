/**
 * The CDK Terrain flavour (`cdktn-google-iam`, built into dist-cdktn/ by
 * scripts/build-cdktn.js from the same sources): it gives a cdktn user the
 * same Terraform JSON as a cdktf user, carries its own jsii assembly, and
 * deploys with the real `cdktn` CLI against the emulator.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startSeededEmulator } from '../../examples/emulated';
import { AUTHORIZATION_POLICY } from '../../examples/app';
import { emptyCliConfig, ownPluginCache, runCommand, type CommandResult } from '../support/terraform';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..');
const FLAVOUR = path.join(ROOT, 'dist-cdktn');

/** A stack using every kind of construct, built with the given framework and library build. */
function synthesized(framework: string, library: string): string {
  const { TerraformOutput, TerraformStack, TerraformVariable, Testing } = require(framework);
  const lib = require(library);

  const stack = new TerraformStack(Testing.app(), 'iam');
  const grant = new lib.AuthorizationPolicyIamMember(stack, 'Readers', {
    name: 'projects/p-123456/locations/global/authorizationPolicies/ap',
    role: 'roles/networksecurity.viewer',
    member: 'group:readers@example.com',
    condition: { title: 'until ${x}', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' },
  });
  const member = new TerraformVariable(stack, 'member', { type: 'string' });
  new lib.MigrationJobIamBinding(stack, 'Viewers', {
    name: 'projects/p-123456/locations/us-central1/migrationJobs/mj',
    role: 'roles/datamigration.editor',
    members: ['user:a@example.com', member.stringValue],
  });
  const policy = new lib.DataAddressGroupIamPolicy(stack, 'Policy', { addressGroupId: 'ag', location: 'global' });
  const job = new lib.DataImportJob(stack, 'Job', { importJobId: 'job', location: 'us-central1', view: 'IMPORT_JOB_VIEW_FULL' });
  new TerraformOutput(stack, 'out', { value: [grant.etag, policy.bindings, job.state] });
  // The construct metadata ("//") names the framework's version; everything Terraform reads must be equal.
  return JSON.stringify(
    JSON.parse(Testing.synth(stack), (key, value) => (key === '//' ? undefined : value)),
    null,
    1,
  );
}

test('the flavour is the same sources with the framework swapped: its own package and jsii assembly, cdktn as peer', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(FLAVOUR, 'package.json'), 'utf8'));
  expect(pkg).toMatchObject({
    name: 'cdktn-google-iam',
    peerDependencies: { cdktn: expect.stringMatching(/^\^0\.24\./), constructs: expect.any(String) },
  });
  expect(pkg.peerDependencies.cdktf).toBeUndefined();
  const assembly = JSON.parse(fs.readFileSync(path.join(FLAVOUR, '.jsii'), 'utf8'));
  expect(Object.keys(assembly.dependencies)).toEqual(expect.arrayContaining(['cdktn', 'constructs']));
  expect(Object.keys(assembly.targets).sort()).toEqual(['dotnet', 'go', 'java', 'js', 'python']);
  expect(assembly.types['cdktn-google-iam.AuthorizationPolicyIamMember'].base).toBe('constructs.Construct');
  const compiled = fs.readFileSync(path.join(FLAVOUR, 'lib', 'provider-bindings', 'google-iam-provider.generated.js'), 'utf8');
  expect(compiled).toContain('require("cdktn")');
  expect(compiled).not.toContain('require("cdktf")');
});

test('a cdktn user gets the same Terraform JSON as a cdktf user', () => {
  expect(synthesized('cdktn', FLAVOUR)).toBe(synthesized('cdktf', ROOT));
});

// cdktn-cli 0.24 needs Node.js 22.19 or newer (CI runs 24 and 22.23).
const [major, minor] = process.versions.node.split('.').map(Number);
const cliRuns = major > 22 || (major === 22 && minor >= 19);
if (!cliRuns) {
  console.log(`cdktn-flavour: the cdktn CLI test is skipped: cdktn-cli needs Node.js >= 22.19 (this is ${process.version})`);
}

(cliRuns ? test : test.skip)(
  'cdktn synth, cdktn deploy and cdktn destroy of an app that uses the flavour, against the emulator',
  async () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktn-app-'));
    const emulator = await startSeededEmulator();
    try {
      fs.writeFileSync(
        path.join(project, 'main.js'),
        `
const { App, TerraformStack } = require(${JSON.stringify(path.join(ROOT, 'node_modules', 'cdktn'))});
const { AuthorizationPolicyIamMember } = require(${JSON.stringify(FLAVOUR)});
const app = new App();
const stack = new TerraformStack(app, 'iam');
new AuthorizationPolicyIamMember(stack, 'Readers', {
  name: ${JSON.stringify(AUTHORIZATION_POLICY)},
  role: 'roles/networksecurity.viewer',
  member: 'group:cdktn-readers@example.com',
});
app.synth();
`,
      );
      fs.writeFileSync(
        path.join(project, 'cdktf.json'),
        JSON.stringify({
          language: 'typescript',
          app: `${process.execPath} main.js`,
          projectId: 'cdktn-flavour',
          sendCrashReports: 'false',
        }),
      );
      // An empty CLI configuration: the provider synth laid out is found with no set-up, and its
      // pre-written lock entry spares cdktn's `terraform providers lock` the registry (no flag needed).
      const env = { ...emulator.env(), ...emptyCliConfig(project), ...ownPluginCache(project), CHECKPOINT_DISABLE: '1', CI: '1' };
      const cdktn = (args: string[]): Promise<CommandResult> =>
        runCommand(path.join(ROOT, 'node_modules', '.bin', 'cdktn'), args, project, env);
      const ok = (result: CommandResult) =>
        expect({ code: result.code, output: result.code === 0 ? '' : result.output.slice(-3000) }).toEqual({ code: 0, output: '' });
      const readers = () => emulator.policy(AUTHORIZATION_POLICY).bindings?.find((b) => b.role === 'roles/networksecurity.viewer')?.members;

      ok(await cdktn(['synth']));
      expect(fs.existsSync(path.join(project, 'cdktf.out', 'stacks', 'iam', 'cdk.tf.json'))).toBe(true);
      ok(await cdktn(['deploy', 'iam', '--auto-approve']));
      expect(readers()).toEqual(['group:cdktn-readers@example.com']);
      ok(await cdktn(['destroy', 'iam', '--auto-approve']));
      expect(readers()).toBeUndefined();
    } finally {
      await emulator.close();
      fs.rmSync(project, { recursive: true, force: true });
    }
  },
);
