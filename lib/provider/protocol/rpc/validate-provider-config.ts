/**
 * ValidateProviderConfig: Terraform checks the provider block's values
 * (unknown ones are skipped) before configuring. As
 * terraform-plugin-framework's proto6server/server_validateproviderconfig.go.
 */
import { Diagnostics } from '../../framework/diagnostics';
import { decodeObject } from '../dynamic-value';
import type { ProviderServer } from '../provider-server';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

/** The ValidateProviderConfig RPC. */
export function validateProviderConfig<Context>(
  server: ProviderServer<Context>,
  request: { readonly config?: wire.WireDynamicValue | null },
): wire.DiagnosticsResponse {
  const config = decodeObject(request.config, server.providerType, 'provider configuration');
  const diagnostics = new Diagnostics();
  if (config) server.definition.validate?.(config, diagnostics);
  return { diagnostics: wireDiagnostics(diagnostics, server.providerType) };
}
