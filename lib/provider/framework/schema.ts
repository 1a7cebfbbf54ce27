/**
 * How a resource type, a data source or the provider describes its
 * configuration: Terraform's Schema (tfplugin6 `Schema.Block`), with
 * protocol 6 nested attributes in place of blocks, as
 * terraform-plugin-framework's `schema.Schema`. The protocol layer turns it
 * into the wire schema and into the cty type its values are encoded with;
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

/** The schema of a resource type, a data source or the provider block. */
export interface Schema {
  /** The state's schema version (UpgradeResourceState); 0 for data sources and the provider. */
  readonly version: number;
  /** Markdown. */
  readonly description: string;
  readonly attributes: readonly Attribute[];
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

/** The cty object type of a whole schema: what the configuration, the plan and the state are encoded as. */
export function schemaType(schema: Schema): CtyType {
  return objectType(schema.attributes);
}
