/**
 * GetProviderSchema: the schemas of the provider block and of every resource
 * and data source type. As terraform-plugin-framework's
 * proto6server/server_getproviderschema.go.
 */
import { SERVER_CAPABILITIES, type ProviderServer } from '../provider-server';
import { wireSchema } from '../wire-schema';

/** The GetProviderSchema RPC. */
export function getProviderSchema<Context>(server: ProviderServer<Context>): unknown {
  return {
    provider: wireSchema(server.definition.schema),
    resource_schemas: mapValues(server.resources, (r) => wireSchema(r.definition.schema)),
    data_source_schemas: mapValues(server.dataSources, (d) => wireSchema(d.definition.schema)),
    functions: {},
    ephemeral_resource_schemas: {},
    diagnostics: [],
    provider_meta: null,
    server_capabilities: SERVER_CAPABILITIES,
  };
}

function mapValues<T>(map: ReadonlyMap<string, T>, f: (value: T) => unknown): Record<string, unknown> {
  return Object.fromEntries([...map].map(([key, value]) => [key, f(value)]));
}
