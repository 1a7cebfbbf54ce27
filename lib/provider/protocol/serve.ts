/**
 * The entry of a provider process: serves a ProviderDefinition over
 * Terraform's plugin protocol 6 (go-plugin handshake, AutoMTLS, gRPC) until
 * Terraform shuts it down or goes away.
 */
import type { ProviderDefinition } from '../framework/resource';
import { Logger } from './log';
import { PluginStartError, servePlugin } from './plugin-server';
import { loadServices } from './proto';
import { createProviderService } from './provider-service';

/** Terraform plugin protocol 6, which Terraform 1.0 and later speak. */
const PROTOCOL_VERSION = 6;

/** Serves `definition` in this process; the process exits on Shutdown, when Terraform is gone, or when it cannot start. */
export function serveProvider<Context>(definition: ProviderDefinition<Context>): void {
  const logger = new Logger(`provider.${definition.name}`);
  const service = createProviderService(definition, logger);
  servePlugin({
    services: loadServices(),
    protocolVersion: PROTOCOL_VERSION,
    provider: service.implementation,
    onShutdown: service.stop,
  }).catch((e: unknown) => {
    process.stderr.write(`${e instanceof PluginStartError ? e.message : e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
