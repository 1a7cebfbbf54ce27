/**
 * The cdktf-google-iam-provider command: the layout it writes for the real build (this machine's native
 * executable, hard-linked from dist/provider/native), its lock entry with the hash of every platform the package
 * was built for (which a real `terraform init` of a hand-written .tf accepts with no warning and leaves as it is),
 * `--platform` (on a fixture package with an executable for every platform), its usage and exit codes, and the
 * compiled command run as a user runs it. Running the real provider is the provider's own tests' part.
 */
import { spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Writable } from 'stream';
import {
  executableFileName,
  lockEntry,
  LOCK_FILE_NAME,
  mergeLockEntry,
  providerPackage,
  providerPackageHash,
  SUPPORTED_PLATFORMS,
  terraformPlatform,
  type ProviderPackage,
} from '../../../lib/install';
import { main, parseArguments } from '../../../lib/install/cli';
import * as providerPackageModule from '../../../lib/install/provider-package';
import { TerraformCli } from '../../../lib/testing';

jest.setTimeout(60_000);

const ROOT = path.join(__dirname, '..', '..', '..');
const pkg = providerPackage();
const HOST = terraformPlatform();
const PACKAGE_PATH = path.join('registry.terraform.io', 'cdktf-google-iam', 'googleiam', pkg.version);
const EXECUTABLE = `terraform-provider-googleiam_v${pkg.version}`;
const BUILT = path.join(ROOT, 'dist', 'provider', 'native', HOST, executableFileName('googleiam', HOST));

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

/** As the command prints a path: relative to the working directory. */
const shown = (file: string): string => path.relative(process.cwd(), file);

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-cli-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("install [dir]: this machine's executable in terraform.d/plugins, hard-linked to the build's, and the lock entry of every platform", () => {
  const result = run(['install', dir]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const versionDir = path.join(dir, 'terraform.d', 'plugins', PACKAGE_PATH);
  expect(fs.readdirSync(versionDir)).toEqual([HOST]);
  const executable = path.join(versionDir, HOST, EXECUTABLE);
  expect(fs.readdirSync(path.dirname(executable))).toEqual([EXECUTABLE]);
  const [laidOut, built] = [fs.lstatSync(executable), fs.statSync(BUILT)];
  expect(laidOut.isFile()).toBe(true);
  expect([laidOut.dev, laidOut.ino]).toEqual([built.dev, built.ino]);
  expect(laidOut.mode & 0o777).toBe(0o755);
  const lock = fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8');
  expect(lock).toBe(mergeLockEntry(undefined, lockEntry(pkg)));
  expect(lock).toContain(`provider "registry.terraform.io/cdktf-google-iam/googleiam" {\n  version     = "${pkg.version}"`);
  for (const platform of Object.keys(pkg.executables)) expect(lock).toContain(`    "${providerPackageHash(pkg, platform)}",\n`);
  expect(result.stdout).toMatch(
    new RegExp(
      `^wrote ${escape(shown(executable))}\n` +
        `wrote the registry\\.terraform\\.io/cdktf-google-iam/googleiam entry of ${escape(path.join(shown(dir), LOCK_FILE_NAME))}\n\n` +
        'Add to your configuration:\n',
    ),
  );
  expect(result.stdout).toContain('source  = "cdktf-google-iam/googleiam"');
  expect(result.stdout).toContain(`version = "${pkg.version}"`);
  expect(result.stdout).not.toContain('provider_installation');
});

test('a hand-written .tf then initializes offline with no CLI configuration, no warning, the lock file untouched', async () => {
  expect(run(['install', dir]).code).toBe(0);
  fs.writeFileSync(
    path.join(dir, 'main.tf'),
    `terraform {\n  required_providers {\n    googleiam = {\n      source  = "cdktf-google-iam/googleiam"\n      version = "${pkg.version}"\n    }\n  }\n}\n`,
  );
  fs.writeFileSync(path.join(dir, 'empty.tfrc'), '');
  const lockFile = path.join(dir, LOCK_FILE_NAME);
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
  fs.writeFileSync(path.join(dir, LOCK_FILE_NAME), `# header\n\n${other}`);
  expect(run(['install', dir]).code).toBe(0);
  const executable = path.join(dir, 'terraform.d', 'plugins', PACKAGE_PATH, HOST, EXECUTABLE);
  const stamp = (file: string): number[] => {
    const stat = fs.statSync(file);
    return [stat.ino, stat.nlink, stat.ctimeMs, stat.mtimeMs];
  };
  const [executableBefore, lockBefore] = [stamp(executable), stamp(path.join(dir, LOCK_FILE_NAME))];
  const lock = fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8');
  expect(lock).toContain(other);
  const again = run(['install', dir]);
  expect(again.code).toBe(0);
  expect(again.stdout).toContain(`wrote ${shown(executable)}\n`);
  expect(stamp(executable)).toEqual(executableBefore);
  expect(stamp(path.join(dir, LOCK_FILE_NAME))).toEqual(lockBefore);
  expect(fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8')).toBe(lock);
});

test('install --mirror <dir>: the filesystem mirror layout and the CLI configuration to paste, no lock file', () => {
  const result = run(['install', '--mirror', dir]);
  expect(result.code).toBe(0);
  const executable = path.join(dir, PACKAGE_PATH, HOST, EXECUTABLE);
  expect(fs.readdirSync(dir)).toEqual(['registry.terraform.io']);
  expect(fs.statSync(executable).ino).toBe(fs.statSync(BUILT).ino);
  expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
  expect(result.stdout).toMatch(new RegExp(`^wrote ${escape(shown(executable))}\n\nAdd to your configuration:\n`));
  expect(result.stdout).toContain(`filesystem_mirror {\n    path    = ${JSON.stringify(dir)}`);
  expect(result.stdout).toContain('include = ["registry.terraform.io/cdktf-google-iam/googleiam"]');
});

describe('--platform, on a package with an executable for every platform', () => {
  let fixture: ProviderPackage;
  beforeEach(() => {
    const build = path.join(dir, 'build');
    const executables = Object.fromEntries(
      SUPPORTED_PLATFORMS.map((platform) => {
        const content = `#!/bin/sh\necho ${platform}\n`;
        const file = path.join(build, platform, executableFileName('googleiam', platform));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content, { mode: 0o755 });
        return [platform, { path: file, sha256: createHash('sha256').update(content).digest('hex') }];
      }),
    );
    fixture = { ...pkg, executables };
    jest.spyOn(providerPackageModule, 'providerPackage').mockReturnValue(fixture);
  });

  test("lays out each platform named (repeatable) besides this machine's, printing each file written", () => {
    const config = path.join(dir, 'config');
    const result = run(['install', '--platform', 'windows_amd64', config, '--platform', 'linux_arm64', '--platform', 'windows_amd64']);
    expect(result.code).toBe(0);
    const versionDir = path.join(config, 'terraform.d', 'plugins', PACKAGE_PATH);
    const platforms = [...new Set([HOST, 'windows_amd64', 'linux_arm64'])];
    expect(fs.readdirSync(versionDir).sort()).toEqual([...platforms].sort());
    const files = platforms.map((platform) =>
      path.join(versionDir, platform, `${EXECUTABLE}${platform === 'windows_amd64' ? '.exe' : ''}`),
    );
    for (const [i, file] of files.entries()) {
      expect(fs.statSync(file).ino).toBe(fs.statSync(fixture.executables[platforms[i]].path!).ino);
      expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    }
    expect(result.stdout.split('\n\n')[0].split('\n').slice(0, files.length)).toEqual(files.map((file) => `wrote ${shown(file)}`));
    // The lock entry: every platform of the package, whichever were laid out.
    const lock = fs.readFileSync(path.join(config, LOCK_FILE_NAME), 'utf8');
    expect(lock.match(/"h1:/g)).toHaveLength(SUPPORTED_PLATFORMS.length);
  });

  test('with --mirror', () => {
    const result = run(['install', '--mirror', dir, '--platform', 'darwin_arm64']);
    expect(result.code).toBe(0);
    expect(fs.readdirSync(path.join(dir, PACKAGE_PATH)).sort()).toEqual([...new Set([HOST, 'darwin_arm64'])].sort());
  });
});

test('a platform whose executable is not on this machine: exit 1, the message alone, naming its package; no lock entry', () => {
  const missing = SUPPORTED_PLATFORMS.find((platform) => !pkg.executables[platform]?.path)!;
  const result = run(['install', dir, '--platform', missing]);
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(
    new RegExp(`^cdktf-google-iam-provider: The googleiam provider's executable for ${missing} is not on this machine \\(.*\\)\\.\n$`),
  );
  expect(result.stderr).toContain('`npm install --no-save --force @cdktf-google-iam/provider-');
  expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
});

test('an unknown platform: exit 1, listing the supported ones', () => {
  const result = run(['install', dir, '--platform', 'freebsd_amd64']);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe(
    'cdktf-google-iam-provider: The googleiam provider has no executable for freebsd_amd64; ' +
      `it has one for ${SUPPORTED_PLATFORMS.join(', ')}.\n`,
  );
});

describe('the compiled command, in a process of its own as a user starts it', () => {
  const cli = path.join(ROOT, 'lib', 'install', 'cli.js');

  test('install [dir] exits 0, having laid out the executable', () => {
    const target = path.join(dir, 'config');
    const result = spawnSync(process.execPath, [cli, 'install', target], { encoding: 'utf8', cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const executable = path.join(target, 'terraform.d', 'plugins', PACKAGE_PATH, HOST, EXECUTABLE);
    expect(result.stdout).toContain(`wrote ${path.relative(dir, executable)}\n`);
    expect(fs.statSync(executable).ino).toBe(fs.statSync(BUILT).ino);
  });

  test('on a machine the provider has no executable for (a Node.js that says it runs on FreeBSD): exit 1, the message alone, nothing written', () => {
    const preload = path.join(dir, 'freebsd.js');
    fs.writeFileSync(preload, "Object.defineProperty(process, 'platform', { value: 'freebsd' });\n");
    const target = path.join(dir, 'config');
    const result = spawnSync(process.execPath, ['--require', preload, cli, 'install', target], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `cdktf-google-iam-provider: The googleiam provider has no executable for ${terraformPlatform({ platform: 'freebsd', arch: process.arch })}; ` +
        `it has one for ${SUPPORTED_PLATFORMS.join(', ')}.\n`,
    );
    expect(fs.existsSync(target)).toBe(false);
  });
});

test("this machine's platform, as the installer names it, is the one terraform reports and installs", async () => {
  const version = await TerraformCli.run(['version', '-json'], { cwd: dir });
  expect(terraformPlatform()).toBe((JSON.parse(version.stdout) as { platform: string }).platform);
  expect(SUPPORTED_PLATFORMS).toContain(terraformPlatform());
});

describe('the arguments', () => {
  test("install: the folder (default .), --mirror, each --platform once, after this machine's", () => {
    expect(parseArguments(['install'])).toEqual({ kind: 'install', dir: '.', mirror: false, platforms: [HOST] });
    expect(parseArguments(['install', '--platform', 'linux_arm64', 'x', '--platform', 'linux_arm64', '--platform', HOST])).toEqual({
      kind: 'install',
      dir: 'x',
      mirror: false,
      platforms: [...new Set([HOST, 'linux_arm64'])],
    });
    expect(parseArguments(['install', '--mirror', 'm'])).toEqual({ kind: 'install', dir: 'm', mirror: true, platforms: [HOST] });
  });

  test('--help prints the usage and exits 0, as -h and no arguments do', () => {
    for (const args of [['--help'], ['-h'], [], ['install', dir, '--help']]) {
      const help = run(args);
      expect(help.code).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout).toMatch(/^Usage:\n  cdktf-google-iam-provider install \[dir\]\n/);
      expect(help.stdout).toContain('cdktf-google-iam-provider install --mirror <dir>');
      expect(help.stdout).toContain('--platform <os>_<arch>');
    }
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test.each([
    [['install', '--frobnicate'], 'unknown option "--frobnicate"'],
    [['uninstall'], 'unknown command "uninstall"'],
    [['install', '--platform'], '--platform needs a platform, e.g. linux_amd64'],
    [['install', '--platform', '--mirror', 'x'], '--platform needs a platform, e.g. linux_amd64'],
    [['install', '--mirror'], '--mirror needs a folder'],
    [['install', 'a', 'b'], 'one folder expected, got 2'],
  ])('%j is a usage error: exit 2, the reason and the usage on stderr, nothing written', (args, reason) => {
    const result = run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^cdktf-google-iam-provider: ${escape(reason)}\n\nUsage:\n`));
    expect(fs.existsSync(path.join(process.cwd(), 'terraform.d'))).toBe(false);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
