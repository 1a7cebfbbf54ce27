/**
 * The framework's Schema (framework/schema.ts) as tfplugin6 `Schema`:
 * attributes, protocol 6 nested attributes (`nested_type`) for objects,
 * nested blocks (`block_types`) where the schema declares them, and
 * Markdown descriptions.
 */
import type { Attribute, Block, Schema } from '../framework/schema';

/** `schema` on the wire. */
export function wireSchema(schema: Schema): unknown {
  return { version: schema.version, block: wireBlock(schema.version, schema.description, schema.attributes, schema.blocks ?? []) };
}

/** tfplugin6 `Schema.Block`: the schema's own, or a nested block's (version 0). */
function wireBlock(version: number, description: string, attributes: readonly Attribute[], blocks: readonly Block[]): unknown {
  return {
    version,
    attributes: attributes.map(wireAttribute),
    block_types: blocks.map(wireNestedBlock),
    description,
    description_kind: 'MARKDOWN',
    deprecated: false,
  };
}

function wireNestedBlock(block: Block): unknown {
  return {
    type_name: block.name,
    block: wireBlock(0, block.description, block.attributes, block.blocks ?? []),
    nesting: block.nesting,
    min_items: block.minItems ?? 0,
    max_items: block.maxItems ?? 0,
  };
}

function wireAttribute(attribute: Attribute): unknown {
  return {
    name: attribute.name,
    // A nested attribute has its type in nested_type only.
    type: attribute.type !== undefined ? Buffer.from(JSON.stringify(attribute.type)) : Buffer.alloc(0),
    nested_type: attribute.nested
      ? { attributes: attribute.nested.attributes.map(wireAttribute), nesting: attribute.nested.nesting }
      : null,
    description: attribute.description,
    description_kind: 'MARKDOWN',
    required: attribute.required === true,
    optional: attribute.optional === true,
    computed: attribute.computed === true,
    sensitive: attribute.sensitive === true,
    deprecated: false,
    write_only: false,
  };
}
