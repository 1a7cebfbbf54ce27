/**
 * Terraform's DynamicValue.msgpack encoding of cty values (go-cty's
 * cty/msgpack), for the types a provider schema uses. The encoding is
 * type-directed, as in go-cty: the same bytes mean different things for
 * different types, so both directions take the cty type.
 *
 * - null is msgpack nil, strings are str, numbers int/float (or a decimal
 *   string when too large), bools bool;
 * - lists and sets are arrays, maps and objects are maps with string keys;
 * - an unknown value is extension type 0 (fixext1 `d4 00 00`), or extension
 *   type 12 carrying "refinements" (not null, string prefix, length bounds).
 *
 * Maps decode to `Map`, so keys are plain data. One limit: @msgpack/msgpack
 * refuses to decode a map key "__proto__" (it decodes maps to objects), so
 * such a key in a query fails with a clear error; encoding it works.
 */
import { Decoder, Encoder, ExtensionCodec, decode as decodeRaw } from '@msgpack/msgpack';

/** A cty type, in the JSON form the protocol's Schema.Attribute.type uses. */
export type CtyType = 'string' | 'number' | 'bool' | readonly ['list' | 'set' | 'map', CtyType] | readonly ['object', ObjectAttributes];

/** The attribute types of a cty object type. */
export interface ObjectAttributes {
  readonly [attribute: string]: CtyType;
}

/** What go-cty's refined unknowns may say about the eventual value. */
export interface Refinements {
  readonly notNull?: boolean;
  readonly stringPrefix?: string;
  readonly lengthMin?: number;
  readonly lengthMax?: number;
}

/** A value that Terraform does not know yet (it is known after apply). */
export class Unknown {
  constructor(public readonly refinements: Refinements = {}) {}
}

/** The plain unknown, without refinements. */
export const UNKNOWN = new Unknown();

/** A decoded cty value. */
export type CtyValue = null | string | number | boolean | Unknown | CtyValue[] | Map<string, CtyValue> | CtyObject;
/** A decoded cty object: its attributes by name. */
export interface CtyObject {
  readonly [attribute: string]: CtyValue;
}

const EXT_UNKNOWN = 0;
const EXT_UNKNOWN_REFINED = 12;
const REFINEMENT = { nullness: 1, stringPrefix: 2, lengthMin: 5, lengthMax: 6 } as const;

/** Marks an extension value while decoding; turned into Unknown by the typed pass. */
class RawUnknown {
  constructor(
    public readonly type: number,
    public readonly data: Uint8Array,
  ) {}
}

const extensions = new ExtensionCodec();
for (const type of [EXT_UNKNOWN, EXT_UNKNOWN_REFINED]) {
  extensions.register({
    type,
    encode: (value: unknown) => (value instanceof RawUnknown && value.type === type ? value.data : null),
    decode: (data: Uint8Array) => new RawUnknown(type, data),
  });
}
const decoder = new Decoder({ extensionCodec: extensions });
const encoder = new Encoder({ extensionCodec: extensions, sortKeys: true });

/** Decodes msgpack `bytes` as a value of cty type `type`; throws on a mismatch. */
export function decodeCty(bytes: Uint8Array, type: CtyType): CtyValue {
  let raw: unknown;
  try {
    raw = decoder.decode(bytes);
  } catch (e) {
    const message = (e as Error).message;
    if (message.includes('__proto__')) throw new Error('the map key "__proto__" is not supported by this stand-in provider');
    throw new Error(`invalid msgpack: ${message}`);
  }
  return fromRaw(raw, type, [], false);
}

/**
 * Reads a value of cty type `type` from its JSON form (Terraform's JSON
 * state: lists and sets as arrays, maps and objects as JSON objects). With
 * `dropUnknownAttributes`, object attributes the type lacks are left out
 * (a state written by an older schema) instead of being an error.
 */
export function ctyFromJson(json: unknown, type: CtyType, options: { readonly dropUnknownAttributes?: boolean } = {}): CtyValue {
  return fromRaw(json, type, [], options.dropUnknownAttributes === true);
}

/** Encodes `value` (which must conform to `type`) as msgpack. */
export function encodeCty(value: CtyValue, type: CtyType): Uint8Array {
  return encoder.encode(toRaw(value, type, []));
}

/** Whether `value` contains no unknown anywhere. */
export function isWhollyKnown(value: CtyValue): boolean {
  if (value instanceof Unknown) return false;
  if (value === null || typeof value !== 'object') return true;
  const children = Array.isArray(value) ? value : value instanceof Map ? [...value.values()] : Object.values(value);
  return children.every(isWhollyKnown);
}

function fromRaw(raw: unknown, type: CtyType, path: string[], dropUnknownAttributes: boolean): CtyValue {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof RawUnknown) return unknownFromRaw(raw, path);
  const fail = (expected: string): never => {
    throw new Error(`${where(path)}: expected ${expected}, got ${describe(raw)}`);
  };
  if (type === 'string') return typeof raw === 'string' ? raw : fail('a string');
  if (type === 'bool') return typeof raw === 'boolean' ? raw : fail('a bool');
  if (type === 'number') {
    if (typeof raw === 'number') return raw;
    // go-cty writes numbers that fit neither int64 nor float64 as decimal strings.
    return typeof raw === 'string' && raw.trim() !== '' && !isNaN(Number(raw)) ? Number(raw) : fail('a number');
  }
  const [kind, inner] = type;
  if (kind === 'list' || kind === 'set') {
    if (!Array.isArray(raw)) return fail(`a ${kind}`);
    return raw.map((element, i) => fromRaw(element, inner, [...path, String(i)], dropUnknownAttributes));
  }
  if (!isPlainMap(raw)) return fail(kind === 'map' ? 'a map' : 'an object');
  if (kind === 'map') {
    const map = new Map<string, CtyValue>();
    for (const key of Object.keys(raw)) map.set(key, fromRaw(raw[key], inner, [...path, key], dropUnknownAttributes));
    return map;
  }
  const attributes = inner as ObjectAttributes;
  const object: { [attribute: string]: CtyValue } = {};
  for (const key of dropUnknownAttributes ? [] : Object.keys(raw)) {
    if (!Object.prototype.hasOwnProperty.call(attributes, key)) throw new Error(`${where(path)}: unsupported attribute "${key}"`);
  }
  for (const key of Object.keys(attributes)) {
    object[key] = Object.prototype.hasOwnProperty.call(raw, key)
      ? fromRaw(raw[key], attributes[key], [...path, key], dropUnknownAttributes)
      : null;
  }
  return object;
}

function unknownFromRaw(raw: RawUnknown, path: string[]): Unknown {
  // go-cty: a body of 0 or 1 bytes is a plain unknown; a longer one is a map of refinements.
  if (raw.data.length <= 1) return UNKNOWN;
  if (raw.type !== EXT_UNKNOWN_REFINED) throw new Error(`${where(path)}: unsupported extension type ${raw.type}`);
  const body = decodeRaw(raw.data) as Record<string, unknown>;
  if (!isPlainMap(body)) throw new Error(`${where(path)}: unknown value refinements are not a map`);
  const refinements: { -readonly [K in keyof Refinements]: Refinements[K] } = {};
  const get = (key: number): unknown => body[String(key)];
  if (typeof get(REFINEMENT.nullness) === 'boolean') refinements.notNull = get(REFINEMENT.nullness) === false;
  const [prefix, lengthMin, lengthMax] = [get(REFINEMENT.stringPrefix), get(REFINEMENT.lengthMin), get(REFINEMENT.lengthMax)];
  if (typeof prefix === 'string') refinements.stringPrefix = prefix;
  if (typeof lengthMin === 'number') refinements.lengthMin = lengthMin;
  if (typeof lengthMax === 'number') refinements.lengthMax = lengthMax;
  return new Unknown(refinements);
}

function toRaw(value: CtyValue, type: CtyType, path: string[]): unknown {
  if (value === null) return null;
  if (value instanceof Unknown) return unknownToRaw(value);
  const fail = (expected: string): never => {
    throw new Error(`${where(path)}: expected ${expected}, got ${describe(value)}`);
  };
  if (type === 'string') return typeof value === 'string' ? value : fail('a string');
  if (type === 'bool') return typeof value === 'boolean' ? value : fail('a bool');
  if (type === 'number') return typeof value === 'number' && isFinite(value) ? value : fail('a finite number');
  const [kind, inner] = type;
  if (kind === 'list' || kind === 'set') {
    if (!Array.isArray(value)) return fail(`a ${kind}`);
    return value.map((element, i) => toRaw(element, inner, [...path, String(i)]));
  }
  // A prototype-less object: the encoder reads own keys only, and "__proto__" stays a key.
  const out = Object.create(null) as Record<string, unknown>;
  if (kind === 'map') {
    if (!(value instanceof Map)) return fail('a Map');
    for (const [key, element] of value) out[key] = toRaw(element, inner, [...path, key]);
    return out;
  }
  if (typeof value !== 'object' || Array.isArray(value) || value instanceof Map) return fail('an object');
  const object = value as CtyObject;
  const attributes = inner as ObjectAttributes;
  for (const key of Object.keys(attributes)) {
    const attribute = Object.prototype.hasOwnProperty.call(object, key) ? object[key] : null;
    out[key] = toRaw(attribute === undefined ? null : attribute, attributes[key], [...path, key]);
  }
  return out;
}

function unknownToRaw(value: Unknown): RawUnknown {
  const entries: Array<[number, unknown]> = [];
  const r = value.refinements;
  if (r.notNull) entries.push([REFINEMENT.nullness, false]);
  if (r.stringPrefix) entries.push([REFINEMENT.stringPrefix, r.stringPrefix]);
  if (r.lengthMin) entries.push([REFINEMENT.lengthMin, r.lengthMin]);
  if (r.lengthMax !== undefined) entries.push([REFINEMENT.lengthMax, r.lengthMax]);
  if (entries.length === 0) return new RawUnknown(EXT_UNKNOWN, new Uint8Array([0]));
  // go-cty's refinement map has small-integer keys, which the encoder cannot write from a JS object.
  const parts = [new Uint8Array([0x80 + entries.length])];
  for (const [key, v] of entries) parts.push(new Uint8Array([key]), encoder.encode(v));
  return new RawUnknown(EXT_UNKNOWN_REFINED, Buffer.concat(parts));
}

function isPlainMap(raw: unknown): raw is Record<string, unknown> {
  return typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !(raw instanceof Uint8Array) && !(raw instanceof RawUnknown);
}

function where(path: string[]): string {
  return path.length === 0 ? 'value' : `value at ${path.map((p) => JSON.stringify(p)).join('.')}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Map) return 'a Map';
  if (value instanceof Uint8Array) return 'binary data';
  return typeof value;
}
