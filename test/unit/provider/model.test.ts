/**
 * Typed models (framework/model.ts), as terraform-plugin-framework's
 * `req.Plan.Get` and `resp.State.Set`: a value is checked against its schema
 * once and read through typed getters; a model is encoded back, every
 * attribute present. A value that does not fit is an internal error naming
 * the attribute.
 */
import { UNKNOWN, type CtyObject } from '../../../lib/provider/framework/cty';
import { encodeModel, ModelError, ModelReader } from '../../../lib/provider/framework/model';
import { valueAttributes, type Attribute, type Block } from '../../../lib/provider/framework/schema';

const NOTE: Block = {
  name: 'note',
  description: '',
  nesting: 'SINGLE',
  attributes: [
    { name: 'text', description: '', type: 'string', required: true },
    { name: 'author', description: '', type: 'string', optional: true },
  ],
};

const ATTRIBUTES: readonly Attribute[] = valueAttributes({
  attributes: [
    { name: 'name', description: '', type: 'string', required: true },
    { name: 'port', description: '', type: 'number', optional: true },
    { name: 'enabled', description: '', type: 'bool', optional: true },
    { name: 'members', description: '', type: ['set', 'string'], required: true },
    { name: 'tags', description: '', type: ['list', 'string'], optional: true },
    { name: 'labels', description: '', type: ['map', 'string'], optional: true },
    { name: 'origin', description: '', type: ['object', { host: 'string', port: 'number' }], optional: true },
    {
      name: 'rules',
      description: '',
      optional: true,
      nested: { nesting: 'LIST', attributes: [{ name: 'action', description: '', type: 'string', required: true }] },
    },
    { name: 'etag', description: '', type: 'string', computed: true },
  ],
  blocks: [NOTE],
});

/** A value holding every attribute of ATTRIBUTES. */
function value(values: CtyObject): CtyObject {
  return { ...Object.fromEntries(ATTRIBUTES.map((a) => [a.name, null])), name: 'n', members: ['a'], ...values };
}

/** A model of ATTRIBUTES, as a type would declare it. */
interface Example {
  readonly name: string;
  readonly port?: number;
  readonly enabled?: boolean;
  readonly members: readonly string[];
  readonly tags?: readonly string[];
  readonly origin?: { readonly host?: string; readonly port?: number };
  readonly rules?: readonly { readonly action: string }[];
  readonly note?: { readonly text: string; readonly author?: string };
  readonly etag?: string;
}

function decode(values: CtyObject, pending?: readonly string[]): Example {
  const fields = ModelReader.decode(ATTRIBUTES, values, { pending });
  return {
    name: fields.string('name'),
    port: fields.optionalNumber('port'),
    enabled: fields.optionalBool('enabled'),
    members: fields.strings('members'),
    tags: fields.optionalStrings('tags'),
    origin: fields.optionalObject('origin', (o) => ({ host: o.optionalString('host'), port: o.optionalNumber('port') })),
    rules: fields.optionalObjects('rules', (r) => ({ action: r.string('action') })),
    note: fields.optionalObject('note', (n) => ({ text: n.string('text'), author: n.optionalString('author') })),
    etag: fields.optionalString('etag'),
  };
}

describe('decoding a value into a model', () => {
  test('each attribute is read as its type; null (and an attribute left out) reads as unset', () => {
    const full = value({
      port: 443,
      enabled: true,
      members: ['a', 'b'],
      tags: ['x'],
      origin: { host: 'h', port: null },
      rules: [{ action: 'allow' }, { action: 'deny' }],
      note: { text: 't', author: null },
      etag: 'e',
    });
    expect(decode(full)).toEqual({
      name: 'n',
      port: 443,
      enabled: true,
      members: ['a', 'b'],
      tags: ['x'],
      origin: { host: 'h', port: undefined },
      rules: [{ action: 'allow' }, { action: 'deny' }],
      note: { text: 't', author: undefined },
      etag: 'e',
    });
    const { note: _note, ...withoutNote } = value({});
    expect(decode(withoutNote)).toEqual({ name: 'n', members: ['a'] });
  });

  test.each<[string, CtyObject, string]>([
    ['a string as a number', { port: '443' }, 'port should be a number, but is a string'],
    ['a number as a bool', { enabled: 1 }, 'enabled should be a bool, but is a number'],
    ['a set element of another type', { members: ['a', 2] }, 'members[1] should be a string, but is a number'],
    ['a null set element', { members: [null] }, 'members should be without null elements, but is a list'],
    ['a list as a string', { name: ['n'] }, 'name should be a string, but is a list'],
    ['an object as a map', { labels: { a: 'b' } }, 'labels should be a map, but is an object'],
    ["an object type's attribute", { origin: { host: 1, port: null } }, 'origin.host should be a string, but is a number'],
    ['a nested attribute in a list', { rules: [{ action: 7 }] }, 'rules[0].action should be a string, but is a number'],
    ['a required nested attribute left null', { rules: [{ action: null }] }, 'rules[0].action is null, but the schema requires it'],
    ["a block's required attribute", { note: { text: null, author: null } }, 'note.text is null, but the schema requires it'],
    ['a required attribute left null', { name: null }, 'name is null, but the schema requires it'],
    ['an unknown value', { tags: UNKNOWN }, 'tags is not known, where every value must be'],
    ['an attribute the schema lacks', { colour: 'red' }, 'colour is given, but the schema has no such attribute'],
  ])('%s is an internal error naming the attribute', (_case, values, message) => {
    const decoding = () => ModelReader.decode(ATTRIBUTES, value(values));
    expect(decoding).toThrow(ModelError);
    expect(decoding).toThrow(`internal error: the provider's value of ${message}`);
  });

  test('a map is checked element by element', () => {
    expect(() => ModelReader.decode(ATTRIBUTES, value({ labels: new Map([['a', 'b']]) }))).not.toThrow();
    expect(() => ModelReader.decode(ATTRIBUTES, value({ labels: new Map([['a', 1]]) }))).toThrow('labels["a"] should be a string');
  });

  test('a pending attribute (computed, left to the apply) may be unknown, and reads as unset', () => {
    expect(decode(value({ etag: UNKNOWN }), ['etag']).etag).toBeUndefined();
    expect(decode(value({ etag: 'e' }), ['etag']).etag).toBe('e');
    expect(() => decode(value({ name: UNKNOWN }), ['etag'])).toThrow('name is not known');
  });

  test('a getter that does not fit the attribute, or names none, is an internal error too', () => {
    const fields = ModelReader.decode(ATTRIBUTES, value({ port: 443 }));
    expect(() => fields.optionalString('port')).toThrow('port is read as a string, but is a number');
    expect(() => fields.string('etag')).toThrow('etag is read as set, but is null');
    expect(() => fields.string('colour')).toThrow('colour is read, but the schema has no such attribute');
    expect(() => fields.optionalObject('name', () => 1)).toThrow('name is read as an object, but the schema does not make it one');
  });
});

describe('encoding a model', () => {
  test('every attribute of the schema, null where the model leaves it unset; it decodes back to the same model', () => {
    const model: Example = { name: 'n', members: ['b', 'a'], rules: [{ action: 'allow' }], note: { text: 't' }, etag: 'e' };
    const encoded = encodeModel(ATTRIBUTES, { ...model, note: { text: 't', author: undefined }, labels: new Map([['k', 'v']]) });
    expect(encoded).toEqual(
      value({
        members: ['b', 'a'],
        rules: [{ action: 'allow' }],
        note: { text: 't', author: null },
        etag: 'e',
        labels: new Map([['k', 'v']]),
      }),
    );
    expect(decode(encoded)).toEqual(model);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['a number as a string', { name: 1 }, 'name is encoded as a string, but is a number'],
    ['a required attribute left unset', { name: undefined }, 'name is required, but the model leaves it unset'],
    ['a list element of another type', { tags: ['x', true] }, 'tags[1] is encoded as a string, but is a bool'],
    ['a nested object of another type', { rules: ['allow'] }, 'rules[0] is encoded as an object, but is a string'],
    ['an attribute the schema lacks', { colour: 'red' }, 'colour is set, but the schema has no such attribute'],
    [
      "a block's attribute the schema lacks",
      { note: { text: 't', colour: 'red' } },
      'note.colour is set, but the schema has no such attribute',
    ],
  ])('%s is an internal error naming the attribute', (_case, model, message) => {
    expect(() => encodeModel(ATTRIBUTES, { name: 'n', members: [], ...(model as object) })).toThrow(
      `internal error: the provider's value of ${message}`,
    );
  });
});
