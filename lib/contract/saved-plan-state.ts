import { ContractError } from './contract-error';
import { MessageReader } from './message-reader';

/**
 * The prior state inside a saved plan (the zip's `tfstate`: terraform's state
 * format 4, JSON), as far as the provider reads it: the managed objects, each
 * with its address, deposed key, attributes and private data
 * (lib/provider/protocol/saved-plan.ts). Parsed here, field by field, never
 * cast into shape.
 */
export interface StateObject {
  /** Its address as terraform writes it (`module.a.googleiam_x.y["k"]`). */
  readonly address: string;
  /** Its deposed key, for an object a create-before-destroy set aside. @default - the instance's current object */
  readonly deposed?: string;
  readonly typeName: string;
  /** Its attributes, as JSON (decoded against the type's schema by whoever knows it). */
  readonly attributes: unknown;
  /** Its private data, base64 as the state holds it. @default - none */
  readonly private?: string;
}

const reader = new MessageReader('saved plan state');

/** The managed objects of the state file's JSON text. */
export function parseStateObjects(text: string): StateObject[] {
  const state = reader.object(reader.json(text), 'the state');
  if (state.version !== 4)
    throw ContractError.shape('saved plan state', 'version', state.version, 'expected 4, the state format of terraform 1.x');
  return reader.list(state.resources ?? [], 'resources').flatMap((value, i) => {
    const field = `resources[${i}]`;
    const resource = reader.object(value, field);
    if (resource.mode !== 'managed') return [];
    const module = reader.optionalString(resource.module, `${field}.module`);
    const typeName = reader.text(resource.type, `${field}.type`);
    const name = reader.text(resource.name, `${field}.name`);
    return reader.list(resource.instances ?? [], `${field}.instances`).map((item, j): StateObject => {
      const instance = reader.object(item, `${field}.instances[${j}]`);
      const deposed = reader.optionalString(instance.deposed, `${field}.instances[${j}].deposed`);
      const privateData = reader.optionalString(instance.private, `${field}.instances[${j}].private`);
      return {
        address: `${module ? `${module}.` : ''}${typeName}.${name}${indexOf(instance.index_key, `${field}.instances[${j}].index_key`)}`,
        ...(deposed ? { deposed } : {}),
        typeName,
        attributes: instance.attributes,
        ...(privateData ? { private: privateData } : {}),
      };
    });
  });
}

/** An instance key as terraform writes it in an address: `[0]`, `["a"]` (Go's quoting, which JSON's matches for what keys hold). */
function indexOf(key: unknown, field: string): string {
  if (key === undefined) return '';
  return typeof key === 'number' ? `[${reader.number(key, field)}]` : `[${JSON.stringify(reader.string(key, field))}]`;
}
