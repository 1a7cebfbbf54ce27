/**
 * Every schema the provider serves, as one list: what
 * scripts/generate-provider-bindings.js generates the cdktf L1 classes from
 * (the provider's schema is the one source). Read off the provider
 * definition itself, so a resource type's file is the only place its schema
 * is written.
 */
import type { Schema } from './framework/schema';
import { googleIamProvider } from './google-iam-provider';

/** One schema the provider serves: the provider block's, a resource type's or a data source's. */
export interface ProviderSchemaEntry {
  readonly typeName: string;
  readonly kind: 'provider' | 'resource' | 'data-source';
  readonly schema: Schema;
}

/** The provider block (typeName `googleiam`), then every resource type, then every data source. */
export function providerSchemas(): ProviderSchemaEntry[] {
  // Defining the provider reads no environment and configures nothing.
  const provider = googleIamProvider({});
  return [
    { typeName: provider.name, kind: 'provider', schema: provider.schema },
    ...provider.resources.map((r) => ({ typeName: r.typeName, kind: 'resource' as const, schema: r.schema })),
    ...provider.dataSources.map((d) => ({ typeName: d.typeName, kind: 'data-source' as const, schema: d.schema })),
  ];
}
