/**
 * ConfigureProvider: Terraform hands over the provider block's values, once
 * per process and before any call that needs them. As
 * terraform-plugin-framework's proto6server/server_configureprovider.go: the
 * configuration decoded against the provider's schema, the definition's
 * configure, and its context kept for every later call (a failure leaves
 * later calls failing as not configured).
 */
import type { CtyObject } from '../../framework/cty';
import { Diagnostics } from '../../framework/diagnostics';
import { decodeObject } from '../dynamic-value';
import type { ProviderServer } from '../provider-server';
import { redact } from '../redact';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

/** The ConfigureProvider RPC. */
export async function configureProvider<Context>(
  server: ProviderServer<Context>,
  request: wire.ConfigureProviderRequest,
): Promise<wire.DiagnosticsResponse> {
  const config = decode(server, request);
  server.state.providerConfigGiven(config);
  server.logger.log('debug', 'configuring the provider', {
    terraform_version: request.terraform_version,
    config: redact(config, server.definition.schema.attributes),
  });
  const diagnostics = new Diagnostics();
  try {
    const context = await server.definition.configure(config ?? {}, diagnostics);
    server.state.configured(diagnostics.hasError ? undefined : context);
  } catch (e) {
    server.state.configured(undefined);
    throw e;
  }
  return { diagnostics: wireDiagnostics(diagnostics, server.providerType) };
}

/** The provider block's values; a configuration that cannot be read fails the configuration too. */
function decode<Context>(server: ProviderServer<Context>, request: wire.ConfigureProviderRequest): CtyObject | null {
  try {
    return decodeObject(request.config, server.providerType, 'provider configuration');
  } catch (e) {
    server.state.configured(undefined);
    throw e;
  }
}
