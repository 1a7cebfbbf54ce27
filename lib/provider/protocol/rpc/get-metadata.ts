/**
 * GetMetadata: the provider's capabilities and type names, which Terraform
 * asks first and caches instead of the whole schema. As
 * terraform-plugin-framework's proto6server/server_getmetadata.go.
 */
import { SERVER_CAPABILITIES, type ProviderServer } from '../provider-server';

/** The GetMetadata RPC. */
export function getMetadata<Context>(server: ProviderServer<Context>): unknown {
  return {
    server_capabilities: SERVER_CAPABILITIES,
    diagnostics: [],
    data_sources: [...server.dataSources.keys()].map((type_name) => ({ type_name })),
    resources: [...server.resources.keys()].map((type_name) => ({ type_name })),
    functions: [],
    ephemeral_resources: [],
  };
}
