/**
 * ValidateDataResourceConfig: Terraform checks a data source's configuration
 * (unknown values are skipped) at validate and plan. As
 * terraform-plugin-framework's proto6server/server_validatedataresourceconfig.go.
 */
import { Diagnostics } from '../../framework/diagnostics';
import { decodeObject } from '../dynamic-value';
import type { ProviderServer } from '../provider-server';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

/** The ValidateDataResourceConfig RPC. */
export function validateDataResourceConfig<Context>(
  server: ProviderServer<Context>,
  request: wire.TypedConfigRequest,
): wire.DiagnosticsResponse {
  const { definition: dataSource, type } = server.dataSource(request.type_name);
  const config = decodeObject(request.config, type, 'data source configuration');
  const diagnostics = new Diagnostics();
  if (config) dataSource.validate?.(config, diagnostics);
  return { diagnostics: wireDiagnostics(diagnostics, type) };
}
