/**
 * installProvider's layout, on a fixture package: the bundle once in the version folder, the same small
 * launcher in every platform folder (so one `h1:` hash, the launcher's), an earlier bundle cleared out; and
 * the host check: laying the provider out on a machine it cannot run on fails at once, naming the machine
 * and the supported platforms (the platform is injected here; the installer command's test runs it in a
 * process of its own).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  bundleFileName,
  checkHostPlatform,
  hashPackageFiles,
  installProvider,
  InstallError,
  launcherScript,
  MIN_NODE_MAJOR,
  providerPackageHash,
  SUPPORTED_PLATFORMS,
  terraformPlatform,
  type ProviderPackage,
} from '../../../lib/install';

let root: string;
let pkg: ProviderPackage;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-install-'));
  pkg = {
    hostname: 'registry.terraform.io',
    namespace: 'example',
    type: 'fixture',
    version: '1.2.3',
    bundlePath: path.join(root, 'bundle.js'),
  };
  fs.writeFileSync(pkg.bundlePath, 'console.log("first");\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const versionDir = (dir: string) => path.join(dir, 'terraform.d', 'plugins', 'registry.terraform.io', 'example', 'fixture', '1.2.3');

describe('installProvider', () => {
  test('writes the bundle once and the same launcher, executable, in every platform folder; the hash is the launcher folder', () => {
    const dir = path.join(root, 'config');
    const installation = installProvider(dir, { layout: 'plugins', package: pkg });
    const bundle = fs.readFileSync(pkg.bundlePath);
    const bundleName = bundleFileName(pkg, bundle);
    expect(bundleName).toMatch(/^terraform-provider-fixture_v1\.2\.3\.[0-9a-f]{64}\.js$/);
    expect(fs.readdirSync(versionDir(dir)).sort()).toEqual([...SUPPORTED_PLATFORMS, bundleName].sort());
    expect(installation.bundle).toBe(path.join(versionDir(dir), bundleName));
    expect(fs.readFileSync(installation.bundle).equals(bundle)).toBe(true);
    const launcher = launcherScript(pkg, bundle);
    expect(launcher.startsWith('#!/bin/sh\n')).toBe(true);
    expect(launcher).toContain(`b=${bundleName}\n`);
    expect(Buffer.byteLength(launcher)).toBeLessThan(2048);
    for (const platform of SUPPORTED_PLATFORMS) {
      const executable = path.join(versionDir(dir), platform, 'terraform-provider-fixture_v1.2.3');
      expect(fs.readdirSync(path.dirname(executable))).toEqual(['terraform-provider-fixture_v1.2.3']);
      expect(fs.readFileSync(executable, 'utf8')).toBe(launcher);
      expect(fs.statSync(executable).mode & 0o777).toBe(0o755);
    }
    const hash = hashPackageFiles([{ path: 'terraform-provider-fixture_v1.2.3', content: Buffer.from(launcher) }]);
    expect(installation.hash).toBe(hash);
    expect(providerPackageHash(pkg)).toBe(hash);
  });

  test('a changed bundle gets a new name, a new launcher and a new hash, and the earlier bundle is removed', () => {
    const dir = path.join(root, 'config');
    const first = installProvider(dir, { layout: 'mirror', package: pkg });
    fs.writeFileSync(pkg.bundlePath, 'console.log("second");\n');
    const second = installProvider(dir, { layout: 'mirror', package: pkg });
    expect(second.bundle).not.toBe(first.bundle);
    expect(second.hash).not.toBe(first.hash);
    const mirrorVersionDir = path.join(dir, 'registry.terraform.io', 'example', 'fixture', '1.2.3');
    expect(fs.readdirSync(mirrorVersionDir).filter((f) => f.endsWith('.js'))).toEqual([path.basename(second.bundle)]);
  });

  test('on Windows it throws before writing anything', () => {
    const dir = path.join(root, 'config');
    expect(() => installProvider(dir, { layout: 'plugins', package: pkg, host: { platform: 'win32', arch: 'x64' } })).toThrow(
      'This machine is windows_amd64; the googleiam provider runs on linux_amd64, linux_arm64, darwin_amd64, darwin_arm64 only ' +
        '(Terraform starts it as a POSIX sh script that runs Node.js). On Windows, run cdktf and terraform in WSL.',
    );
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('the host platform', () => {
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
  ])('%s %s is Terraform platform %s', (platform, arch, expected) => {
    expect(terraformPlatform({ platform, arch })).toBe(expected);
  });

  test.each(SUPPORTED_PLATFORMS.map((p) => [p]))('%s is supported', (name) => {
    const [os_, arch] = name.split('_');
    expect(() => checkHostPlatform({ platform: os_, arch: arch === 'amd64' ? 'x64' : arch })).not.toThrow();
  });

  test.each([
    ['win32', 'x64', 'windows_amd64'],
    ['win32', 'arm64', 'windows_arm64'],
    ['freebsd', 'x64', 'freebsd_amd64'],
    ['linux', 'arm', 'linux_arm'],
    ['linux', 'ia32', 'linux_386'],
  ])('%s %s is not: an InstallError naming %s and the supported platforms', (platform, arch, name) => {
    let error: unknown;
    try {
      checkHostPlatform({ platform, arch });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InstallError);
    expect((error as Error).message).toMatch(
      new RegExp(`^This machine is ${name}; the googleiam provider runs on ${SUPPORTED_PLATFORMS.join(', ')} only `),
    );
  });
});

test("the launcher's oldest Node.js is package.json's engines.node and the provider bundle's esbuild target", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8'));
  expect(manifest.engines.node).toBe(`>=${MIN_NODE_MAJOR}`);
  expect(manifest.scripts['bundle:provider']).toContain(`--target=node${MIN_NODE_MAJOR} `);
});
