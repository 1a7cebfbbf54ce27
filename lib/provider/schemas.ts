/**
 * Every schema the provider serves, as one list: what
 * scripts/generate-provider-bindings.js generates the cdktf L1 classes from
 * (the provider's schema is the one source). Read off the provider
 * definition itself, so a resource type's file is the only place its schema
 * is written.
 */
import { blockAttribute, type Attribute, type Schema } from './framework/schema';
import { googleIamProvider } from './google-iam-provider';

/** One schema the provider serves: the provider block's, a resource type's or a data source's. */
export interface ProviderSchemaEntry {
  readonly typeName: string;
  readonly kind: 'provider' | 'resource' | 'data-source';
  readonly schema: Schema;
  /** What a value of the schema holds: its attributes, then its blocks as attributes (marked `block`, for cdktf's HCL renderer). */
  readonly members: readonly SchemaMember[];
}

/** An attribute of a schema's value; `block` when the schema declares it as a block. */
export type SchemaMember = Attribute & { readonly block?: true };

/** The provider block (typeName `googleiam`), then every resource type, then every data source. */
export function providerSchemas(): ProviderSchemaEntry[] {
  // Defining the provider reads no environment and configures nothing.
  const provider = googleIamProvider({});
  const entry = (typeName: string, kind: ProviderSchemaEntry['kind'], schema: Schema): ProviderSchemaEntry => ({
    typeName,
    kind,
    schema,
    members: [...schema.attributes, ...(schema.blocks ?? []).map((block) => ({ ...blockAttribute(block), block: true as const }))],
  });
  return [
    entry(provider.name, 'provider', provider.schema),
    ...provider.resources.map((r) => entry(r.typeName, 'resource', r.schema)),
    ...provider.dataSources.map((d) => entry(d.typeName, 'data-source', d.schema)),
  ];
}
