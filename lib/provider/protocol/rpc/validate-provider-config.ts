/**
 * ValidateProviderConfig: Terraform checks the provider block's values
 * before configuring. As terraform-plugin-framework's
 * proto6server/server_validateproviderconfig.go.
 */
import type { ProviderServer } from '../provider-server';
import type * as wire from '../wire';
import { validateConfig } from './validate-config';

/** The ValidateProviderConfig RPC. */
export function validateProviderConfig<Context>(
  server: ProviderServer<Context>,
  request: { readonly config?: wire.WireDynamicValue | null },
): wire.DiagnosticsResponse {
  return validateConfig(
    server.definition,
    server.providerType,
    request.config,
    'provider configuration',
    { providerConfigured: server.state.isConfigured },
    (config) => server.state.providerConfigGiven(config),
  );
}
