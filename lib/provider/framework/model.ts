/**
 * Typed models of the values Terraform sends and gets back, as
 * terraform-plugin-framework's `req.Plan.Get(ctx, &model)` and
 * `resp.State.Set(ctx, &model)`: a value is checked against its schema once
 * (`ModelReader.decode`), then read through typed getters into the type's own
 * model (an interface); a model is encoded back (`encodeModel`), checked the
 * same way. Terraform checks every value against the schema the provider
 * gave it, so a value that does not fit is the provider's bug: an internal
 * error (ModelError) naming the attribute.
 *
 * Unknown values exist only while validating and planning, and those calls
 * keep the partial CtyObject (lib/iam's validators skip what `isKnown` says is
 * unknown). Everything else (apply, refresh, import, data source reads) sees
 * known values, except the computed attributes a plan leaves for the apply to
 * set: `pending` names them, and an unknown one reads as absent.
 */
import { Unknown, type CtyObject, type CtyType, type CtyValue, type ObjectAttributes } from './cty';
import type { Attribute } from './schema';

/** A model's value: null and undefined alike are an unset attribute (null in the CtyObject). */
export type ModelValue = null | undefined | string | number | boolean | readonly ModelValue[] | Map<string, ModelValue> | ModelObject;

/** A model encoded for the schema: its attributes by their schema names. */
export interface ModelObject {
  readonly [attribute: string]: ModelValue;
}

/** A value that does not fit the schema, or a getter that does not fit the attribute: the provider's bug. */
export class ModelError extends Error {
  constructor(path: string, problem: string) {
    super(`internal error: the provider's value of ${path} ${problem}`);
    this.name = 'ModelError';
  }
}

/** Reads one object value, every attribute already checked against its schema, through typed getters. */
export class ModelReader {
  /** Checks `value` against `attributes` (the schema's `valueAttributes`, blocks included) and reads it. */
  public static decode(
    attributes: readonly Attribute[],
    value: CtyObject,
    options: { readonly pending?: readonly string[] } = {},
  ): ModelReader {
    checkObject(attributes, value, '', options.pending ?? []);
    return new ModelReader(attributes, value, '');
  }

  private constructor(
    private readonly attributes: readonly Attribute[],
    private readonly value: CtyObject,
    private readonly path: string,
  ) {}

  public string(name: string): string {
    return this.required(name, this.optionalString(name));
  }

  public optionalString(name: string): string | undefined {
    return this.read(name, 'a string', (v) => (typeof v === 'string' ? v : undefined));
  }

  public number(name: string): number {
    return this.required(name, this.optionalNumber(name));
  }

  public optionalNumber(name: string): number | undefined {
    return this.read(name, 'a number', (v) => (typeof v === 'number' ? v : undefined));
  }

  public bool(name: string): boolean {
    return this.required(name, this.optionalBool(name));
  }

  public optionalBool(name: string): boolean | undefined {
    return this.read(name, 'a bool', (v) => (typeof v === 'boolean' ? v : undefined));
  }

  /** A list or set of strings. */
  public strings(name: string): string[] {
    return this.required(name, this.optionalStrings(name));
  }

  public optionalStrings(name: string): string[] | undefined {
    return this.read(name, 'a list or set of strings', (v) => {
      if (!Array.isArray(v)) return undefined;
      const strings = v.filter((e): e is string => typeof e === 'string');
      return strings.length === v.length ? strings : undefined;
    });
  }

  /** A map of strings. */
  public optionalStringMap(name: string): Map<string, string> | undefined {
    return this.read(name, 'a map of strings', (v) => {
      if (!(v instanceof Map)) return undefined;
      return [...v.values()].every((e) => typeof e === 'string') ? (v as Map<string, string>) : undefined;
    });
  }

  /** A single nested attribute or block, or an object-typed attribute, read by `read`. */
  public object<T>(name: string, read: (object: ModelReader) => T): T {
    return this.required(name, this.optionalObject(name, read));
  }

  public optionalObject<T>(name: string, read: (object: ModelReader) => T): T | undefined {
    const attributes = nestedAttributes(this.attribute(name));
    const path = this.pathOf(name);
    return this.read(name, 'an object', (v) => (isObject(v) ? read(new ModelReader(attributes, v, path)) : undefined));
  }

  /** A list or set of objects (nested attributes or blocks), each read by `read`. */
  public objects<T>(name: string, read: (object: ModelReader) => T): T[] {
    return this.required(name, this.optionalObjects(name, read));
  }

  public optionalObjects<T>(name: string, read: (object: ModelReader) => T): T[] | undefined {
    const attributes = nestedAttributes(this.attribute(name));
    const path = this.pathOf(name);
    return this.read(name, 'a list or set of objects', (v) => {
      if (!Array.isArray(v)) return undefined;
      const objects = v.filter(isObject);
      return objects.length === v.length ? objects.map((o, i) => read(new ModelReader(attributes, o, `${path}[${i}]`))) : undefined;
    });
  }

  /** The attribute's value through `narrow`: undefined when null (or pending), a ModelError when `narrow` refuses it. */
  private read<T>(name: string, expected: string, narrow: (value: CtyValue) => T | undefined): T | undefined {
    this.attribute(name);
    const value = this.value[name] ?? null;
    if (value === null || value instanceof Unknown) return undefined;
    const narrowed = narrow(value);
    if (narrowed === undefined) throw new ModelError(this.pathOf(name), `is read as ${expected}, but is ${describe(value)}`);
    return narrowed;
  }

  private required<T>(name: string, value: T | undefined): T {
    if (value === undefined) throw new ModelError(this.pathOf(name), 'is read as set, but is null or not yet known');
    return value;
  }

  private attribute(name: string): Attribute {
    const attribute = this.attributes.find((a) => a.name === name);
    if (!attribute) throw new ModelError(this.pathOf(name), 'is read, but the schema has no such attribute');
    return attribute;
  }

  private pathOf(name: string): string {
    return this.path === '' ? name : `${this.path}.${name}`;
  }
}

/** `model` as the CtyObject of `attributes` (every attribute, null where the model leaves it unset), checked against them. */
export function encodeModel(attributes: readonly Attribute[], model: ModelObject, path = ''): CtyObject {
  const at = (name: string) => (path === '' ? name : `${path}.${name}`);
  for (const name of Object.keys(model)) {
    if (!attributes.some((a) => a.name === name)) throw new ModelError(at(name), 'is set, but the schema has no such attribute');
  }
  const object: { [attribute: string]: CtyValue } = {};
  for (const attribute of attributes) {
    const value = model[attribute.name];
    if (value === null || value === undefined) {
      if (attribute.required) throw new ModelError(at(attribute.name), 'is required, but the model leaves it unset');
      object[attribute.name] = null;
    } else {
      object[attribute.name] = encodeAttribute(attribute, value, at(attribute.name));
    }
  }
  return object;
}

function encodeAttribute(attribute: Attribute, value: NonNullable<ModelValue>, path: string): CtyValue {
  if (attribute.type !== undefined) return encodeType(attribute.type, value, path);
  const nested = attribute.nested!;
  const encodeOne = (element: ModelValue, at: string) => {
    if (!isModelObject(element)) throw new ModelError(at, `is encoded as an object, but is ${describe(element)}`);
    return encodeModel(nested.attributes, element, at);
  };
  if (nested.nesting === 'SINGLE') return encodeOne(value, path);
  if (!isModelList(value)) throw new ModelError(path, `is encoded as a ${nested.nesting.toLowerCase()}, but is ${describe(value)}`);
  return value.map((element, i) => encodeOne(element, `${path}[${i}]`));
}

function encodeType(type: CtyType, value: ModelValue, path: string): CtyValue {
  const fail = (expected: string): never => {
    throw new ModelError(path, `is encoded as ${expected}, but is ${describe(value)}`);
  };
  if (type === 'string') return typeof value === 'string' ? value : fail('a string');
  if (type === 'number') return typeof value === 'number' ? value : fail('a number');
  if (type === 'bool') return typeof value === 'boolean' ? value : fail('a bool');
  if (type[0] === 'object') return isModelObject(value) ? encodeModel(objectTypeAttributes(type[1]), value, path) : fail('an object');
  const [kind, inner] = type;
  if (kind === 'map') {
    if (!(value instanceof Map)) return fail('a map');
    return new Map([...value].map(([key, element]) => [key, encodeType(inner, element, `${path}[${JSON.stringify(key)}]`)]));
  }
  if (!isModelList(value)) return fail(`a ${kind}`);
  return value.map((element, i) => encodeType(inner, element, `${path}[${i}]`));
}

/** Checks every attribute of `value` against its schema: its type, null only where optional or computed, unknown only where pending. */
function checkObject(attributes: readonly Attribute[], value: CtyObject, path: string, pending: readonly string[]): void {
  for (const name of Object.keys(value)) {
    if (!attributes.some((a) => a.name === name)) throw new ModelError(join(path, name), 'is given, but the schema has no such attribute');
  }
  for (const attribute of attributes) {
    const at = join(path, attribute.name);
    const element = value[attribute.name] ?? null;
    if (element instanceof Unknown) {
      if (!pending.includes(attribute.name)) throw new ModelError(at, 'is not known, where every value must be');
    } else if (element === null) {
      if (attribute.required) throw new ModelError(at, 'is null, but the schema requires it');
    } else if (attribute.type !== undefined) {
      checkType(attribute.type, element, at);
    } else {
      const nested = attribute.nested!;
      const checkOne = (object: CtyValue, where: string) => {
        if (!isObject(object)) throw new ModelError(where, `should be an object, but is ${describe(object)}`);
        checkObject(nested.attributes, object, where, []);
      };
      if (nested.nesting === 'SINGLE') checkOne(element, at);
      else if (Array.isArray(element)) element.forEach((object, i) => checkOne(object, `${at}[${i}]`));
      else throw new ModelError(at, `should be a ${nested.nesting.toLowerCase()}, but is ${describe(element)}`);
    }
  }
}

function checkType(type: CtyType, value: CtyValue, path: string): void {
  const fail = (expected: string): never => {
    throw new ModelError(path, `should be ${expected}, but is ${describe(value)}`);
  };
  if (value instanceof Unknown) fail('known');
  if (type === 'string') return void (typeof value === 'string' || fail('a string'));
  if (type === 'number') return void (typeof value === 'number' || fail('a number'));
  if (type === 'bool') return void (typeof value === 'boolean' || fail('a bool'));
  if (type[0] === 'object') return isObject(value) ? checkObject(objectTypeAttributes(type[1]), value, path, []) : fail('an object');
  const [kind, inner] = type;
  if (kind === 'map') {
    if (!(value instanceof Map)) return fail('a map');
    return value.forEach((element, key) => checkType(inner, element, `${path}[${JSON.stringify(key)}]`));
  }
  if (!Array.isArray(value)) return fail(`a ${kind}`);
  // A model has no null elements: Terraform's sets refuse them, and none of the provider's lists holds one.
  value.forEach((element, i) => (element === null ? fail('without null elements') : checkType(inner, element, `${path}[${i}]`)));
}

/** The attributes of a nested attribute or block, or of an object-typed attribute (each optional, as cty's object attributes may be null). */
function nestedAttributes(attribute: Attribute): readonly Attribute[] {
  if (attribute.nested) return attribute.nested.attributes;
  const type = attribute.type;
  const element = typeof type !== 'string' && type !== undefined && (type[0] === 'list' || type[0] === 'set') ? type[1] : type;
  if (typeof element !== 'string' && element !== undefined && element[0] === 'object') return objectTypeAttributes(element[1]);
  throw new ModelError(attribute.name, 'is read as an object, but the schema does not make it one');
}

function objectTypeAttributes(attributes: ObjectAttributes): Attribute[] {
  return Object.entries(attributes).map(([name, type]) => ({ name, description: '', type, optional: true }));
}

function isObject(value: CtyValue): value is CtyObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map) && !(value instanceof Unknown);
}

function isModelObject(value: ModelValue): value is ModelObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map);
}

function isModelList(value: ModelValue): value is readonly ModelValue[] {
  return Array.isArray(value);
}

function join(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Unknown) return 'unknown';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Map) return 'a map';
  return typeof value === 'object' ? 'an object' : `a ${typeof value === 'boolean' ? 'bool' : typeof value}`;
}
