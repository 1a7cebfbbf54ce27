/**
 * The package as npm publishes it: `npm pack`, installed into a project of
 * its own beside its peers (cdktf and constructs, linked from this
 * repository's node_modules), and used from there as a user would, in plain
 * JavaScript and in TypeScript: `cdktf-google-iam` and
 * `cdktf-google-iam/testing` (the exports map) load, a stack synthesizes with
 * the shipped provider laid out, the emulator answers. Everything the tarball ships
 * loads, and it ships no test tools. Run after `npm run build`.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { writeThisPlatformPackage } from '../support/platform-package';

jest.setTimeout(180_000);

const ROOT = path.join(__dirname, '..', '..');
const PEERS = ['cdktf', 'constructs', '@types/node'];

interface PackedFile {
  readonly path: string;
  readonly size: number;
  /** The file's mode as packed (npm keeps what it finds on disk). */
  readonly mode: number;
}

let work: string;
let project: string;
let installed: string;
let shipped: PackedFile[];

/** Runs `command` to its end; fails the test with its output unless it exits 0. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(command, args, { cwd, env: { ...process.env, ...env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Runs a CommonJS script in the project, as its own `node` process; resolves with what it printed as JSON. */
function runScript(name: string, source: string): unknown {
  fs.writeFileSync(path.join(project, name), source);
  const output = run(process.execPath, [name], project);
  return JSON.parse(output.trim().split('\n').pop()!);
}

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-tarball-'));
  const [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], ROOT)) as [
    { filename: string; size: number; unpackedSize: number; files: PackedFile[] },
  ];
  shipped = packed.files;
  console.log(
    `npm pack: ${packed.filename}, ${shipped.length} files, ${packed.size} bytes packed, ${packed.unpackedSize} unpacked; by folder: ` +
      JSON.stringify(
        countBy(
          shipped.map((f) =>
            f.path
              .split('/')
              .slice(0, f.path.startsWith('lib/') ? 2 : 1)
              .join('/'),
          ),
        ),
      ),
  );

  project = path.join(work, 'project');
  installed = path.join(project, 'node_modules', 'cdktf-google-iam');
  fs.mkdirSync(installed, { recursive: true });
  run('tar', ['-xzf', path.join(work, packed.filename), '-C', installed, '--strip-components=1'], work);
  for (const peer of PEERS) {
    fs.mkdirSync(path.dirname(path.join(project, 'node_modules', peer)), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(ROOT, 'node_modules', peer)), path.join(project, 'node_modules', peer), 'dir');
  }
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true }));
  // This platform's executable, in its own package beside the library's, as npm installs the optional dependency.
  writeThisPlatformPackage(project);
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

function countBy(keys: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
  return counts;
}

test('the tarball ships the library, its declarations, the provider and vendor bundles and the assembly, and no test tools', () => {
  const paths = shipped.map((f) => f.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      'package.json',
      'README.md',
      'LICENSE',
      '.jsii',
      'lib/index.js',
      'lib/index.d.ts',
      'lib/testing/index.js',
      'lib/testing/index.d.ts',
      'lib/testing/emulator/cli.js',
      'dist/provider/terraform-provider-googleiam.js',
      'dist/provider/executables.json',
      'dist/vendor/cel.js',
      'dist/vendor/google-auth.js',
      'dist/vendor/levenshtein.js',
      'lib/iam/roles.generated.json',
      'lib/iam/permission-prefixes.generated.json',
    ]),
  );
  const unexpected = paths.filter(
    (p) =>
      !/^(lib|dist)\/.+\.js$/.test(p) &&
      !/^lib\/.+\.d\.ts$/.test(p) &&
      !/^lib\/iam\/[\w-]+\.generated\.json$/.test(p) &&
      p !== 'dist/provider/executables.json' &&
      !['package.json', 'README.md', 'LICENSE', '.jsii'].includes(p),
  );
  expect(unexpected).toEqual([]);
  const testTools = paths.filter((p) => /terraform-provider-external|\.proto$|\.test\.|^tools\/|^test\//.test(p));
  expect(testTools).toEqual([]);
});

test('the bin files are packed executable (0755): jsii runs them straight from the unpacked tarball, where npm fixes no mode', () => {
  const { bin } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const modes = Object.values(bin).map((file) => [file, (shipped.find((f) => f.path === file)?.mode ?? 0).toString(8)]);
  expect(modes).toEqual(Object.values(bin).map((file) => [file, '755']));
});

test('every shipped .js under lib/ and dist/ loads without a missing module (the emulator CLI runs and prints its environment, the provider answers a lookup)', async () => {
  const cli = 'lib/testing/emulator/cli.js';
  // A program, not a module: loaded, it would serve Terraform (or refuse to, started by anything else).
  const provider = 'dist/provider/terraform-provider-googleiam.js';
  const modules = shipped.map((f) => f.path).filter((p) => /^(lib|dist)\/.+\.js$/.test(p) && p !== cli && p !== provider);
  const failures = runScript(
    'load-all.js',
    `const failures = [];
for (const file of ${JSON.stringify(modules)}) {
  try {
    require(require('path').join(__dirname, 'node_modules', 'cdktf-google-iam', file));
  } catch (error) {
    failures.push(file + ': ' + (error.code || error.name) + ': ' + String(error.message).split('\\n')[0]);
  }
}
console.log(JSON.stringify(failures));
`,
  );
  expect(failures).toEqual([]);
  expect(modules.length).toBeGreaterThan(50);

  // The provider bundle, run as the Direct-form lookups run it: a malformed query is answered, so every module it needs is in it.
  const lookup = spawnSync(process.execPath, [path.join(installed, provider), 'lookup'], { cwd: project, input: 'oops', encoding: 'utf8' });
  expect({ status: lookup.status, stderr: lookup.stderr }).toEqual({ status: 0, stderr: '' });
  expect(lookup.stdout).toContain('is malformed: not JSON');

  // The CLI serves until stopped: started as npm's bin would start it, it must print its environment.
  const child = spawn(process.execPath, [path.join(installed, cli), '--json'], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d;
        if (out.includes('\n')) resolve(out.split('\n')[0]);
      });
      child.stderr.on('data', (d: Buffer) => {
        err += d;
      });
      child.on('exit', (code) => reject(new Error(`the emulator CLI exited with ${code}: ${err}`)));
    });
    expect(JSON.parse(line)).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/), env: expect.any(Object) });
  } finally {
    child.kill('SIGTERM');
  }
});

test('from plain JavaScript: both entry points load, a stack with a grant synthesizes with the shipped provider laid out, the emulator answers', () => {
  const result = runScript(
    'use.js',
    `const path = require('path');
const { App, TerraformStack } = require('cdktf');
const { AuthorizationPolicyIamMember, ConstructValidationError, GoogleApiError } = require('cdktf-google-iam');
const { GoogleApiEmulator, TerraformCli } = require('cdktf-google-iam/testing');

function blocked(specifier) {
  try {
    require(specifier);
    return 'loaded';
  } catch (error) {
    return error.code;
  }
}

async function main() {
  const outdir = path.join(__dirname, 'cdktf.out');
  const app = new App({ outdir });
  const stack = new TerraformStack(app, 'iam');
  const policy = 'projects/p-123456/locations/global/authorizationPolicies/ap';
  new AuthorizationPolicyIamMember(stack, 'Readers', { name: policy, role: 'roles/networksecurity.viewer', member: 'group:readers@example.com' });
  app.synth();
  const stackDir = path.join(outdir, 'stacks', 'iam');
  const plugins = require('fs').readdirSync(path.join(stackDir, 'terraform.d', 'plugins'), { recursive: true }).map(String);

  let validation;
  try {
    new AuthorizationPolicyIamMember(stack, 'Bad', { name: policy, role: 'roles/viewer', member: 'User:a@example.com' });
  } catch (error) {
    validation = error instanceof ConstructValidationError;
  }

  const emulator = await GoogleApiEmulator.start();
  try {
    emulator.addResource(policy, { bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }] });
    const env = emulator.env();
    const answer = await fetch(env.CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY + 'v1/' + policy + ':getIamPolicy?options.requestedPolicyVersion=3', {
      headers: { authorization: 'Bearer ' + env.GOOGLE_OAUTH_ACCESS_TOKEN },
    });
    const read = await answer.json();
    console.log(JSON.stringify({
      synthesized: require('fs').existsSync(path.join(stackDir, 'cdk.tf.json')),
      providerLaidOut: plugins.some((f) => f.endsWith('linux_amd64/terraform-provider-googleiam_v0.1.0')),
      lockEntry: require('fs').readFileSync(path.join(stackDir, '.terraform.lock.hcl'), 'utf8').includes('cdktf-google-iam/googleiam'),
      validation,
      apiError: typeof GoogleApiError === 'function',
      terraformCli: typeof TerraformCli.run,
      bindings: read.bindings,
      deepImport: blocked('cdktf-google-iam/lib/testing'),
      standIn: blocked('cdktf-google-iam/lib/testing/terraform-provider-external'),
    }));
  } finally {
    await emulator.close();
  }
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`,
  );
  expect(result).toEqual({
    synthesized: true,
    providerLaidOut: true,
    lockEntry: true,
    validation: true,
    apiError: true,
    terraformCli: 'function',
    bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'] }],
    // Only the paths of the exports map are public.
    deepImport: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
    standIn: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
  });
});

test('a jsii project that depends on the package finds it and its assembly as jsii does (through the exports map)', () => {
  // jsii, jsii-pacmak and jsii-reflect resolve a dependency's main entry and walk up to its package.json.
  const { findDependencyDirectory } = require(path.join(ROOT, 'node_modules', 'jsii', 'lib', 'common', 'find-utils')) as {
    findDependencyDirectory(name: string, searchStart: string): string;
  };
  expect(fs.realpathSync(findDependencyDirectory('cdktf-google-iam', project))).toBe(fs.realpathSync(installed));
  const assembly = JSON.parse(fs.readFileSync(require.resolve('cdktf-google-iam/.jsii', { paths: [project] }), 'utf8'));
  expect(assembly).toMatchObject({
    name: 'cdktf-google-iam',
    types: expect.objectContaining({ 'cdktf-google-iam.AuthorizationPolicyIamMember': expect.any(Object) }),
  });
  expect(require.resolve('cdktf-google-iam/package.json', { paths: [project] })).toBe(path.join(installed, 'package.json'));
});

test.each([
  // cdktf's project template: module CommonJS, hence TypeScript's "node10" resolution (typesVersions serves ./testing)
  ['as cdktf init sets it up (module CommonJS)', { module: 'CommonJS' }],
  // resolution that reads the exports map
  ['with module and moduleResolution node16', { module: 'node16', moduleResolution: 'node16' }],
])('from TypeScript %s: both entry points type-check', (_how, options) => {
  fs.writeFileSync(
    path.join(project, 'index.ts'),
    `import { App, TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, ConstructValidationError, CredentialsError, GoogleApiError } from 'cdktf-google-iam';
import { GoogleApiEmulator, TerraformCli, type CommandResult, type PolicyWrite } from 'cdktf-google-iam/testing';

const stack = new TerraformStack(new App(), 'iam');
new AuthorizationPolicyIamMember(stack, 'Readers', {
  name: 'projects/p-123456/locations/global/authorizationPolicies/ap',
  role: 'roles/networksecurity.viewer',
  member: 'group:readers@example.com',
});

export async function writes(): Promise<PolicyWrite[]> {
  const emulator = await GoogleApiEmulator.start();
  const result: CommandResult = await TerraformCli.spawn('terraform', ['version'], '.', emulator.env());
  await emulator.close();
  return result.code === 0 ? emulator.writes() : [];
}

export function kind(error: unknown): string {
  if (error instanceof ConstructValidationError) return \`\${error.where}: \${error.field}\`;
  if (error instanceof CredentialsError) return 'credentials';
  if (error instanceof GoogleApiError) return \`\${error.status} \${error.httpStatus}\`;
  return 'other';
}
`,
  );
  fs.writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { ...options, target: 'es2022', lib: ['es2022'], strict: true, noEmit: true, types: ['node'] },
      files: ['index.ts'],
    }),
  );
  const tsc = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], {
    cwd: project,
    encoding: 'utf8',
  });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
});
