/**
 * Nested blocks in the framework's schema (framework/schema.ts), as
 * terraform-plugin-framework declares them: on the wire as tfplugin6
 * `block_types` (so HCL takes `name { ... }`), and in values as the object,
 * list or set of objects they hold (so the cty codec, planning and the state
 * treat them as the nested attribute of the same nesting, and state written
 * when the condition was such an attribute reads unchanged).
 */
import { ctyFromJson, decodeCty, encodeCty, UNKNOWN } from '../../../lib/provider/framework/cty';
import { Diagnostics } from '../../../lib/provider/framework/diagnostics';
import type { ResourceType } from '../../../lib/provider/framework/resource';
import {
  attributeType,
  blockAttribute,
  schemaType,
  valueAttributes,
  type Block,
  type Schema,
} from '../../../lib/provider/framework/schema';
import { planResourceChange } from '../../../lib/provider/protocol/planning';
import { wireSchema } from '../../../lib/provider/protocol/wire-schema';
import { CONDITION_BLOCK } from '../../../lib/provider/resources/iam-schema';
import { providerSchemas } from '../../../lib/provider/schemas';

const RULE: Block = {
  name: 'rule',
  description: 'A rule.',
  nesting: 'LIST',
  minItems: 1,
  maxItems: 3,
  attributes: [{ name: 'port', description: 'The port.', type: 'number', required: true }],
  blocks: [
    {
      name: 'note',
      description: 'A note.',
      nesting: 'SINGLE',
      attributes: [{ name: 'text', description: '', type: 'string', optional: true }],
    },
  ],
};
const SCHEMA: Schema = {
  version: 2,
  description: 'A thing.',
  attributes: [
    { name: 'name', description: 'Its name.', type: 'string', required: true },
    { name: 'etag', description: '', type: 'string', computed: true },
  ],
  blocks: [CONDITION_BLOCK, RULE],
};

test('on the wire: attributes stay attributes, blocks become block_types with their nesting and bounds', async () => {
  const { block } = wireSchema(SCHEMA) as { block: { attributes: { name: string }[]; block_types: unknown[] } };
  expect(block.attributes.map((a) => a.name)).toEqual(['name', 'etag']);
  expect(block.block_types).toEqual([
    {
      type_name: 'condition',
      nesting: 'SINGLE',
      min_items: 0,
      max_items: 0,
      block: expect.objectContaining({
        attributes: [
          expect.objectContaining({ name: 'expression', required: true, nested_type: null }),
          expect.objectContaining({ name: 'title', required: true }),
          expect.objectContaining({ name: 'description', optional: true }),
        ],
        block_types: [],
        description: CONDITION_BLOCK.description,
        description_kind: 'MARKDOWN',
      }),
    },
    {
      type_name: 'rule',
      nesting: 'LIST',
      min_items: 1,
      max_items: 3,
      block: expect.objectContaining({
        attributes: [expect.objectContaining({ name: 'port', type: Buffer.from('"number"') })],
        block_types: [expect.objectContaining({ type_name: 'note', nesting: 'SINGLE' })],
      }),
    },
  ]);
});

test("a block's value type is its nesting's: an object (SINGLE), a list or set of objects; nested blocks inside", async () => {
  expect(schemaType(SCHEMA)).toEqual([
    'object',
    {
      name: 'string',
      etag: 'string',
      condition: ['object', { expression: 'string', title: 'string', description: 'string' }],
      rule: ['list', ['object', { port: 'number', note: ['object', { text: 'string' }] }]],
    },
  ]);
  expect(valueAttributes(SCHEMA).map((a) => a.name)).toEqual(['name', 'etag', 'condition', 'rule']);
  expect(blockAttribute(CONDITION_BLOCK)).toMatchObject({ optional: true, nested: { nesting: 'SINGLE' } });
});

test('values round-trip through msgpack, an absent SINGLE block as null; state JSON of the former nested attribute reads as is', async () => {
  const type = schemaType(SCHEMA);
  const value = {
    name: 'n',
    etag: null,
    condition: { expression: 'true', title: 't', description: null },
    rule: [{ port: 443, note: null }],
  };
  expect(decodeCty(encodeCty(value, type), type)).toEqual(value);
  expect(decodeCty(encodeCty({ ...value, condition: null, rule: [] }, type), type)).toEqual({ ...value, condition: null, rule: [] });
  // Terraform's JSON state of a member grant whose condition was a nested attribute: the same object.
  const state = { name: 'n', etag: 'e', condition: { expression: 'true', title: 't', description: null }, rule: [] };
  expect(ctyFromJson(state, type, { dropUnknownAttributes: true })).toEqual(state);
});

test('planning: a block is configured, never computed, and planned exactly as configured', async () => {
  const resource: ResourceType = {
    typeName: 'toy_thing',
    schema: SCHEMA,
    create: async () => null,
    read: async () => null,
    update: async () => null,
    delete: async () => undefined,
    importState: async () => [],
  };
  const config = {
    name: 'n',
    etag: null,
    condition: { expression: 'true', title: 't', description: null },
    rule: [{ port: 1, note: null }],
  };
  const plan = await planResourceChange(resource, { prior: null, proposed: config, config }, new Diagnostics());
  expect(plan.planned).toEqual({ ...config, etag: UNKNOWN });
});

test("the provider's member and binding types declare the condition as a block (as the google provider does), a policy's bindings keep theirs as an attribute", async () => {
  const schemas = providerSchemas().filter((e) => e.kind === 'resource');
  const grants = schemas.filter((e) => /_iam_(member|binding)$/.test(e.typeName));
  expect(grants.length).toBeGreaterThan(0);
  for (const { typeName, schema, members } of grants) {
    expect([typeName, schema.blocks?.map((b) => [b.name, b.nesting])]).toEqual([typeName, [['condition', 'SINGLE']]]);
    expect([typeName, schema.attributes.some((a) => a.name === 'condition')]).toEqual([typeName, false]);
    expect(members.find((m) => m.name === 'condition')).toMatchObject({ block: true });
  }
  for (const { schema } of schemas.filter((e) => e.typeName.endsWith('_iam_policy'))) {
    const bindings = schema.attributes.find((a) => a.name === 'bindings')!;
    expect(attributeType(bindings)).toEqual(['list', ['object', expect.objectContaining({ condition: expect.anything() })]]);
    expect(schema.blocks ?? []).toEqual([]);
  }
});
