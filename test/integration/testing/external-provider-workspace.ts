import { ChildProcess, execSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as grpc from '@grpc/grpc-js';
import { ExternalProviderInstallation, ExternalProviderStandIn } from '../../../tools/terraform-provider-external';
import { CommandResult, runCommand } from '../../support/terraform';

const SOURCE_DIR = path.join(__dirname, '..', '..', '..', 'tools', 'terraform-provider-external');

/** Builds the stand-in's bundle (`npm run bundle:tools`) when it is missing or older than its sources. */
export function ensureBundle(): string {
  const bundle = ExternalProviderStandIn.bundlePath();
  const built = fs.existsSync(bundle) ? fs.statSync(bundle).mtimeMs : 0;
  const newest = Math.max(
    ...fs
      .readdirSync(SOURCE_DIR)
      .filter((f) => f.endsWith('.ts') || f.endsWith('.proto'))
      .map((f) => fs.statSync(path.join(SOURCE_DIR, f)).mtimeMs),
  );
  if (built < newest) {
    execSync('npm run bundle:tools', { cwd: path.join(__dirname, '..', '..', '..'), stdio: 'pipe' });
  }
  return bundle;
}

/** A Terraform working directory whose configuration is written as JSON (no HCL quoting to get wrong). */
export class ExternalWorkspace {
  public readonly dir: string;

  constructor(
    private readonly installation: ExternalProviderInstallation,
    config: object,
  ) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'external-stand-in-ws-'));
    fs.writeFileSync(path.join(this.dir, 'main.tf.json'), JSON.stringify(config, null, 2));
  }

  public async init(): Promise<void> {
    const result = await this.terraform('init', '-input=false', '-no-color');
    if (result.code !== 0) throw new Error(`terraform init failed (${result.code}):\n${result.output}`);
  }

  public terraform(...args: string[]): Promise<CommandResult> {
    return runCommand('terraform', args, this.dir, {
      ...this.installation.env,
      // The programs under test are run as "node": make sure the Node.js running Jest is the one found.
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    });
  }

  /** `terraform output -json` as an object. */
  public async outputs(): Promise<Record<string, { value: unknown }>> {
    const result = await this.terraform('output', '-json', '-no-color');
    if (result.code !== 0) throw new Error(`terraform output failed:\n${result.output}`);
    return JSON.parse(result.stdout);
  }

  public dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The "Error: ..." block of Terraform's output that is about `address` (e.g. data.external.fail). */
export function errorBlock(output: string, address: string): string {
  // A diagnostic starts after a blank line; a detail line such as "Error: exec: ..." does not.
  const blocks = `\n\n${output}`.split(/\n\n(?=Error: )/);
  return blocks.find((b) => b.startsWith('Error: ') && b.includes(`with ${address},`)) ?? '';
}

/** Terraform's rendering wraps long lines; compare text with all whitespace runs made one space. */
export function flat(text: string): string {
  return text.replace(/\s+/g, ' ');
}

/** A provider process started as Terraform starts it, up to its handshake line. */
export interface StartedPlugin {
  readonly child: ChildProcess;
  /** Milliseconds from spawn to the handshake line. */
  readonly ms: number;
  readonly handshake: string;
  readonly address: string;
  /** The server certificate from the handshake line, as PEM. */
  readonly serverCertPem: string;
  /** Resolves with the exit code when the process exits. */
  readonly exited: Promise<number | null>;
}

/** Starts the bundled provider with Terraform's environment (magic cookie, AutoMTLS client certificate). */
export function startPlugin(bundle: string, clientCertPem: string): Promise<StartedPlugin> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [bundle], {
      env: {
        ...process.env,
        TF_PLUGIN_MAGIC_COOKIE: 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2',
        PLUGIN_PROTOCOL_VERSIONS: '5,6',
        PLUGIN_MIN_PORT: '10000',
        PLUGIN_MAX_PORT: '25000',
        PLUGIN_CLIENT_CERT: clientCertPem,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    child.stdout.once('data', (d: Buffer) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const handshake = String(d).trim();
      const fields = handshake.split('|');
      const der = Buffer.from(fields[5] ?? '', 'base64');
      const serverCertPem = `-----BEGIN CERTIFICATE-----\n${der.toString('base64')}\n-----END CERTIFICATE-----\n`;
      resolve({ child, ms, handshake, address: fields[3], serverCertPem, exited });
    });
    void exited.then((code) => reject(new Error(`provider exited with ${code} before its handshake: ${stderr}`)));
  });
}

/** One unary gRPC call with raw protobuf bytes, over mutual TLS as Terraform makes it. */
export function rawCall(
  plugin: StartedPlugin,
  client: { certPem: string; keyPem: string },
  method: string,
  request: Buffer,
): Promise<Buffer> {
  const credentials = grpc.credentials.createSsl(
    Buffer.from(plugin.serverCertPem),
    Buffer.from(client.keyPem),
    Buffer.from(client.certPem),
  );
  const connection = new grpc.Client(plugin.address, credentials, { 'grpc.ssl_target_name_override': 'localhost' });
  return new Promise<Buffer>((resolve, reject) => {
    const deadline = new Date(Date.now() + 5000);
    connection.makeUnaryRequest(
      method,
      (b: Buffer) => b,
      (b: Buffer) => b,
      request,
      new grpc.Metadata(),
      { deadline },
      (error, response) => {
        connection.close();
        if (error) reject(error);
        else resolve(response as Buffer);
      },
    );
  });
}
