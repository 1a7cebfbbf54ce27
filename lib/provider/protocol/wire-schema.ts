/**
 * The framework's Schema (framework/schema.ts) as tfplugin6 `Schema`:
 * protocol 6 nested attributes (`nested_type`) rather than blocks, and
 * Markdown descriptions.
 */
import type { Attribute, Schema } from '../framework/schema';

/** `schema` on the wire. */
export function wireSchema(schema: Schema): unknown {
  return {
    version: schema.version,
    block: {
      version: schema.version,
      attributes: schema.attributes.map(wireAttribute),
      block_types: [],
      description: schema.description,
      description_kind: 'MARKDOWN',
      deprecated: false,
    },
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
