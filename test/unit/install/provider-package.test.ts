/**
 * providerPackage(root): the address, the package's version, and each platform of dist/provider/executables.json
 * with its SHA-256 and where its executable is on this machine: this build's (dist/provider/native/<platform>/),
 * else the installed npm package's (@cdktf-google-iam/provider-<os>-<cpu>, its bin/), else nowhere. On this
 * repository's build, and on fixture package roots.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  executableFileName,
  installProvider,
  InstallError,
  packageManifest,
  platformPackageName,
  providerBundle,
  providerPackage,
  providerSource,
  terraformPlatform,
  type ProviderPackage,
} from '../../../lib/install';

const ROOT = path.join(__dirname, '..', '..', '..');
const sha256 = (content: string): string => createHash('sha256').update(content).digest('hex');

describe("this repository's provider", () => {
  test("is cdktf-google-iam/googleiam at the package's version, with the platforms and digests of dist/provider/executables.json", () => {
    const pkg = providerPackage();
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'dist', 'provider', 'executables.json'), 'utf8')) as {
      platforms: Record<string, { sha256: string }>;
    };
    expect(providerSource(pkg)).toBe('registry.terraform.io/cdktf-google-iam/googleiam');
    expect(pkg.type).toBe('googleiam');
    expect(pkg.version).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
    expect(Object.keys(pkg.executables).sort()).toEqual(Object.keys(manifest.platforms).sort());
    for (const [platform, { sha256: digest }] of Object.entries(manifest.platforms)) {
      expect(pkg.executables[platform].sha256).toBe(digest);
      expect(digest).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(providerBundle()).toBe(path.join(ROOT, 'dist', 'provider', 'terraform-provider-googleiam.js'));
  });

  test("this machine's platform, built here, is found in dist/provider/native", () => {
    const platform = terraformPlatform();
    const executable = providerPackage().executables[platform];
    expect(executable.path).toBe(path.join(ROOT, 'dist', 'provider', 'native', platform, executableFileName('googleiam', platform)));
    expect(fs.statSync(executable.path!).mode & 0o755).toBe(0o755);
  });
});

describe('a package root', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-package-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  function write(file: string, content: string, mode = 0o644): string {
    const full = path.join(root, file);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, content);
    fs.chmodSync(full, mode);
    return full;
  }

  /** package.json and dist/provider/executables.json listing `platforms` (with the digest of `content(platform)`). */
  function writePackage(name: string, version: string, platforms: readonly string[]): void {
    write('package.json', JSON.stringify({ name, version }));
    const listed = Object.fromEntries(
      platforms.map((platform) => [
        platform,
        { file: `native/${platform}/${executableFileName('googleiam', platform)}`, sha256: sha256(content(platform)), size: 1 },
      ]),
    );
    write('dist/provider/executables.json', JSON.stringify({ version, node: '26.10.0', platforms: listed }));
  }

  const content = (platform: string): string => `#!/bin/sh\necho ${platform}\n`;

  /** An installed per-platform npm package, as npm lays it out under the root's node_modules. */
  function writeInstalled(platform: string, withExecutable = true): string {
    const dir = path.join('node_modules', platformPackageName(platform));
    write(path.join(dir, 'package.json'), JSON.stringify({ name: platformPackageName(platform), version: '0.3.0' }));
    const file = path.join(dir, 'bin', executableFileName('googleiam', platform));
    return withExecutable ? write(file, content(platform), 0o755) : path.join(root, file);
  }

  test('with no dist/provider/executables.json, an InstallError naming the file and `npm run build`', () => {
    write('package.json', JSON.stringify({ name: 'cdktf-google-iam', version: '0.3.0' }));
    const file = path.join(root, 'dist', 'provider', 'executables.json');
    expect(() => providerPackage(root)).toThrow(InstallError);
    expect(() => providerPackage(root)).toThrow(`${file} is missing: the provider's executables were not built; run \`npm run build\`.`);
  });

  test("each platform's executable: this build's, else its installed npm package's bin/, else undefined", () => {
    writePackage('cdktf-google-iam', '0.3.0', ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64', 'windows_amd64']);
    // linux_arm64: built here and installed: the build's.
    const built = write('dist/provider/native/linux_arm64/terraform-provider-googleiam', content('linux_arm64'), 0o755);
    writeInstalled('linux_arm64');
    // linux_amd64 and windows_amd64: installed only.
    const linux = writeInstalled('linux_amd64');
    const windows = writeInstalled('windows_amd64');
    // darwin_arm64: its package installed without its executable; darwin_amd64: nothing.
    writeInstalled('darwin_arm64', false);

    const pkg = providerPackage(root);
    expect(pkg.version).toBe('0.3.0');
    expect(pkg.executables).toEqual({
      linux_amd64: { sha256: sha256(content('linux_amd64')), path: linux },
      linux_arm64: { sha256: sha256(content('linux_arm64')), path: built },
      darwin_amd64: { sha256: sha256(content('darwin_amd64')), path: undefined },
      darwin_arm64: { sha256: sha256(content('darwin_arm64')), path: undefined },
      windows_amd64: { sha256: sha256(content('windows_amd64')), path: windows },
    });
    expect(linux).toBe(path.join(root, 'node_modules', '@cdktf-google-iam', 'provider-linux-x64', 'bin', 'terraform-provider-googleiam'));
    expect(windows).toBe(
      path.join(root, 'node_modules', '@cdktf-google-iam', 'provider-win32-x64', 'bin', 'terraform-provider-googleiam.exe'),
    );
  });

  test("an installed package's executable is laid out hard-linked; a platform with none is refused, naming its package", () => {
    writePackage('cdktf-google-iam', '0.3.0', ['linux_amd64', 'darwin_arm64']);
    const installed = writeInstalled('linux_amd64');
    const pkg: ProviderPackage = providerPackage(root);
    const dir = path.join(root, 'config');
    const { executables } = installProvider(dir, { layout: 'plugins', package: pkg, platforms: ['linux_amd64'] });
    expect(executables).toEqual([
      path.join(
        dir,
        'terraform.d',
        'plugins',
        'registry.terraform.io',
        'cdktf-google-iam',
        'googleiam',
        '0.3.0',
        'linux_amd64',
        'terraform-provider-googleiam_v0.3.0',
      ),
    ]);
    expect(fs.statSync(executables[0]).ino).toBe(fs.statSync(installed).ino);
    expect(() => installProvider(dir, { layout: 'plugins', package: pkg, platforms: ['darwin_arm64'] })).toThrow(
      'install its package, @cdktf-google-iam/provider-darwin-arm64@0.3.0, beside this package or in the folder synth runs in ' +
        '(from Python, Java, Go or .NET: `npm install @cdktf-google-iam/provider-darwin-arm64@0.3.0` there; ' +
        "npm installs only this machine's platform: `npm install --no-save --force @cdktf-google-iam/provider-darwin-arm64@0.3.0` adds another's).",
    );
  });

  test('in the cdktn flavour (dist-cdktn: its own package.json beside lib/ and a copy of dist/), the same address and that package', () => {
    writePackage('cdktn-google-iam', '0.1.0', ['linux_amd64']);
    const built = write('dist/provider/native/linux_amd64/terraform-provider-googleiam', content('linux_amd64'), 0o755);
    const pkg = providerPackage(root);
    expect(providerSource(pkg)).toBe('registry.terraform.io/cdktf-google-iam/googleiam');
    expect(pkg.version).toBe('0.1.0');
    expect(pkg.executables).toEqual({ linux_amd64: { sha256: sha256(content('linux_amd64')), path: built } });
    expect(packageManifest(root)).toEqual({ name: 'cdktn-google-iam', version: '0.1.0' });
    expect(providerBundle(root)).toBe(path.join(root, 'dist', 'provider', 'terraform-provider-googleiam.js'));
  });
});
