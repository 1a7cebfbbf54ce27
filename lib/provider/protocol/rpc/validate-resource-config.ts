/**
 * ValidateResourceConfig: Terraform checks a resource's configuration at
 * validate and plan. As terraform-plugin-framework's
 * proto6server/server_validateresourceconfig.go.
 */
import type { ProviderServer } from '../provider-server';
import type * as wire from '../wire';
import { validateConfig } from './validate-config';

/** The ValidateResourceConfig RPC. */
export function validateResourceConfig<Context>(
  server: ProviderServer<Context>,
  request: wire.TypedConfigRequest,
): wire.DiagnosticsResponse {
  const { definition, type } = server.resource(request.type_name);
  const { isConfigured, providerConfig } = server.state;
  const { scope } = server.definition;
  return validateConfig(definition, type, request.config, 'resource configuration', {
    providerConfigured: isConfigured,
    ...(providerConfig ? { providerConfig } : {}),
    ...(scope === undefined ? {} : { scope }),
  });
}
