/**
 * The cdktf-google-iam-provider command: the layout it writes for the real bundle (built here if missing),
 * its lock entry (which a real `terraform init` of a hand-written .tf accepts with no warning and leaves
 * as it is), its usage and exit codes. Running the real provider is the provider's own tests' part.
 */
import { execSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Writable } from 'stream';
import {
  bundleFileName,
  launcherScript,
  providerPackage,
  providerPackageHash,
  SUPPORTED_PLATFORMS,
  terraformPlatform,
} from '../../../lib/install';
import { main } from '../../../lib/install/cli';
import { TerraformCli } from '../../../lib/testing';

jest.setTimeout(60_000);

const ROOT = path.join(__dirname, '..', '..', '..');
const pkg = providerPackage();
const PACKAGE_PATH = path.join('registry.terraform.io', 'cdktf-google-iam', 'googleiam', pkg.version);

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const sink = (write: (s: string) => void): Writable =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        write(chunk.toString());
        done();
      },
    });
  const code = main(
    args,
    sink((s) => (stdout += s)),
    sink((s) => (stderr += s)),
  );
  return { code, stdout, stderr };
}

let dir: string;
beforeAll(() => {
  if (!fs.existsSync(pkg.bundlePath)) execSync('npm run --silent bundle:provider', { cwd: ROOT, stdio: 'inherit' });
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-cli-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('install [dir]: the bundle once, a launcher for every platform in terraform.d/plugins, and the lock entry', () => {
  const result = run(['install', dir]);
  expect(result.code).toBe(0);
  const bundle = fs.readFileSync(pkg.bundlePath);
  const versionDir = path.join(dir, 'terraform.d', 'plugins', PACKAGE_PATH);
  const bundleName = bundleFileName(pkg, bundle);
  expect(fs.readdirSync(versionDir).sort()).toEqual([...SUPPORTED_PLATFORMS, bundleName].sort());
  expect(fs.readFileSync(path.join(versionDir, bundleName)).equals(bundle)).toBe(true);
  for (const platform of SUPPORTED_PLATFORMS) {
    const executable = path.join(versionDir, platform, `terraform-provider-googleiam_v${pkg.version}`);
    expect(fs.readFileSync(executable, 'utf8')).toBe(launcherScript(pkg, bundle));
    expect(fs.statSync(executable).mode & 0o755).toBe(0o755);
    expect(fs.readdirSync(path.dirname(executable))).toHaveLength(1);
  }
  const lock = fs.readFileSync(path.join(dir, '.terraform.lock.hcl'), 'utf8');
  expect(lock).toContain(`provider "registry.terraform.io/cdktf-google-iam/googleiam" {\n  version     = "${pkg.version}"`);
  expect(lock).toContain(`"${providerPackageHash(pkg)}",`);
  expect(result.stdout).toContain(`wrote ${path.relative(process.cwd(), path.join(versionDir, bundleName))}\n`);
  expect(result.stdout).toContain('source  = "cdktf-google-iam/googleiam"');
  expect(result.stdout).toContain(`version = "${pkg.version}"`);
});

test('a hand-written .tf then initializes offline with no CLI configuration, no warning, the lock file untouched', async () => {
  run(['install', dir]);
  fs.writeFileSync(
    path.join(dir, 'main.tf'),
    `terraform {\n  required_providers {\n    googleiam = {\n      source  = "cdktf-google-iam/googleiam"\n      version = "${pkg.version}"\n    }\n  }\n}\n`,
  );
  fs.writeFileSync(path.join(dir, 'empty.tfrc'), '');
  const lockFile = path.join(dir, '.terraform.lock.hcl');
  const before = fs.readFileSync(lockFile);
  const init = await TerraformCli.run(['init', '-input=false', '-no-color'], {
    cwd: dir,
    env: { TF_CLI_CONFIG_FILE: path.join(dir, 'empty.tfrc') },
  });
  expect(init.output).toContain(`Installed cdktf-google-iam/googleiam v${pkg.version} (unauthenticated)`);
  expect(init.output).not.toContain('Warning');
  expect(fs.readFileSync(lockFile).equals(before)).toBe(true);
});

test('installing again rewrites nothing; another provider in the lock file is kept', () => {
  const other = 'provider "registry.terraform.io/hashicorp/random" {\n  version = "3.6.0"\n  hashes = [\n    "h1:abc=",\n  ]\n}\n';
  fs.writeFileSync(path.join(dir, '.terraform.lock.hcl'), `# header\n\n${other}`);
  run(['install', dir]);
  const executable = path.join(dir, 'terraform.d', 'plugins', PACKAGE_PATH, 'linux_amd64', `terraform-provider-googleiam_v${pkg.version}`);
  const written = fs.statSync(executable).mtimeMs;
  const lock = fs.readFileSync(path.join(dir, '.terraform.lock.hcl'), 'utf8');
  expect(lock).toContain(other);
  run(['install', dir]);
  expect(fs.statSync(executable).mtimeMs).toBe(written);
  expect(fs.readFileSync(path.join(dir, '.terraform.lock.hcl'), 'utf8')).toBe(lock);
});

test('install --mirror <dir>: the filesystem mirror layout and the CLI configuration to paste, no lock file', () => {
  const result = run(['install', '--mirror', dir]);
  expect(result.code).toBe(0);
  expect(fs.existsSync(path.join(dir, PACKAGE_PATH, 'darwin_arm64', `terraform-provider-googleiam_v${pkg.version}`))).toBe(true);
  expect(fs.existsSync(path.join(dir, '.terraform.lock.hcl'))).toBe(false);
  expect(result.stdout).toContain(`filesystem_mirror {\n    path    = ${JSON.stringify(dir)}`);
});

test('on Windows the command exits 1 with the message alone, naming the machine and the supported platforms, and writes nothing', () => {
  // The command in a process of its own, as a user starts it (the compiled lib/install/cli.js), on a Node.js
  // that says it runs on Windows: the only way to run it there from here.
  const preload = path.join(dir, 'windows.js');
  fs.writeFileSync(preload, "Object.defineProperty(process, 'platform', { value: 'win32' });\n");
  const target = path.join(dir, 'config');
  const result = spawnSync(process.execPath, ['--require', preload, path.join(ROOT, 'lib', 'install', 'cli.js'), 'install', target], {
    encoding: 'utf8',
  });
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(
    `cdktf-google-iam-provider: This machine is ${terraformPlatform({ platform: 'win32', arch: process.arch })}; the googleiam provider ` +
      'runs on linux_amd64, linux_arm64, darwin_amd64, darwin_arm64 only (Terraform starts it as a POSIX sh script that runs Node.js). ' +
      'On Windows, run cdktf and terraform in WSL.\n',
  );
  expect(fs.existsSync(target)).toBe(false);
});

test("this machine's platform, as the check names it, is the one terraform reports and installs", async () => {
  const version = await TerraformCli.run(['version', '-json'], { cwd: dir });
  expect(terraformPlatform()).toBe((JSON.parse(version.stdout) as { platform: string }).platform);
  expect(SUPPORTED_PLATFORMS).toContain(terraformPlatform());
});

test('--help prints the usage and exits 0; an unknown option prints it and exits 2', () => {
  const help = run(['--help']);
  expect(help.code).toBe(0);
  expect(help.stdout).toContain('install [dir]');
  expect(run(['-h']).code).toBe(0);
  const unknown = run(['install', '--frobnicate']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('unknown option "--frobnicate"');
  expect(unknown.stderr).toContain('Usage:');
  expect(run(['uninstall']).code).toBe(2);
});
