/**
 * How a resource type, a data source or the provider describes its
 * configuration: Terraform's Schema (tfplugin6 `Schema.Block`), as
 * terraform-plugin-framework's `schema.Schema`: attributes (protocol 6
 * nested attributes for objects, written `name = { ... }` in HCL) and nested
 * blocks (written `name { ... }`, the SDKv2 providers' shape, which HCL
 * written for them expects). The protocol layer turns it into the wire schema
 * and into the cty type its values are encoded with;
 * scripts/generate-provider-bindings.js turns it into the cdktf L1 classes.
 */
import type { CtyType, ObjectAttributes } from './cty';

/** How a nested attribute holds its objects (tfplugin6 `Schema.Object.NestingMode`). */
export type NestingMode = 'SINGLE' | 'LIST' | 'SET';

/** One attribute. Exactly one of `type` and `nested` is set. */
export interface Attribute {
  /** snake_case, as in HCL. */
  readonly name: string;
  /** Markdown; the generated L1 classes take it as their docs. */
  readonly description: string;
  /** A primitive or collection type. */
  readonly type?: CtyType;
  /** An object (SINGLE), or a list or set of objects, with attributes of their own. */
  readonly nested?: { readonly nesting: NestingMode; readonly attributes: readonly Attribute[] };
  readonly required?: boolean;
  readonly optional?: boolean;
  /** Set by the provider; with `optional`, the provider fills it when the configuration leaves it out. */
  readonly computed?: boolean;
  /** Shown as `(sensitive value)` in plans and never logged. */
  readonly sensitive?: boolean;
}

/**
 * A nested block (tfplugin6 `Schema.NestedBlock`), as terraform-plugin-framework's
 * `SingleNestedBlock`/`ListNestedBlock`/`SetNestedBlock`: configured, never
 * computed; its value is an object (SINGLE: null when the block is absent) or a
 * list or set of them (empty when absent).
 */
export interface Block {
  /** snake_case, as in HCL. */
  readonly name: string;
  /** Markdown; the generated L1 classes take it as their docs. */
  readonly description: string;
  readonly nesting: NestingMode;
  readonly attributes: readonly Attribute[];
  readonly blocks?: readonly Block[];
  /** LIST and SET: how many blocks at least and at most (0: no bound). @default 0 */
  readonly minItems?: number;
  /** @default 0 */
  readonly maxItems?: number;
}

/** The schema of a resource type, a data source or the provider block. */
export interface Schema {
  /** The state's schema version (UpgradeResourceState); 0 for data sources and the provider. */
  readonly version: number;
  /** Markdown. */
  readonly description: string;
  readonly attributes: readonly Attribute[];
  /** @default - none */
  readonly blocks?: readonly Block[];
}

/**
 * A block as the attribute its value is: an optional nested attribute of the
 * same nesting (its own blocks among its attributes), for whatever only looks
 * at values (their cty type, planning, redaction). The wire schema keeps it a block.
 */
export function blockAttribute(block: Block): Attribute {
  return {
    name: block.name,
    description: block.description,
    optional: true,
    nested: { nesting: block.nesting, attributes: [...block.attributes, ...(block.blocks ?? []).map(blockAttribute)] },
  };
}

/** Every attribute a value of `schema` has: its attributes, then its blocks as attributes. */
export function valueAttributes(schema: { readonly attributes: readonly Attribute[]; readonly blocks?: readonly Block[] }): Attribute[] {
  return [...schema.attributes, ...(schema.blocks ?? []).map(blockAttribute)];
}

/** The cty type of an attribute's value. */
export function attributeType(attribute: Attribute): CtyType {
  if (attribute.type !== undefined) return attribute.type;
  if (!attribute.nested) throw new Error(`attribute ${attribute.name} has neither a type nor nested attributes`);
  const object = objectType(attribute.nested.attributes);
  switch (attribute.nested.nesting) {
    case 'SINGLE':
      return object;
    case 'LIST':
      return ['list', object];
    case 'SET':
      return ['set', object];
  }
}

/** The cty object type of a list of attributes. */
export function objectType(attributes: readonly Attribute[]): CtyType {
  const types: { [name: string]: CtyType } = {};
  for (const attribute of attributes) types[attribute.name] = attributeType(attribute);
  return ['object', types as ObjectAttributes];
}

/** The cty object type of a whole schema (blocks included): what the configuration, the plan and the state are encoded as. */
export function schemaType(schema: Schema): CtyType {
  return objectType(valueAttributes(schema));
}
