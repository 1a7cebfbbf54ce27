/**
 * installProvider's layout, on a fixture package whose executables are small files (with their real SHA-256):
 * one folder per platform asked for (by default this machine's only), holding exactly one file, the platform's
 * executable hard-linked (or, from a source that is not executable, copied) as `terraform-provider-<type>_v<version>`,
 * mode 0755; laying it out again changes nothing; and the refusals: an executable that is not the one the package was
 * built with, one that is not on this machine, a platform the provider has no executable for. And the platform names
 * (platforms.ts) the layout and the error messages use.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  executableFileName,
  executableName,
  installProvider,
  InstallError,
  packageHash,
  platformPackageName,
  providerPackageHash,
  REMOTE_RUN_PLATFORM,
  SUPPORTED_PLATFORMS,
  terraformPlatform,
  type ProviderExecutable,
  type ProviderPackage,
} from '../../../lib/install';
import { thrownBy } from '../../support/rejection';

const sha256 = (content: string | Buffer): string => createHash('sha256').update(content).digest('hex');

let root: string;
let pkg: ProviderPackage;

/** Writes `platform`'s fixture executable (content naming the platform) into root/build and describes it. */
function writeExecutable(
  platform: string,
  mode = 0o755,
  content = `#!/bin/sh\necho fixture provider for ${platform}\n`,
): ProviderExecutable {
  const file = path.join(root, 'build', platform, executableFileName('fixture', platform));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  fs.chmodSync(file, mode);
  return { path: file, sha256: sha256(content) };
}

/** The fixture package with some executables replaced. */
function withExecutables(executables: Record<string, ProviderExecutable>): ProviderPackage {
  return { ...pkg, executables: { ...pkg.executables, ...executables } };
}

/** What `fn` throws (the test fails if it throws nothing). */
const thrown = (fn: () => unknown): Error => thrownBy(fn, Error);

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-install-'));
  pkg = {
    hostname: 'registry.terraform.io',
    namespace: 'example',
    type: 'fixture',
    version: '1.2.3',
    executables: Object.fromEntries(SUPPORTED_PLATFORMS.map((platform) => [platform, writeExecutable(platform)])),
  };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const VERSION_PATH = path.join('registry.terraform.io', 'example', 'fixture', '1.2.3');
const pluginsDir = (dir: string): string => path.join(dir, 'terraform.d', 'plugins', VERSION_PATH);
const fileName = (platform: string): string =>
  platform === 'windows_amd64' ? 'terraform-provider-fixture_v1.2.3.exe' : 'terraform-provider-fixture_v1.2.3';

describe('installProvider', () => {
  test("by default, this machine's platform only: one folder holding one file, hard-linked to the package's, mode 0755", () => {
    const dir = path.join(root, 'config');
    const installation = installProvider(dir, { layout: 'plugins', package: pkg });
    const platform = terraformPlatform();
    expect(fs.readdirSync(pluginsDir(dir))).toEqual([platform]);
    const packageDir = path.join(pluginsDir(dir), platform);
    const executable = path.join(packageDir, fileName(platform));
    expect(fs.readdirSync(packageDir)).toEqual([fileName(platform)]);
    expect(installation).toEqual({ package: pkg, packageDirs: [packageDir], executables: [executable] });
    const [target, source] = [fs.lstatSync(executable), fs.statSync(pkg.executables[platform].path!)];
    expect(target.isFile()).toBe(true);
    expect([target.dev, target.ino]).toEqual([source.dev, source.ino]);
    expect(target.nlink).toBe(2);
    expect(target.mode & 0o777).toBe(0o755);
  });

  test('the platforms of `host` by default: another machine gets its own', () => {
    const dir = path.join(root, 'config');
    installProvider(dir, { layout: 'plugins', package: pkg, host: { platform: 'win32', arch: 'x64' } });
    expect(fs.readdirSync(pluginsDir(dir))).toEqual(['windows_amd64']);
    expect(fs.readdirSync(path.join(pluginsDir(dir), 'windows_amd64'))).toEqual(['terraform-provider-fixture_v1.2.3.exe']);
  });

  test('every platform asked for (once each), each with its own executable; `.exe` on Windows', () => {
    const dir = path.join(root, 'config');
    const platforms = [...SUPPORTED_PLATFORMS, 'linux_amd64'];
    const installation = installProvider(dir, { layout: 'plugins', package: pkg, platforms });
    expect(fs.readdirSync(pluginsDir(dir)).sort()).toEqual([...SUPPORTED_PLATFORMS].sort());
    expect(installation.packageDirs).toEqual(SUPPORTED_PLATFORMS.map((platform) => path.join(pluginsDir(dir), platform)));
    for (const platform of SUPPORTED_PLATFORMS) {
      const packageDir = path.join(pluginsDir(dir), platform);
      expect(fs.readdirSync(packageDir)).toEqual([fileName(platform)]);
      const executable = path.join(packageDir, fileName(platform));
      expect(fs.readFileSync(executable, 'utf8')).toBe(`#!/bin/sh\necho fixture provider for ${platform}\n`);
      expect(fs.statSync(executable).ino).toBe(fs.statSync(pkg.executables[platform].path!).ino);
      expect(fs.statSync(executable).mode & 0o777).toBe(0o755);
    }
  });

  test("layout 'mirror': the filesystem mirror's folders at dir itself, no terraform.d", () => {
    const dir = path.join(root, 'mirror');
    const installation = installProvider(dir, { layout: 'mirror', package: pkg, platforms: ['darwin_arm64'] });
    expect(fs.readdirSync(dir)).toEqual(['registry.terraform.io']);
    const executable = path.join(dir, VERSION_PATH, 'darwin_arm64', 'terraform-provider-fixture_v1.2.3');
    expect(installation.executables).toEqual([executable]);
    expect(fs.readdirSync(path.dirname(executable))).toEqual([path.basename(executable)]);
    expect(fs.statSync(executable).ino).toBe(fs.statSync(pkg.executables.darwin_arm64.path!).ino);
  });

  test('laying it out again changes nothing: the same inode, not linked again, no temporary file left', () => {
    const dir = path.join(root, 'config');
    const platforms = ['linux_amd64', 'windows_amd64'];
    const first = installProvider(dir, { layout: 'plugins', package: pkg, platforms });
    const before = first.executables.map((file) => fs.statSync(file));
    const second = installProvider(dir, { layout: 'plugins', package: pkg, platforms });
    expect(second.executables).toEqual(first.executables);
    second.executables.forEach((file, i) => {
      const after = fs.statSync(file);
      // A new link (even of the same inode) would change the link count's change time.
      expect([after.ino, after.nlink, after.ctimeMs, after.mtimeMs]).toEqual([
        before[i].ino,
        before[i].nlink,
        before[i].ctimeMs,
        before[i].mtimeMs,
      ]);
      expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    });
  });

  test('a file already there with the same content, executable, is left as it is (another file system: a copy)', () => {
    const dir = path.join(root, 'config');
    const executable = path.join(pluginsDir(dir), 'linux_arm64', 'terraform-provider-fixture_v1.2.3');
    fs.mkdirSync(path.dirname(executable), { recursive: true });
    fs.copyFileSync(pkg.executables.linux_arm64.path!, executable);
    fs.chmodSync(executable, 0o755);
    const before = fs.statSync(executable);
    installProvider(dir, { layout: 'plugins', package: pkg, platforms: ['linux_arm64'] });
    const after = fs.statSync(executable);
    expect([after.ino, after.ctimeMs]).toEqual([before.ino, before.ctimeMs]);
    expect(after.ino).not.toBe(fs.statSync(pkg.executables.linux_arm64.path!).ino);
  });

  test('a file there with other content, or the same content not executable, is replaced by the link', () => {
    const dir = path.join(root, 'config');
    const linux = path.join(pluginsDir(dir), 'linux_amd64', 'terraform-provider-fixture_v1.2.3');
    const darwin = path.join(pluginsDir(dir), 'darwin_amd64', 'terraform-provider-fixture_v1.2.3');
    for (const file of [linux, darwin]) fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(linux, 'an earlier version\n', { mode: 0o755 });
    fs.copyFileSync(pkg.executables.darwin_amd64.path!, darwin);
    fs.chmodSync(darwin, 0o644);
    installProvider(dir, { layout: 'plugins', package: pkg, platforms: ['linux_amd64', 'darwin_amd64'] });
    for (const [file, platform] of [
      [linux, 'linux_amd64'],
      [darwin, 'darwin_amd64'],
    ]) {
      expect(fs.statSync(file).ino).toBe(fs.statSync(pkg.executables[platform].path!).ino);
      expect(fs.statSync(file).mode & 0o777).toBe(0o755);
      expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    }
  });

  test("anything else in a platform folder (an earlier version's executable, a folder) is removed: Terraform hashes the whole folder", () => {
    const dir = path.join(root, 'config');
    const packageDir = path.join(pluginsDir(dir), 'linux_amd64');
    fs.mkdirSync(path.join(packageDir, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(packageDir, 'docs', 'README.md'), 'readme\n');
    fs.writeFileSync(path.join(packageDir, 'terraform-provider-fixture_v1.2.2'), 'older\n', { mode: 0o755 });
    fs.writeFileSync(path.join(packageDir, 'terraform-provider-fixture_v1.2.3.12345.tmp'), 'half a file');
    installProvider(dir, { layout: 'plugins', package: pkg, platforms: ['linux_amd64'] });
    expect(fs.readdirSync(packageDir)).toEqual(['terraform-provider-fixture_v1.2.3']);
    expect(packageHash(packageDir)).toBe(providerPackageHash(pkg, 'linux_amd64'));
  });

  test('a source that is not executable (mode 0644) is copied, and the copy is 0755; the source is left as it was', () => {
    const dir = path.join(root, 'config');
    const source = writeExecutable('linux_amd64', 0o644);
    const { executables } = installProvider(dir, {
      layout: 'plugins',
      package: withExecutables({ linux_amd64: source }),
      platforms: ['linux_amd64'],
    });
    const [copy, original] = [fs.statSync(executables[0]), fs.statSync(source.path!)];
    expect(copy.ino).not.toBe(original.ino);
    expect(copy.mode & 0o777).toBe(0o755);
    expect(original.mode & 0o777).toBe(0o644);
    expect(original.nlink).toBe(1);
    expect(fs.readFileSync(executables[0]).equals(fs.readFileSync(source.path!))).toBe(true);
    expect(fs.readdirSync(path.dirname(executables[0]))).toEqual(['terraform-provider-fixture_v1.2.3']);
  });

  test('an executable that is not the one the package was built with is refused, naming the platform, the file, both digests and the package to install; nothing is written', () => {
    const dir = path.join(root, 'config');
    const file = pkg.executables.linux_arm64.path!;
    fs.writeFileSync(file, 'another build\n');
    const error = thrown(() => installProvider(dir, { layout: 'plugins', package: pkg, platforms: ['linux_arm64'] }));
    expect(error).toBeInstanceOf(InstallError);
    expect(error.message).toBe(
      `The googleiam provider's executable for linux_arm64 at ${file} is not the one this package was built with ` +
        `(SHA-256 ${sha256('another build\n')}, expected ${pkg.executables.linux_arm64.sha256}): ` +
        'install @cdktf-google-iam/provider-linux-arm64@1.2.3, or run `npm run build` in a checkout.',
    );
    expect(fs.existsSync(dir)).toBe(false);
  });

  test("a platform whose executable is not on this machine is refused, naming its npm package and how to add another platform's", () => {
    const dir = path.join(root, 'config');
    const missing = withExecutables({ darwin_amd64: { sha256: pkg.executables.darwin_amd64.sha256 } });
    const error = thrown(() => installProvider(dir, { layout: 'plugins', package: missing, platforms: ['linux_amd64', 'darwin_amd64'] }));
    expect(error).toBeInstanceOf(InstallError);
    expect(error.message).toBe(
      "The googleiam provider's executable for darwin_amd64 is not on this machine (its npm package is not installed): " +
        'install its package, @cdktf-google-iam/provider-darwin-x64@1.2.3, beside this package or in the folder synth runs in ' +
        '(from Python, Java, Go or .NET: `npm install @cdktf-google-iam/provider-darwin-x64@1.2.3` there; ' +
        "npm installs only this machine's platform: `npm install --no-save --force @cdktf-google-iam/provider-darwin-x64@1.2.3` adds another's).",
    );
    expect(fs.existsSync(path.join(pluginsDir(dir), 'darwin_amd64'))).toBe(false);
  });

  test('a supported platform this build has no executable for is refused the same way', () => {
    const { windows_amd64: _windows, ...others } = pkg.executables;
    const error = thrown(() =>
      installProvider(path.join(root, 'config'), {
        layout: 'mirror',
        package: { ...pkg, executables: others },
        platforms: ['windows_amd64'],
      }),
    );
    expect(error).toBeInstanceOf(InstallError);
    expect(error.message).toMatch(
      /^The googleiam provider's executable for windows_amd64 is not on this machine \(this build of the package has none\): /,
    );
    expect(error.message).toContain('`npm install --no-save --force @cdktf-google-iam/provider-win32-x64@1.2.3`');
  });

  test.each([['freebsd_amd64'], ['linux_arm'], ['windows_arm64'], ['linux-amd64']])(
    'a platform the provider has no executable for (%s) is refused, listing those it has; nothing is written',
    (platform) => {
      const dir = path.join(root, 'config');
      const error = thrown(() => installProvider(dir, { layout: 'plugins', package: pkg, platforms: [platform] }));
      expect(error).toBeInstanceOf(InstallError);
      expect(error.message).toBe(
        `The googleiam provider has no executable for ${platform}; it has one for linux_amd64, linux_arm64, darwin_amd64, darwin_arm64, windows_amd64.`,
      );
      expect(fs.existsSync(dir)).toBe(false);
    },
  );

  test("on a machine it has no executable for, the default platform (the machine's) is refused", () => {
    const error = thrown(() =>
      installProvider(path.join(root, 'config'), { layout: 'plugins', package: pkg, host: { platform: 'freebsd', arch: 'x64' } }),
    );
    expect(error).toBeInstanceOf(InstallError);
    expect(error.message).toMatch(/^The googleiam provider has no executable for freebsd_amd64; /);
  });
});

describe("a platform's lock file hash", () => {
  test.each(SUPPORTED_PLATFORMS.map((platform) => [platform]))(
    '%s: from the digest alone, the h1 hash of the folder installProvider lays out',
    (platform) => {
      const dir = path.join(root, 'config');
      const [packageDir] = installProvider(dir, { layout: 'plugins', package: pkg, platforms: [platform] }).packageDirs;
      expect(providerPackageHash(pkg, platform)).toBe(packageHash(packageDir));
      expect(providerPackageHash(pkg, platform)).toMatch(/^h1:[A-Za-z0-9+/]{43}=$/);
    },
  );

  test("differs by platform (each its own executable) and names the file as laid out (Windows' .exe)", () => {
    const hashes = SUPPORTED_PLATFORMS.map((platform) => providerPackageHash(pkg, platform));
    expect(new Set(hashes).size).toBe(SUPPORTED_PLATFORMS.length);
    // The same digest under the name without .exe is another folder.
    const asLinux = { ...pkg, executables: { ...pkg.executables, linux_amd64: pkg.executables.windows_amd64 } };
    expect(providerPackageHash(asLinux, 'linux_amd64')).not.toBe(providerPackageHash(pkg, 'windows_amd64'));
  });

  test('executableName: terraform-provider-<type>_v<version>, .exe on Windows', () => {
    expect(executableName(pkg, 'linux_amd64')).toBe('terraform-provider-fixture_v1.2.3');
    expect(executableName(pkg, 'darwin_arm64')).toBe('terraform-provider-fixture_v1.2.3');
    expect(executableName(pkg, 'windows_amd64')).toBe('terraform-provider-fixture_v1.2.3.exe');
  });
});

describe('the platform names', () => {
  test.each([
    ['linux', 'x64', 'linux_amd64'],
    ['linux', 'arm64', 'linux_arm64'],
    ['darwin', 'x64', 'darwin_amd64'],
    ['darwin', 'arm64', 'darwin_arm64'],
    ['win32', 'x64', 'windows_amd64'],
    ['win32', 'ia32', 'windows_386'],
    ['win32', 'arm64', 'windows_arm64'],
    ['freebsd', 'x64', 'freebsd_amd64'],
    ['linux', 'arm', 'linux_arm'],
    ['sunos', 'x64', 'solaris_amd64'],
  ])('Node.js %s %s is Terraform platform %s', (platform, arch, expected) => {
    expect(terraformPlatform({ platform, arch })).toBe(expected);
  });

  test("this process's platform is the one of process.platform and process.arch", () => {
    expect(terraformPlatform()).toBe(terraformPlatform({ platform: process.platform, arch: process.arch }));
  });

  test('the supported platforms, and the one remote runs get', () => {
    expect(SUPPORTED_PLATFORMS).toEqual(['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64', 'windows_amd64']);
    expect(REMOTE_RUN_PLATFORM).toBe('linux_amd64');
  });

  test.each([
    ['linux_amd64', '@cdktf-google-iam/provider-linux-x64'],
    ['linux_arm64', '@cdktf-google-iam/provider-linux-arm64'],
    ['darwin_amd64', '@cdktf-google-iam/provider-darwin-x64'],
    ['darwin_arm64', '@cdktf-google-iam/provider-darwin-arm64'],
    ['windows_amd64', '@cdktf-google-iam/provider-win32-x64'],
  ])("%s's npm package, named by npm's os and cpu, is %s", (platform, name) => {
    expect(platformPackageName(platform)).toBe(name);
  });

  test("every supported platform's package is named back from the Node.js names of its machine", () => {
    for (const platform of SUPPORTED_PLATFORMS) {
      const [, os_, cpu] = /^@cdktf-google-iam\/provider-([^-]+)-([^-]+)$/.exec(platformPackageName(platform))!;
      expect(terraformPlatform({ platform: os_, arch: cpu })).toBe(platform);
    }
  });

  test.each([
    ['linux_amd64', 'terraform-provider-googleiam'],
    ['darwin_arm64', 'terraform-provider-googleiam'],
    ['windows_amd64', 'terraform-provider-googleiam.exe'],
  ])("%s's executable in its package and in a build is %s", (platform, name) => {
    expect(executableFileName('googleiam', platform)).toBe(name);
  });
});
