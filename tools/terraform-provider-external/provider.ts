/**
 * Entry point of the bundled stand-in of the hashicorp/external provider
 * (dist/terraform-provider-external.js beside this file, built by
 * `npm run bundle:tools`). Terraform starts it through the launcher that
 * ExternalProviderStandIn.install() writes; see README.md beside this file.
 */
import { createProviderService } from './provider-service';
import { PluginStartError, servePlugin } from './plugin-server';
import { loadServices } from './proto';

/** Terraform plugin protocol 6, which Terraform 1.0 and later speak. */
const PROTOCOL_VERSION = 6;

const provider = createProviderService();
servePlugin({
  services: loadServices(),
  protocolVersion: PROTOCOL_VERSION,
  provider: provider.implementation,
  onShutdown: provider.stopAll,
}).catch((e: unknown) => {
  process.stderr.write(`${e instanceof PluginStartError ? e.message : e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
