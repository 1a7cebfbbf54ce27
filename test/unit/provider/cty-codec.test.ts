import { encode } from '@msgpack/msgpack';
import { UNKNOWN, Unknown, ctyFromJson, decodeCty, encodeCty, isWhollyKnown, type CtyType } from '../../../lib/provider/framework/cty';

// A policy-like type: a list of nested objects holding a set, a nested single object and a map.
const BINDING: CtyType = [
  'object',
  {
    role: 'string',
    members: ['set', 'string'],
    condition: ['object', { expression: 'string', title: 'string', description: 'string' }],
  },
];
const TYPE: CtyType = [
  'object',
  { name: 'string', version: 'number', enabled: 'bool', bindings: ['list', BINDING], labels: ['map', 'string'] },
];

describe('the cty msgpack codec', () => {
  test('nested objects, lists, sets and maps round-trip; absent attributes are null', () => {
    const value = {
      name: 'n',
      version: 3,
      enabled: true,
      bindings: [
        { role: 'roles/viewer', members: ['user:a@example.com', 'user:b@example.com'], condition: null },
        { role: 'roles/editor', members: [], condition: { expression: 'true', title: 't', description: null } },
      ],
      labels: new Map([['env', 'prod']]),
    };
    expect(decodeCty(encodeCty(value, TYPE), TYPE)).toEqual(value);
    // go-cty leaves no attribute out, but a missing one reads as null.
    expect(decodeCty(encode({ name: 'n' }), TYPE)).toEqual({ name: 'n', version: null, enabled: null, bindings: null, labels: null });
  });

  test('unknowns anywhere: extension 0 plain, extension 12 with refinements', () => {
    const value = {
      name: UNKNOWN,
      version: null,
      enabled: null,
      bindings: [{ role: 'r', members: UNKNOWN, condition: null }],
      labels: null,
    };
    const bytes = encodeCty(value, TYPE);
    expect(Buffer.from(bytes).includes(Buffer.from([0xd4, 0x00, 0x00]))).toBe(true);
    const decoded = decodeCty(bytes, TYPE);
    expect(decoded).toEqual(value);
    expect(isWhollyKnown(decoded)).toBe(false);
    expect(isWhollyKnown({ ...value, name: 'x', bindings: [] })).toBe(true);

    const refined = new Unknown({ notNull: true, stringPrefix: 'projects/' });
    const back = decodeCty(encodeCty(refined, 'string'), 'string');
    expect(back).toBeInstanceOf(Unknown);
    expect((back as Unknown).refinements).toEqual({ notNull: true, stringPrefix: 'projects/' });
  });

  test('a value of the wrong type is refused with its path', () => {
    expect(() => decodeCty(encode({ name: 'n', bindings: [{ role: 5 }] }), TYPE)).toThrow(
      'value at "bindings"."0"."role": expected a string, got number',
    );
    expect(() => decodeCty(encode({ nope: 1 }), TYPE)).toThrow('unsupported attribute "nope"');
  });

  test("Terraform's JSON state reads with the same types; attributes the schema no longer has can be dropped", () => {
    const json = {
      name: 'n',
      version: 1,
      enabled: false,
      bindings: [{ role: 'r', members: ['m'], old: 'x' }],
      labels: { a: 'b' },
      gone: 1,
    };
    expect(() => ctyFromJson(json, TYPE)).toThrow('unsupported attribute');
    expect(ctyFromJson(json, TYPE, { dropUnknownAttributes: true })).toEqual({
      name: 'n',
      version: 1,
      enabled: false,
      bindings: [{ role: 'r', members: ['m'], condition: null }],
      labels: new Map([['a', 'b']]),
    });
  });
});
