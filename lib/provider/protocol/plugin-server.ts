/**
 * The go-plugin side of a Terraform provider process (hashicorp/go-plugin's
 * server.go, as Terraform 1.11 starts providers):
 *
 * 1. Terraform sets TF_PLUGIN_MAGIC_COOKIE (a plugin run by hand refuses to
 *    start), PLUGIN_PROTOCOL_VERSIONS (the protocol versions it speaks),
 *    PLUGIN_MIN_PORT/PLUGIN_MAX_PORT and, for AutoMTLS, PLUGIN_CLIENT_CERT.
 * 2. The plugin serves gRPC over TLS on 127.0.0.1 with a certificate of its
 *    own, requires Terraform's client certificate, and prints one line on
 *    stdout: `1|<protocol>|tcp|127.0.0.1:<port>|grpc|<its certificate>`.
 * 3. go-plugin's client opens plugin.GRPCStdio/StreamStdio and
 *    plugin.GRPCBroker/StartStream at once; both are held open, unused.
 * 4. Terraform calls plugin.GRPCController/Shutdown when done; the process
 *    then exits (Terraform would otherwise wait 2 s, then kill it).
 *
 * Terraform waits for the handshake line every time it starts the provider
 * (3 to 5 times a command), so the line goes out before the services load
 * (`load`: the protocol's message types and the provider's code, about half
 * of a start): they load synchronously right after it, before the event loop
 * can take Terraform's first connection, so no call finds them missing.
 */
import * as grpc from '@grpc/grpc-js';
import type { PluginServices } from './proto';
import { generateServerCertificate } from './tls';

export const MAGIC_COOKIE_KEY = 'TF_PLUGIN_MAGIC_COOKIE';
export const MAGIC_COOKIE_VALUE = 'd602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2';
/** go-plugin's CoreProtocolVersion, the first field of the handshake line. */
const CORE_PROTOCOL_VERSION = 1;
/** As terraform-plugin-go's servers allow: large states and configs. */
const MAX_MESSAGE_BYTES = 256 << 20;

/** How the plugin server is started. */
export interface PluginOptions {
  /** The Terraform protocol version served (only one). */
  readonly protocolVersion: number;
  /** Loads what the server serves; called once, right after the handshake line is out. */
  readonly load: () => PluginHandlers;
  readonly env?: NodeJS.ProcessEnv;
}

/** What the plugin serves. */
export interface PluginHandlers {
  readonly services: PluginServices;
  readonly provider: grpc.UntypedServiceImplementation;
  /** Called before the process exits on Shutdown (stop child processes here). */
  readonly onShutdown?: () => void;
}

/** Starts serving and prints the handshake line; the process then lives until Shutdown. */
export async function servePlugin(options: PluginOptions): Promise<void> {
  const env = options.env ?? process.env;
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) {
    // go-plugin's words for a plugin started by hand.
    throw new PluginStartError(
      'This binary is a plugin. These are not meant to be executed directly.\n' +
        'Please execute the program that consumes these plugins, which will\nload any plugins automatically',
    );
  }
  const offered = (env.PLUGIN_PROTOCOL_VERSIONS ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (offered.length > 0 && !offered.includes(String(options.protocolVersion))) {
    throw new PluginStartError(
      `This provider speaks Terraform plugin protocol ${options.protocolVersion}; ` +
        `Terraform offered ${offered.join(', ')}. Use Terraform 1.0 or later.`,
    );
  }

  const server = new grpc.Server({
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  const clientCert = env.PLUGIN_CLIENT_CERT;
  let credentials = grpc.ServerCredentials.createInsecure();
  let handshakeCert = '';
  if (clientCert) {
    const cert = generateServerCertificate();
    // Only Terraform's own certificate is trusted, and a client must present it.
    credentials = grpc.ServerCredentials.createSsl(
      Buffer.from(clientCert),
      [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }],
      true,
    );
    handshakeCert = cert.handshakeCert;
  }

  const port = await bind(server, credentials, portRange(env));
  const fields = [CORE_PROTOCOL_VERSION, options.protocolVersion, 'tcp', `127.0.0.1:${port}`, 'grpc'];
  if (handshakeCert) fields.push(handshakeCert);
  process.stdout.write(`${fields.join('|')}\n`);
  // Synchronous on Linux (stdout is a pipe): Terraform has the line while the services load.
  const shutdown = serve(server, options.load());

  // Ctrl-C reaches the whole process group; Terraform stops providers itself (StopProvider, then Shutdown), as go-plugin expects.
  process.on('SIGINT', () => undefined);
  watchParent(shutdown);
}

/** Adds go-plugin's services and the provider's to `server`; returns what shuts the process down. */
function serve(server: grpc.Server, handlers: PluginHandlers): () => void {
  let shuttingDown = false;
  const shutdown = (): void => {
    if (shuttingDown) return;
    shuttingDown = true;
    handlers.onShutdown?.();
    for (const stream of openStreams) stream.end();
    // Let the Shutdown answer reach Terraform (it then closes the connection), but never linger.
    const exit = (): never => process.exit(0);
    setTimeout(exit, 500).unref();
    server.tryShutdown(() => exit());
  };
  // Streams go-plugin keeps open for the process's life; ended on Shutdown so that the server can close at once.
  const openStreams = new Set<{ end(): void }>();
  const holdOpen = (call: grpc.ServerWritableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>): void => {
    openStreams.add(call);
    call.on('cancelled', () => openStreams.delete(call));
    call.on('error', () => openStreams.delete(call));
  };
  server.addService(handlers.services.provider, handlers.provider);
  server.addService(handlers.services.controller, {
    Shutdown: (_call: unknown, callback: grpc.sendUnaryData<object>) => {
      callback(null, {});
      setImmediate(shutdown);
    },
  });
  server.addService(handlers.services.stdio, { StreamStdio: holdOpen });
  server.addService(handlers.services.broker, {
    StartStream: (call: grpc.ServerDuplexStream<unknown, unknown>) => {
      holdOpen(call);
      // Knocks for broker connections are never expected: Terraform's providers do not use the broker.
      call.on('data', () => undefined);
      call.on('end', () => {
        openStreams.delete(call);
        call.end();
      });
    },
  });
  server.addService(handlers.services.health, {
    Check: (call: grpc.ServerUnaryCall<{ service: string }, object>, callback: grpc.sendUnaryData<object>) => {
      const known = call.request.service === '' || call.request.service === 'plugin';
      if (known) callback(null, { status: 'SERVING' });
      else callback({ code: grpc.status.NOT_FOUND, details: 'unknown service' });
    },
  });
  return shutdown;
}
/** A refusal to start, reported on stderr without a stack trace. */
export class PluginStartError extends Error {}

/** go-plugin's range (both 0: any free port); the search starts at a random port to spread concurrent starts. */
function portRange(env: NodeJS.ProcessEnv): { min: number; max: number } {
  const min = Number.parseInt(env.PLUGIN_MIN_PORT ?? '', 10);
  const max = Number.parseInt(env.PLUGIN_MAX_PORT ?? '', 10);
  if (!Number.isInteger(min) || !Number.isInteger(max) || min <= 0 || max < min || max > 65535) return { min: 0, max: 0 };
  return { min, max };
}

async function bind(server: grpc.Server, credentials: grpc.ServerCredentials, range: { min: number; max: number }): Promise<number> {
  const tryPort = (port: number): Promise<number | undefined> =>
    new Promise((resolve) => {
      server.bindAsync(`127.0.0.1:${port}`, credentials, (error, bound) => resolve(error ? undefined : bound));
    });
  if (range.min === 0) {
    const port = await tryPort(0);
    if (port === undefined) throw new PluginStartError('Could not bind a TCP port on 127.0.0.1');
    return port;
  }
  const size = range.max - range.min + 1;
  const start = Math.floor(Math.random() * size);
  for (let i = 0; i < Math.min(size, 200); i++) {
    const port = await tryPort(range.min + ((start + i) % size));
    if (port !== undefined) return port;
  }
  throw new PluginStartError(`Could not bind a TCP port on 127.0.0.1 between ${range.min} and ${range.max}`);
}

/** Exits when Terraform is gone without a Shutdown (killed, crashed): the process is then re-parented. */
function watchParent(shutdown: () => void): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) shutdown();
  }, 1000).unref();
}
