/**
 * The entry of a provider process: serves a ProviderDefinition over
 * Terraform's plugin protocol 6 (go-plugin handshake, AutoMTLS, gRPC) until
 * Terraform shuts it down or goes away.
 *
 * Only the handshake's code loads before the handshake line (plugin-server.ts):
 * the protocol's message types and the provider service are required in
 * providerHandlers, which a bundle evaluates only once the line is out.
 */
import type { ProviderDefinition } from '../framework/resource';
import { PluginStartError, servePlugin, type PluginHandlers } from './plugin-server';

/** Terraform plugin protocol 6, which Terraform 1.0 and later speak. */
const PROTOCOL_VERSION = 6;

/**
 * Serves the provider `define` makes (called once, after the handshake) in this process; the process exits on
 * Shutdown, when Terraform is gone, or when it cannot start.
 */
export function serveProvider<Context>(define: () => ProviderDefinition<Context>): void {
  servePluginOrExit(() => providerHandlers(define()));
}

/** Serves what `load` gives (plugin-server.ts); a refusal to start is one message on stderr and exit code 1. */
export function servePluginOrExit(load: () => PluginHandlers): void {
  servePlugin({ protocolVersion: PROTOCOL_VERSION, load }).catch((e: unknown) => {
    process.stderr.write(`${e instanceof PluginStartError ? e.message : e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}

/** The provider service of `definition` with go-plugin's services; the modules they need load here. */
export function providerHandlers<Context>(definition: ProviderDefinition<Context>): PluginHandlers {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded after the handshake line, not before it */
  const { Logger } = require('./log') as typeof import('./log');
  const { loadServices } = require('./proto') as typeof import('./proto');
  const { createProviderService } = require('./provider-service') as typeof import('./provider-service');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const service = createProviderService(definition, new Logger(`provider.${definition.name}`));
  return { services: loadServices(), provider: service.implementation, onShutdown: service.stop };
}
