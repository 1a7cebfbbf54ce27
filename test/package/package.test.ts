/**
 * `npm run package` (its script, after the build): one folder with the npm
 * tarballs of both flavours, one npm package per platform holding its native
 * provider executable, the provider's release in the Terraform registry's
 * format, and the generated code for Python, Java, Go and .NET. Each flavour's
 * tarball installs with this platform's package into a fresh project (as npm
 * does, and with npm itself as the README says) and a plain JavaScript cdktf
 * app synthesizes with it; the two flavours' commands do not clash.
 *
 * The five executables, as the platform packages hold them, are read with the
 * independent readers of test/support/executable-formats.ts: each is its
 * platform's format and architecture, holds the SEA blob with the provider
 * bundle in it, has the SEA fuse flipped; the macOS ones carry a valid ad-hoc
 * signature, the Windows one is a console program named .exe. The Linux ones
 * answer Terraform's plugin handshake: linux_amd64 natively, linux_arm64 under
 * qemu-user (Debian's qemu-user-static, with the aarch64 C and C++ runtimes of
 * the *-arm64-cross packages; `.ci/run` installs them).
 */
import { spawn, spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { platformPackageName, SUPPORTED_PLATFORMS, terraformPlatform } from '../../lib/install';
import { generateServerCertificate } from '../../lib/provider/protocol/tls';
import { describeExecutable, seaBlobOf, verifyAdHocSignature, type ExecutableDescription } from '../support/executable-formats';
import { runCommand } from '../support/terraform';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..');
const OUT = path.join(ROOT, 'dist-packages');
const BUNDLE = path.join(ROOT, 'dist', 'provider', 'terraform-provider-googleiam.js');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
const EXECUTABLE = 'terraform-provider-googleiam';
const FLAVOURS = [
  {
    name: 'cdktf-google-iam',
    framework: 'cdktf',
    python: 'cdktf_google_iam',
    command: 'cdktf-google-iam-emulator',
    installer: 'cdktf-google-iam-provider',
  },
  {
    name: 'cdktn-google-iam',
    framework: 'cdktn',
    python: 'cdktn_google_iam',
    command: 'cdktn-google-iam-emulator',
    installer: 'cdktn-google-iam-provider',
  },
];

const EXPECTED: Record<string, Pick<ExecutableDescription, 'format' | 'arch'> & { blob: string; npm: string }> = {
  linux_amd64: { format: 'elf', arch: 'amd64', blob: 'PT_NOTE note NODE_SEA_BLOB', npm: 'linux-x64' },
  linux_arm64: { format: 'elf', arch: 'arm64', blob: 'PT_NOTE note NODE_SEA_BLOB', npm: 'linux-arm64' },
  darwin_amd64: { format: 'macho', arch: 'amd64', blob: 'NODE_SEA,__NODE_SEA_BLOB', npm: 'darwin-x64' },
  darwin_arm64: { format: 'macho', arch: 'arm64', blob: 'NODE_SEA,__NODE_SEA_BLOB', npm: 'darwin-arm64' },
  windows_amd64: { format: 'pe', arch: 'amd64', blob: 'RT_RCDATA resource NODE_SEA_BLOB', npm: 'win32-x64' },
};

// qemu-user runs the dynamically linked arm64 Node with the aarch64 loader and libraries from this folder.
const QEMU = 'qemu-aarch64-static';
const AARCH64_SYSROOT = process.env.QEMU_LD_PREFIX ?? '/usr/aarch64-linux-gnu';
const QEMU_PACKAGES = 'qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross libatomic1-arm64-cross';

const platformTarball = (platform: string) => path.join(OUT, `cdktf-google-iam-provider-${EXPECTED[platform].npm}-${VERSION}.tgz`);

let work: string;
/** Each platform package, unpacked: its folder. */
const unpacked: Record<string, string> = {};
let clientCert: string;

beforeAll(async () => {
  const packaged = await runCommand(process.execPath, [path.join(ROOT, 'scripts', 'package.js')], ROOT, {});
  expect({ code: packaged.code, stderr: packaged.code === 0 ? '' : packaged.output }).toEqual({ code: 0, stderr: '' });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-packages-'));
  for (const platform of Object.keys(EXPECTED)) {
    const dir = path.join(work, platform);
    fs.mkdirSync(dir);
    expect((await runCommand('tar', ['-xzf', platformTarball(platform), '-C', dir, '--strip-components=1'], work, {})).code).toBe(0);
    unpacked[platform] = dir;
  }
  clientCert = generateServerCertificate().certPem;
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** The main tarball's files `names`, unpacked into a folder of their own. */
async function fromTarball(flavour: string, names: string[]): Promise<string> {
  const dir = fs.mkdtempSync(path.join(work, `${flavour}-`));
  const untar = await runCommand(
    'tar',
    ['-xzf', path.join(OUT, `${flavour}-${VERSION}.tgz`), '-C', dir, '--strip-components=1', ...names.map((n) => `package/${n}`)],
    dir,
    {},
  );
  expect(untar.code).toBe(0);
  return dir;
}

test('one folder: both tarballs, a package per platform, the Terraform registry release and, per flavour, the generated code of the four other languages', () => {
  expect(fs.readdirSync(OUT).sort()).toEqual(
    [
      'cdktf-google-iam',
      `cdktf-google-iam-${VERSION}.tgz`,
      ...Object.keys(EXPECTED).map((platform) => path.basename(platformTarball(platform))),
      'cdktn-google-iam',
      `cdktn-google-iam-${VERSION}.tgz`,
      'terraform-registry',
    ].sort(),
  );
  for (const { name } of FLAVOURS) {
    expect(fs.readdirSync(path.join(OUT, name)).sort()).toEqual(['dotnet', 'go', 'java', 'python']);
  }
  expect(Object.keys(EXPECTED).sort()).toEqual([...SUPPORTED_PLATFORMS].sort());
});

test.each(FLAVOURS)(
  '$name: within 1.5 MB packed; its platform packages are optional dependencies, their executables recorded by SHA-256',
  async ({ name }) => {
    const packed = fs.statSync(path.join(OUT, `${name}-${VERSION}.tgz`)).size;
    console.log(`${name}-${VERSION}.tgz: ${packed} bytes`);
    expect(packed).toBeLessThanOrEqual(1_500_000);
    const dir = await fromTarball(name, ['package.json', 'dist/provider/executables.json']);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(manifest.optionalDependencies).toEqual(
      Object.fromEntries(Object.keys(EXPECTED).map((platform) => [platformPackageName(platform), VERSION])),
    );
    const recorded = JSON.parse(fs.readFileSync(path.join(dir, 'dist', 'provider', 'executables.json'), 'utf8'));
    const digests = Object.fromEntries(
      Object.entries(unpacked).map(([platform, folder]) => [
        platform,
        { sha256: sha256(executableIn(folder, platform)), size: fs.statSync(executableIn(folder, platform)).size },
      ]),
    );
    expect(recorded.platforms).toEqual(digests);
    // Reproducible: the build made this machine's executable (with its code cache) apart, and it is the same bytes.
    const built = JSON.parse(fs.readFileSync(path.join(ROOT, 'dist', 'provider', 'executables.json'), 'utf8'));
    expect(recorded.platforms[terraformPlatform()]).toEqual(built.platforms[terraformPlatform()]);
  },
);

test.each(Object.keys(EXPECTED))(
  'the %s package: npm os and cpu, its executable in bin/ (0755), nothing else but README and LICENSE',
  (platform) => {
    const dir = unpacked[platform];
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const [os_, cpu] = EXPECTED[platform].npm.split('-');
    expect(manifest).toMatchObject({ name: platformPackageName(platform), version: VERSION, os: [os_], cpu: [cpu] });
    expect((fs.readdirSync(dir, { recursive: true }) as string[]).sort()).toEqual(
      ['LICENSE', 'README.md', 'bin', path.join('bin', path.basename(executableIn(dir, platform))), 'package.json'].sort(),
    );
    expect((fs.statSync(executableIn(dir, platform)).mode & 0o777).toString(8)).toBe('755');
  },
);

test('the Terraform registry release: a zip per platform holding the same executable (so the lock file hash made from its SHA-256 is its h1: too), SHA256SUMS over them and the manifest', () => {
  const release = path.join(OUT, 'terraform-registry');
  const prefix = `terraform-provider-googleiam_${VERSION}`;
  const zips = Object.keys(EXPECTED).map((platform) => `${prefix}_${platform}.zip`);
  expect(fs.readdirSync(release).sort()).toEqual([...zips, `${prefix}_SHA256SUMS`, `${prefix}_manifest.json`].sort());
  expect(JSON.parse(fs.readFileSync(path.join(release, `${prefix}_manifest.json`), 'utf8'))).toEqual({
    version: 1,
    metadata: { protocol_versions: ['6.0'] },
  });
  const sums = fs
    .readFileSync(path.join(release, `${prefix}_SHA256SUMS`), 'utf8')
    .trimEnd()
    .split('\n');
  expect(sums).toEqual(
    [...zips, `${prefix}_manifest.json`].sort().map((file) => `${sha256(fs.readFileSync(path.join(release, file)))}  ${file}`),
  );
  for (const platform of Object.keys(EXPECTED)) {
    const listing = spawnSync('unzip', ['-Z', '-l', path.join(release, `${prefix}_${platform}.zip`)], { encoding: 'utf8' });
    const inside = `terraform-provider-googleiam_v${VERSION}${platform.startsWith('windows') ? '.exe' : ''}`;
    expect(listing.stdout).toMatch(
      new RegExp(`^-rwxr-xr-x .* ${fs.statSync(executableIn(unpacked[platform], platform)).size} .* ${inside.replace(/\./g, '\\.')}$`, 'm'),
    );
    const extracted = spawnSync('unzip', ['-p', path.join(release, `${prefix}_${platform}.zip`), inside], { maxBuffer: 512 << 20 });
    expect(sha256(extracted.stdout)).toBe(sha256(executableIn(unpacked[platform], platform)));
  }
});

test.each(Object.entries(EXPECTED))('%s executable: its platform, the bundle inside, the fuse flipped', (platform, expected) => {
  const file = executableIn(unpacked[platform], platform);
  const buf = fs.readFileSync(file);
  expect(path.basename(file)).toBe(platform === 'windows_amd64' ? `${EXECUTABLE}.exe` : EXECUTABLE);
  const described = describeExecutable(buf);
  expect(described).toMatchObject({
    format: expected.format,
    arch: expected.arch,
    fuse: 'flipped',
    seaBlob: { where: expected.blob, magic: true },
  });
  expect(seaBlobOf(buf).includes(fs.readFileSync(BUNDLE))).toBe(true);
  if (expected.format === 'pe') expect(described.subsystem).toBe('console');
  if (expected.format === 'macho') {
    expect(verifyAdHocSignature(buf)).toEqual({
      identifier: EXECUTABLE,
      codeLimit: described.codeSignature!.dataoff,
      pages: Math.ceil(described.codeSignature!.dataoff / 4096),
      problems: [],
    });
  }
});

const HANDSHAKE = /^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|\S+$/;

test('linux_amd64 answers the plugin handshake natively', async () => {
  const { line, ms } = await handshake(executableIn(unpacked.linux_amd64, 'linux_amd64'), []);
  console.log(`linux_amd64 handshake: ${ms.toFixed(0)} ms`);
  expect(line).toMatch(HANDSHAKE);
});

test(`linux_arm64 answers the plugin handshake under ${QEMU}`, async () => {
  const version = spawnSync(QEMU, ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0)
    throw new Error(`${QEMU} cannot run (${version.error?.message ?? version.stderr}): apt-get install ${QEMU_PACKAGES}`);
  if (!fs.existsSync(path.join(AARCH64_SYSROOT, 'lib', 'ld-linux-aarch64.so.1')))
    throw new Error(`no aarch64 loader in ${AARCH64_SYSROOT}: apt-get install ${QEMU_PACKAGES}`);
  const { line, ms } = await handshake(QEMU, ['-L', AARCH64_SYSROOT, executableIn(unpacked.linux_arm64, 'linux_arm64')]);
  console.log(`linux_arm64 handshake under ${version.stdout.split('\n')[0]}: ${ms.toFixed(0)} ms`);
  expect(line).toMatch(HANDSHAKE);
});

test.each(FLAVOURS)('$name: the generated Python byte-compiles', async ({ name, python }) => {
  const dir = path.join(OUT, name, 'python');
  const compiled = await runCommand('python3', ['-m', 'compileall', '-q', dir], ROOT, {});
  expect({ code: compiled.code, output: compiled.output }).toEqual({ code: 0, output: '' });
  expect(fs.existsSync(path.join(dir, 'src', python, '__init__.py'))).toBe(true);
});

test.each(FLAVOURS)(
  "$name: npm installs the tarball with this platform's package, and a plain JavaScript app synthesizes a grant with it",
  async (flavour) => {
    const platform = terraformPlatform();
    const project = fs.mkdtempSync(path.join(os.tmpdir(), `${flavour.name}-install-`));
    try {
      fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true }));
      // As the README's install line, offline: the other platforms' optional packages are skipped.
      const install = await runCommand(
        'npm',
        [
          'install',
          '--offline',
          '--no-audit',
          '--no-fund',
          '--legacy-peer-deps',
          path.join(OUT, `${flavour.name}-${VERSION}.tgz`),
          platformTarball(platform),
        ],
        project,
        {},
      );
      expect({ code: install.code, output: install.code === 0 ? '' : install.output }).toEqual({ code: 0, output: '' });
      const modules = path.join(project, 'node_modules');
      expect(fs.readdirSync(path.join(modules, '@cdktf-google-iam'))).toEqual([`provider-${EXPECTED[platform].npm}`]);
      // The peers, as the user's project has them.
      for (const peer of [flavour.framework, 'constructs']) fs.symlinkSync(path.join(ROOT, 'node_modules', peer), path.join(modules, peer));

      const manifest = JSON.parse(fs.readFileSync(path.join(modules, flavour.name, 'package.json'), 'utf8'));
      expect(manifest.bin).toEqual({ [flavour.command]: 'lib/testing/emulator/cli.js', [flavour.installer]: 'lib/install/cli.js' });

      fs.writeFileSync(
        path.join(project, 'main.js'),
        [
          `const { App, TerraformStack } = require('${flavour.framework}');`,
          `const { AuthorizationPolicyIamMember } = require('${flavour.name}');`,
          "const app = new App({ outdir: 'out' });",
          "const stack = new TerraformStack(app, 'iam');",
          "new AuthorizationPolicyIamMember(stack, 'Readers', { name: 'projects/my-project/locations/global/authorizationPolicies/ap', role: 'roles/networksecurity.viewer', member: 'group:readers@example.com' });",
          'app.synth();',
        ].join('\n'),
      );
      const synth = await runCommand(process.execPath, ['main.js'], project, {});
      expect({ code: synth.code, output: synth.output }).toEqual({ code: 0, output: '' });
      const stackDir = path.join(project, 'out', 'stacks', 'iam');
      const json = JSON.parse(fs.readFileSync(path.join(stackDir, 'cdk.tf.json'), 'utf8'));
      expect(Object.keys(json.resource.googleiam_authorization_policy_iam_member)).toHaveLength(1);
      // Synth lays the platform package's executable out as Terraform's implied local mirror: a hard link, no copy.
      const plugin = path.join(stackDir, 'terraform.d', 'plugins', 'registry.terraform.io', 'cdktf-google-iam', 'googleiam', VERSION);
      const laidOut = fs.statSync(path.join(plugin, platform, `terraform-provider-googleiam_v${VERSION}`));
      const shipped = fs.statSync(executableIn(path.join(modules, '@cdktf-google-iam', `provider-${EXPECTED[platform].npm}`), platform));
      expect({ ino: laidOut.ino, mode: (laidOut.mode & 0o777).toString(8) }).toEqual({ ino: shipped.ino, mode: '755' });
      // The lock file carries every platform's hash.
      const lock = fs.readFileSync(path.join(stackDir, '.terraform.lock.hcl'), 'utf8');
      expect(lock.match(/"h1:[^"]+"/g)).toHaveLength(SUPPORTED_PLATFORMS.length);
    } finally {
      fs.rmSync(project, { recursive: true, force: true });
    }
  },
);

/** The executable in an unpacked platform package. */
function executableIn(dir: string, platform: string): string {
  return path.join(dir, 'bin', `${EXECUTABLE}${platform.startsWith('windows') ? '.exe' : ''}`);
}

function sha256(content: Buffer | string): string {
  return createHash('sha256')
    .update(typeof content === 'string' ? fs.readFileSync(content) : content)
    .digest('hex');
}

/** Starts `command` as Terraform starts a provider; resolves with its first stdout line and the ms to it. */
function handshake(command: string, args: string[]): Promise<{ line: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, {
      env: {
        ...process.env,
        TF_PLUGIN_MAGIC_COOKIE: 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2',
        PLUGIN_PROTOCOL_VERSIONS: '6',
        PLUGIN_CLIENT_CERT: clientCert,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      if (!out.includes('\n')) return;
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      child.kill('SIGKILL');
      resolve({ line: out.slice(0, out.indexOf('\n')), ms });
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (!out.includes('\n')) reject(new Error(`${command} exited (${code ?? signal}) before its handshake:\n${out}\n${err}`));
    });
  });
}
