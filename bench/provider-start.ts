/**
 * The provider's cold start: from exec, as Terraform starts it (magic cookie, protocol 6, AutoMTLS with a
 * client certificate), to its handshake line on stdout. Terraform starts the provider several times per
 * command (schema, validation, configure + calls), so this is paid 3 to 5 times per plan or apply.
 *
 * Side by side, alternating: the native executable synth lays out (scripts/provider-executables.js); `node`
 * running the same bundle; `node` running the bundle of BASELINE_COMMIT, the last one before the native
 * executables, as its sh launcher ran it then (with its V8 flag; the launcher's own sh and version check
 * not counted, so the baseline is if anything faster than it was); and `node -e 0`.
 */
import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { installProvider, providerBundle } from '../lib/install';
import { generateServerCertificate } from '../lib/provider/protocol/tls';
import { timeProcess } from './processes';
import { compareAll } from './stats';

const MAGIC_COOKIE = { TF_PLUGIN_MAGIC_COOKIE: 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2' };
/** The provider before issue 50: a bundle that loaded everything before its handshake, run by the node on PATH. */
export const BASELINE_COMMIT = 'f3991f6';
const ROOT = path.join(__dirname, '..');

export interface StartTimes {
  /** The native executable, laid out as synth lays it out. */
  readonly native: number[];
  /** `node` + today's bundle. */
  readonly bundle: number[];
  /** `node` + BASELINE_COMMIT's bundle. */
  readonly baseline: number[];
  /** `node -e 0`. */
  readonly node: number[];
}

/** Milliseconds from spawn to the handshake line; the process is then killed. */
function handshakeMs(command: string, args: readonly string[], clientCert: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, {
      env: { ...process.env, ...MAGIC_COOKIE, PLUGIN_PROTOCOL_VERSIONS: '6', PLUGIN_CLIENT_CERT: clientCert },
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
      if (/^1\|6\|tcp\|127\.0\.0\.1:\d+\|grpc\|\S+\n/.test(out)) resolve(ms);
      else reject(new Error(`unexpected handshake line: ${out}`));
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (!out.includes('\n')) reject(new Error(`the provider exited with ${code} before its handshake:\n${err}`));
    });
  });
}

/** BASELINE_COMMIT's provider bundle, built from git into `dir` with that commit's own bundle script. */
function baselineBundle(dir: string): string {
  const tree = path.join(dir, 'baseline');
  fs.mkdirSync(tree);
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive ${BASELINE_COMMIT} lib package.json | tar -x -C "${tree}"`]);
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
  fs.mkdirSync(path.join(tree, 'dist'));
  fs.symlinkSync(path.join(ROOT, 'dist', 'vendor'), path.join(tree, 'dist', 'vendor'));
  const { scripts } = JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  execFileSync('sh', ['-c', scripts['bundle:provider'].replace(/^rm -rf dist\/provider && /, '')], { cwd: tree, env: process.env });
  return path.join(tree, 'dist', 'provider', 'terraform-provider-googleiam.js');
}

export async function benchProviderStart(runs: number): Promise<StartTimes> {
  const clientCert = generateServerCertificate().certPem;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-bench-start-'));
  try {
    const [native] = installProvider(dir, { layout: 'mirror' }).executables;
    const baseline = baselineBundle(dir);
    const flags = ['--max-semi-space-size=1'];
    return await compareAll(runs, {
      native: () => handshakeMs(native, [], clientCert),
      bundle: () => handshakeMs(process.execPath, [...flags, providerBundle()], clientCert),
      baseline: () => handshakeMs(process.execPath, [...flags, baseline], clientCert),
      node: () => timeProcess(process.execPath, ['-e', '0']),
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
