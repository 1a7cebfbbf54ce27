/**
 * ValidateDataResourceConfig: Terraform checks a data source's configuration
 * at validate and plan. As terraform-plugin-framework's
 * proto6server/server_validatedataresourceconfig.go.
 */
import type { ProviderServer } from '../provider-server';
import type * as wire from '../wire';
import { validateConfig } from './validate-config';

/** The ValidateDataResourceConfig RPC. */
export function validateDataResourceConfig<Context>(
  server: ProviderServer<Context>,
  request: wire.TypedConfigRequest,
): wire.DiagnosticsResponse {
  const { definition, type } = server.dataSource(request.type_name);
  return validateConfig(definition, type, request.config, 'data source configuration', { providerConfigured: server.state.isConfigured });
}
