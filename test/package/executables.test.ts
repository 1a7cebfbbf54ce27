/**
 * The provider's native executables, all five built as the package builds them
 * (scripts/provider-executables.js: `node --build-sea`, then an ad-hoc signature for macOS), read with the
 * independent readers of test/support/executable-formats.ts: each is its platform's format and architecture,
 * holds the SEA blob with the provider bundle in it, has the SEA fuse flipped; the macOS ones carry a valid
 * ad-hoc signature, the Windows one is a console program named .exe. The Linux ones answer Terraform's plugin
 * handshake: linux_amd64 natively, linux_arm64 under qemu-user (Debian's qemu-user-static, with the aarch64
 * C and C++ runtimes of the *-arm64-cross packages). Run after `npm run build`.
 */
import { spawn, spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateServerCertificate } from '../../lib/provider/protocol/tls';
import { describeExecutable, seaBlobOf, verifyAdHocSignature, type ExecutableDescription } from '../support/executable-formats';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..');
const BUNDLE = path.join(ROOT, 'dist', 'provider', 'terraform-provider-googleiam.js');
const EXECUTABLE = 'terraform-provider-googleiam';
const { buildProviderExecutables } = require('../../scripts/provider-executables.js') as {
  buildProviderExecutables(options: {
    platforms: string[];
    outDir: string;
  }): Record<string, { file: string; sha256: string; size: number }>;
};

const EXPECTED: Record<string, Pick<ExecutableDescription, 'format' | 'arch'> & { blob: string }> = {
  linux_amd64: { format: 'elf', arch: 'amd64', blob: 'PT_NOTE note NODE_SEA_BLOB' },
  linux_arm64: { format: 'elf', arch: 'arm64', blob: 'PT_NOTE note NODE_SEA_BLOB' },
  darwin_amd64: { format: 'macho', arch: 'amd64', blob: 'NODE_SEA,__NODE_SEA_BLOB' },
  darwin_arm64: { format: 'macho', arch: 'arm64', blob: 'NODE_SEA,__NODE_SEA_BLOB' },
  windows_amd64: { format: 'pe', arch: 'amd64', blob: 'RT_RCDATA resource NODE_SEA_BLOB' },
};

// qemu-user runs the dynamically linked arm64 Node with the aarch64 loader and libraries from this folder.
const QEMU = 'qemu-aarch64-static';
const AARCH64_SYSROOT = process.env.QEMU_LD_PREFIX ?? '/usr/aarch64-linux-gnu';
const QEMU_PACKAGES = 'qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross libatomic1-arm64-cross';

let work: string;
let built: ReturnType<typeof buildProviderExecutables>;
let clientCert: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-executables-'));
  const start = Date.now();
  built = buildProviderExecutables({ platforms: Object.keys(EXPECTED), outDir: work });
  console.log(
    `built ${Object.keys(built).length} executables in ${Date.now() - start} ms: ` +
      Object.entries(built)
        .map(([platform, { size }]) => `${platform} ${size} bytes`)
        .join(', '),
  );
  clientCert = generateServerCertificate().certPem;
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

test.each(Object.entries(EXPECTED))('%s: its platform, the bundle inside, the fuse flipped', (platform, expected) => {
  const { file, sha256, size } = built[platform];
  const buf = fs.readFileSync(file);
  expect({ size: buf.length, sha256: createHash('sha256').update(buf).digest('hex') }).toEqual({ size, sha256 });
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
  else expect(fs.statSync(file).mode & 0o111).toBe(0o111);
  if (expected.format === 'macho') {
    expect(verifyAdHocSignature(buf)).toEqual({
      identifier: EXECUTABLE,
      codeLimit: described.codeSignature!.dataoff,
      pages: Math.ceil(described.codeSignature!.dataoff / 4096),
      problems: [],
    });
  }
});

/** Starts `command` as Terraform starts a provider; resolves with its first stdout line and the ms to it. */
function handshake(command: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ line: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, {
      env: {
        ...process.env,
        ...env,
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

const HANDSHAKE = /^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|\S+$/;

test('linux_amd64 answers the plugin handshake natively', async () => {
  const { line, ms } = await handshake(built.linux_amd64.file, []);
  console.log(`linux_amd64 handshake: ${ms.toFixed(0)} ms`);
  expect(line).toMatch(HANDSHAKE);
});

test(`linux_arm64 answers the plugin handshake under ${QEMU}`, async () => {
  const version = spawnSync(QEMU, ['--version'], { encoding: 'utf8' });
  if (version.error || version.status !== 0)
    throw new Error(`${QEMU} cannot run (${version.error?.message ?? version.stderr}): apt-get install ${QEMU_PACKAGES}`);
  if (!fs.existsSync(path.join(AARCH64_SYSROOT, 'lib', 'ld-linux-aarch64.so.1')))
    throw new Error(`no aarch64 loader in ${AARCH64_SYSROOT}: apt-get install ${QEMU_PACKAGES}`);
  const { line, ms } = await handshake(QEMU, ['-L', AARCH64_SYSROOT, built.linux_arm64.file]);
  console.log(`linux_arm64 handshake under ${version.stdout.split('\n')[0]}: ${ms.toFixed(0)} ms`);
  expect(line).toMatch(HANDSHAKE);
});
