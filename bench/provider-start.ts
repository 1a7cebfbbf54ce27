/**
 * The provider's cold start: from exec of the laid-out provider (its launcher,
 * which checks node and the bundle and execs node on it), as Terraform starts
 * it (magic cookie, protocol 6, AutoMTLS with a client certificate), to its
 * handshake line on stdout; beside `node -e 0`. Terraform starts the provider
 * several times per command (schema, validation, configure + calls), so this
 * is paid 3 to 5 times per plan or apply.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { installProvider, terraformPlatform } from '../lib/install';
import { generateServerCertificate } from '../lib/provider/protocol/tls';
import { timeProcess } from './processes';
import { compareAll } from './stats';

const MAGIC_COOKIE = { TF_PLUGIN_MAGIC_COOKIE: 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2' };

export interface StartTimes {
  readonly provider: number[];
  readonly node: number[];
}

/** Milliseconds from spawn to the handshake line; the process is then killed. */
function handshakeMs(launcher: string, clientCert: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(launcher, [], {
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

export async function benchProviderStart(runs: number): Promise<StartTimes> {
  const clientCert = generateServerCertificate().certPem;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-bench-start-'));
  try {
    const [launcher] = installProvider(dir, { layout: 'mirror', platforms: [terraformPlatform()] }).executables;
    return await compareAll(runs, {
      provider: () => handshakeMs(launcher, clientCert),
      node: () => timeProcess(process.execPath, ['-e', '0']),
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
