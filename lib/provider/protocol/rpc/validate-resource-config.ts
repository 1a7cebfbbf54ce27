/**
 * ValidateResourceConfig: Terraform checks a resource's configuration
 * (unknown values are skipped) at validate and plan. As
 * terraform-plugin-framework's proto6server/server_validateresourceconfig.go.
 */
import { Diagnostics } from '../../framework/diagnostics';
import { decodeObject } from '../dynamic-value';
import type { ProviderServer } from '../provider-server';
import type * as wire from '../wire';
import { wireDiagnostics } from '../wire-diagnostics';

/** The ValidateResourceConfig RPC. */
export function validateResourceConfig<Context>(
  server: ProviderServer<Context>,
  request: wire.TypedConfigRequest,
): wire.DiagnosticsResponse {
  const { definition: resource, type } = server.resource(request.type_name);
  const config = decodeObject(request.config, type, 'resource configuration');
  const diagnostics = new Diagnostics();
  if (config) resource.validate?.(config, diagnostics);
  return { diagnostics: wireDiagnostics(diagnostics, type) };
}
