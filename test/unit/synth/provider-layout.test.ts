/**
 * Synth lays the provider's native executable out in each stack's folder that uses it: Terraform's implied local
 * mirror (terraform.d/plugins/...) with a real file hard-linked to the build's, and the lock entry with the hash of
 * every platform the package was built for, so `terraform init` there installs it offline with no set-up and no
 * warning, on any machine. The platforms laid out: this machine's, linux_amd64 for a stack whose runs are remote
 * (a CloudBackend or RemoteBackend), and those of the app context `googleiam:providerPlatforms`. On the real build
 * (this machine's executable, dist/provider/native), and, for the choice of platforms, with this machine's platform
 * and the package stubbed (a fixture package of small executables, one per platform).
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, CloudBackend, LocalBackend, NamedCloudWorkspace, RemoteBackend, TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, GoogleIamProvider } from '../../../lib';
import {
  executableFileName,
  InstallError,
  lockEntry,
  LOCK_FILE_NAME,
  mergeLockEntry,
  packageHash,
  providerPackage,
  providerPackageHash,
  SUPPORTED_PLATFORMS,
  terraformPlatform,
  type ProviderPackage,
} from '../../../lib/install';
import * as platformsModule from '../../../lib/install/platforms';
import * as providerPackageModule from '../../../lib/install/provider-package';
import { ConstructValidationError } from '../../../lib/synth/errors';
import { MIN_NODE_MAJOR, unsupportedNodeWarning } from '../../../lib/synth/node-version';
import { PROVIDER_PLATFORMS_CONTEXT } from '../../../lib/synth/provider-layout';
import { thrownBy } from '../../support/rejection';

const ROOT = path.join(__dirname, '..', '..', '..');
const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;
const PLUGIN_DIR = `terraform.d/plugins/registry.terraform.io/cdktf-google-iam/googleiam/${VERSION}`;
const HOST = terraformPlatform();
const EXECUTABLE = `terraform-provider-googleiam_v${VERSION}`;
const tempDirs: string[] = [];

afterAll(() => {
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});
afterEach(() => jest.restoreAllMocks());

function tempDir(name: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `cdktf-google-iam-${name}-`));
  tempDirs.push(dir);
  return dir;
}

/** Synthesizes an app: `grants` with a grant, `own` with only a provider of its own, `plain` with nothing of the library. */
function synthApp(hclOutput = false): string {
  const outdir = tempDir('layout');
  const app = new App({ outdir, hclOutput });
  const grants = new TerraformStack(app, 'grants');
  // cdktf's default local backend path is absolute; the test is about what the library writes.
  new LocalBackend(grants, { path: 'terraform.tfstate' });
  new AuthorizationPolicyIamMember(grants, 'Alice', {
    name: AP,
    role: 'roles/networksecurity.viewer',
    member: 'user:alice@example.com',
  });
  new GoogleIamProvider(new TerraformStack(app, 'own'), 'Mine', { project: 'p-123456' });
  new TerraformStack(app, 'plain');
  app.synth();
  return outdir;
}

type Backend = 'local' | 'remote' | 'cloud';

/** Synthesizes one stack `s` using the provider, with `backend` and the app `context`; returns the stack's folder. */
function synthStack(backend: Backend, context: Record<string, unknown> = {}): string {
  const outdir = tempDir('layout');
  const app = new App({ outdir, context });
  const stack = new TerraformStack(app, 's');
  if (backend === 'remote') new RemoteBackend(stack, { organization: 'example', workspaces: { name: 'grants' } });
  if (backend === 'cloud') new CloudBackend(stack, { organization: 'example', workspaces: new NamedCloudWorkspace('grants') });
  if (backend === 'local') new LocalBackend(stack, { path: 'terraform.tfstate' });
  new GoogleIamProvider(stack, 'Provider', { project: 'p-123456' });
  app.synth();
  return path.join(outdir, 'stacks', 's');
}

/** The platform folders laid out in a stack's folder. */
const platformsIn = (stackDir: string): string[] => fs.readdirSync(path.join(stackDir, PLUGIN_DIR)).sort();

/** What `fn` throws (the test fails if it throws nothing). */
const thrown = (fn: () => unknown): Error => thrownBy(fn, Error);

/** Every file under `dir` but the executables (the build's own file, hard-linked), relative path -> SHA-256. */
function fileHashes(dir: string): Record<string, string> {
  const files = fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && !e.name.startsWith('terraform-provider-'));
  return Object.fromEntries(
    files
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort()
      .map((file) => [
        file,
        createHash('sha256')
          .update(fs.readFileSync(path.join(dir, file)))
          .digest('hex'),
      ]),
  );
}

describe('on the real build', () => {
  test("each stack that uses the provider gets this machine's executable, a real file hard-linked to the build's, and its lock entry; the others nothing", () => {
    const outdir = synthApp();
    const pkg = providerPackage();
    const built = fs.statSync(path.join(ROOT, 'dist', 'provider', 'native', HOST, executableFileName('googleiam', HOST)));
    for (const stack of ['grants', 'own']) {
      const dir = path.join(outdir, 'stacks', stack);
      expect(platformsIn(dir)).toEqual([HOST]);
      expect(fs.readdirSync(path.join(dir, PLUGIN_DIR, HOST))).toEqual([EXECUTABLE]);
      const executable = fs.lstatSync(path.join(dir, PLUGIN_DIR, HOST, EXECUTABLE));
      expect(executable.isFile()).toBe(true);
      expect(executable.isSymbolicLink()).toBe(false);
      expect([executable.dev, executable.ino, executable.size]).toEqual([built.dev, built.ino, built.size]);
      expect(executable.mode & 0o777).toBe(0o755);
      // The hash from the build's digest is the hash of the folder as laid out.
      expect(packageHash(path.join(dir, PLUGIN_DIR, HOST))).toBe(providerPackageHash(pkg, HOST));
      const lock = fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8');
      expect(lock).toBe(mergeLockEntry(undefined, lockEntry(pkg)));
      for (const platform of Object.keys(pkg.executables)) expect(lock).toContain(`    "${providerPackageHash(pkg, platform)}",\n`);
    }
    const plain = path.join(outdir, 'stacks', 'plain');
    expect(fs.readdirSync(plain)).toEqual(['cdk.tf.json']);
  });

  test('two synths in two folders write identical files, with no absolute path in any of them', () => {
    const [first, second] = [synthApp(), synthApp()];
    const files = fileHashes(path.join(first, 'stacks', 'grants'));
    expect(fileHashes(path.join(second, 'stacks', 'grants'))).toEqual(files);
    expect(Object.keys(files)).toEqual(expect.arrayContaining([LOCK_FILE_NAME, 'cdk.tf.json']));
    for (const file of Object.keys(files)) {
      const text = fs.readFileSync(path.join(first, 'stacks', 'grants', file), 'utf8');
      for (const absolute of [first, ROOT, os.homedir()]) expect(text).not.toContain(absolute);
    }
    // The executables are one file, the build's.
    const executable = (outdir: string): number => fs.statSync(path.join(outdir, 'stacks', 'grants', PLUGIN_DIR, HOST, EXECUTABLE)).ino;
    expect(executable(second)).toBe(executable(first));
  });

  test('synthesizing again into the same folder changes nothing', () => {
    const outdir = tempDir('layout');
    const synth = (): void => {
      const app = new App({ outdir });
      new GoogleIamProvider(new TerraformStack(app, 's'), 'Provider', { project: 'p-123456' });
      app.synth();
    };
    synth();
    const file = path.join(outdir, 'stacks', 's', PLUGIN_DIR, HOST, EXECUTABLE);
    const lock = path.join(outdir, 'stacks', 's', LOCK_FILE_NAME);
    const before = [fs.statSync(file), fs.statSync(lock)].map((s) => [s.ino, s.ctimeMs, s.mtimeMs]);
    synth();
    expect([fs.statSync(file), fs.statSync(lock)].map((s) => [s.ino, s.ctimeMs, s.mtimeMs])).toEqual(before);
  });

  test('HCL output lays the provider out the same way', () => {
    const dir = path.join(synthApp(true), 'stacks', 'grants');
    expect(fs.existsSync(path.join(dir, 'cdk.tf'))).toBe(true);
    expect(fs.statSync(path.join(dir, PLUGIN_DIR, HOST, EXECUTABLE)).isFile()).toBe(true);
    expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(true);
  });

  test.each<[Backend]>([['remote'], ['cloud']])(
    'a stack with a %s backend (its runs on Linux x86_64 machines) synthesizes with the linux_amd64 folder',
    (backend) => {
      const dir = synthStack(backend);
      expect(platformsIn(dir)).toEqual([...new Set([HOST, 'linux_amd64'])].sort());
      expect(fs.readdirSync(path.join(dir, PLUGIN_DIR, 'linux_amd64'))).toEqual([EXECUTABLE]);
      expect(fs.lstatSync(path.join(dir, PLUGIN_DIR, 'linux_amd64', EXECUTABLE)).isFile()).toBe(true);
    },
  );

  test.each(SUPPORTED_PLATFORMS.filter((platform) => !providerPackage().executables[platform]?.path).map((platform) => [platform]))(
    'a listed platform whose executable is not on this machine (%s) fails the synth, naming its npm package',
    (platform) => {
      const [, os_, cpu] = /^(\w+)_(\w+)$/.exec(platform)!;
      const name = `@cdktf-google-iam/provider-${os_ === 'windows' ? 'win32' : os_}-${cpu === 'amd64' ? 'x64' : cpu}@${VERSION}`;
      const error = thrown(() => synthStack('local', { [PROVIDER_PLATFORMS_CONTEXT]: [platform] }));
      expect(error).toBeInstanceOf(InstallError);
      expect(error.message).toMatch(new RegExp(`^The googleiam provider's executable for ${platform} is not on this machine `));
      expect(error.message).toContain(`install its package, ${name}, beside`);
      expect(error.message).toContain(`\`npm install --no-save --force ${name}\``);
    },
  );
});

describe('the platforms laid out (this machine darwin_arm64, a package with an executable for every platform)', () => {
  let fixture: ProviderPackage;
  beforeAll(() => {
    const dir = tempDir('fixture-package');
    const executables = Object.fromEntries(
      SUPPORTED_PLATFORMS.map((platform) => {
        const content = `#!/bin/sh\necho ${platform}\n`;
        const file = path.join(dir, platform, executableFileName('googleiam', platform));
        fs.mkdirSync(path.dirname(file));
        fs.writeFileSync(file, content, { mode: 0o755 });
        return [platform, { path: file, sha256: createHash('sha256').update(content).digest('hex') }];
      }),
    );
    fixture = { ...providerPackage(), executables };
  });
  beforeEach(() => {
    jest.spyOn(platformsModule, 'terraformPlatform').mockReturnValue('darwin_arm64');
    jest.spyOn(providerPackageModule, 'providerPackage').mockReturnValue(fixture);
  });

  test("a stack with a local backend: this machine's platform only", () => {
    const dir = synthStack('local');
    expect(platformsIn(dir)).toEqual(['darwin_arm64']);
    expect(fs.statSync(path.join(dir, PLUGIN_DIR, 'darwin_arm64', EXECUTABLE)).ino).toBe(
      fs.statSync(fixture.executables.darwin_arm64.path!).ino,
    );
  });

  test("the lock file carries every platform's hash, not only the ones laid out", () => {
    const dir = synthStack('local');
    const lock = fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8');
    for (const platform of SUPPORTED_PLATFORMS) expect(lock).toContain(`    "${providerPackageHash(fixture, platform)}",\n`);
    expect(lock.match(/"h1:/g)).toHaveLength(SUPPORTED_PLATFORMS.length);
  });

  test.each<[Backend]>([['remote'], ['cloud']])('a stack with a %s backend: linux_amd64 too', (backend) => {
    const dir = synthStack(backend);
    expect(platformsIn(dir)).toEqual(['darwin_arm64', 'linux_amd64']);
    expect(fs.readdirSync(path.join(dir, PLUGIN_DIR, 'linux_amd64'))).toEqual([EXECUTABLE]);
  });

  test.each<[string, unknown]>([
    ['a list', ['windows_amd64', 'linux_arm64']],
    ['a comma-separated string (cdktf synth --context)', ' windows_amd64, linux_arm64 '],
    ['a list naming this machine too', ['linux_arm64', 'darwin_arm64', 'windows_amd64', 'linux_arm64']],
  ])('the context %s adds its platforms, once each', (_, value) => {
    const dir = synthStack('local', { [PROVIDER_PLATFORMS_CONTEXT]: value });
    expect(platformsIn(dir)).toEqual(['darwin_arm64', 'linux_arm64', 'windows_amd64']);
    expect(fs.readdirSync(path.join(dir, PLUGIN_DIR, 'windows_amd64'))).toEqual([`${EXECUTABLE}.exe`]);
  });

  test('the context and a remote backend together', () => {
    const dir = synthStack('remote', { [PROVIDER_PLATFORMS_CONTEXT]: 'linux_amd64,darwin_amd64' });
    expect(platformsIn(dir)).toEqual(['darwin_amd64', 'darwin_arm64', 'linux_amd64']);
  });

  test.each<[string, unknown]>([
    ['an unknown platform', ['linux_amd64', 'freebsd_amd64']],
    ['an unknown platform in a string', 'linux_amd64,linux-arm64'],
    ['a number', 42],
    ['an object', { linux_amd64: true }],
    ['a list with a number', ['linux_amd64', 7]],
  ])('an invalid context value (%s) throws a ConstructValidationError naming the stack, the key and the value', (_, value) => {
    const error = thrown(() => synthStack('local', { [PROVIDER_PLATFORMS_CONTEXT]: value }));
    expect(error).toBeInstanceOf(ConstructValidationError);
    const validation = error as ConstructValidationError;
    expect(validation.where).toBe('s');
    expect(validation.field).toBe('context googleiam:providerPlatforms');
    expect(validation.value).toEqual(value);
    expect(validation.message).toMatch(
      /^s: context googleiam:providerPlatforms: expected a list of the platforms the provider has an executable for: /,
    );
    expect(validation.message).toContain(SUPPORTED_PLATFORMS.join(', '));
    expect(validation.message.endsWith(` (got ${JSON.stringify(value)})`)).toBe(true);
  });
});

describe('the Node.js synth runs on', () => {
  test("the oldest supported is package.json's engines.node and the provider bundle's esbuild target", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.engines.node).toBe(`>=${MIN_NODE_MAJOR}`);
    expect(manifest.scripts['bundle:provider']).toContain(`--target=node${MIN_NODE_MAJOR} `);
  });

  test('an older one gets a warning naming it; a supported one none', () => {
    expect(unsupportedNodeWarning('20.18.1', '/opt/node20/bin/node')).toBe(
      `cdktf-google-iam supports Node.js ${MIN_NODE_MAJOR} or newer; this synth runs on v20.18.1 (/opt/node20/bin/node). ` +
        'Install Node.js 22 or 24 (nvm install 24, or your package manager).',
    );
    expect(unsupportedNodeWarning(`${MIN_NODE_MAJOR}.0.0`)).toBeUndefined();
    expect(unsupportedNodeWarning('24.21.0')).toBeUndefined();
    expect(unsupportedNodeWarning()).toBeUndefined();
  });
});
