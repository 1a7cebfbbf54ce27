/**
 * `toy_thing`: a resource of the toy provider that stores its value in the
 * provider's JSON file (one entry per name), so that tests can change it
 * behind Terraform's back and see Read report it. `delay_ms` makes create
 * and update wait (aborted by StopProvider); a value "invalid" is refused at
 * validation, a tag key "bad" at its path.
 */
import * as fs from 'fs';
import { Unknown, type CtyObject } from '../../../lib/provider/framework/cty';
import type { Diagnostics } from '../../../lib/provider/framework/diagnostics';
import type { CallContext, ResourceType } from '../../../lib/provider/framework/resource';
import type { Schema } from '../../../lib/provider/framework/schema';
import { setTimeout as sleep } from 'timers/promises';

/** What configure builds: where the things are stored. */
export interface ToyContext {
  readonly storePath: string;
}

export type Store = Record<string, { value: string; labels: string[] | null; revision: number }>;

export function readStore(storePath: string): Store {
  return fs.existsSync(storePath) ? (JSON.parse(fs.readFileSync(storePath, 'utf8')) as Store) : {};
}

function writeStore(storePath: string, store: Store): void {
  fs.writeFileSync(storePath, JSON.stringify(store, null, 2));
}

export const THING_SCHEMA: Schema = {
  version: 1,
  description: "A thing stored in the toy provider's JSON file.",
  attributes: [
    { name: 'name', description: 'The key.', type: 'string', required: true },
    { name: 'value', description: 'The stored value.', type: 'string', required: true },
    { name: 'labels', description: 'Labels.', type: ['set', 'string'], optional: true },
    {
      name: 'tags',
      description: 'Tags (checked only).',
      optional: true,
      nested: {
        nesting: 'LIST',
        attributes: [
          { name: 'key', description: 'Tag key.', type: 'string', required: true },
          { name: 'value', description: 'Tag value.', type: 'string', optional: true },
        ],
      },
    },
    {
      name: 'options',
      description: 'Options.',
      optional: true,
      nested: { nesting: 'SINGLE', attributes: [{ name: 'mode', description: 'Mode.', type: 'string', optional: true }] },
    },
    { name: 'delay_ms', description: 'How long create and update wait.', type: 'number', optional: true },
    { name: 'id', description: 'The name again.', type: 'string', computed: true },
    { name: 'revision', description: 'Writes so far.', type: 'number', computed: true },
  ],
};

async function save(
  context: CallContext<ToyContext>,
  planned: CtyObject,
  revision: number,
  diagnostics: Diagnostics,
): Promise<CtyObject | null> {
  const delay = typeof planned.delay_ms === 'number' ? planned.delay_ms : 0;
  try {
    // Rejects at once when the signal is already aborted (StopProvider came between the call's start and here).
    await sleep(delay, undefined, { signal: context.signal });
  } catch {
    diagnostics.error('Interrupted', 'The thing was not written: Terraform stopped the provider.');
    return null;
  }
  const store = readStore(context.provider.storePath);
  const name = planned.name as string;
  store[name] = { value: planned.value as string, labels: (planned.labels as string[] | null) ?? null, revision };
  writeStore(context.provider.storePath, store);
  return { ...planned, id: name, revision };
}

export const toyThing: ResourceType<ToyContext> = {
  typeName: 'toy_thing',
  schema: THING_SCHEMA,
  validate(config, diagnostics) {
    if (config.value === 'invalid') diagnostics.error('Invalid value', 'The value "invalid" is refused.', ['value']);
    if (Array.isArray(config.tags)) {
      config.tags.forEach((tag, i) => {
        if (tag && !(tag instanceof Unknown) && (tag as CtyObject).key === 'bad')
          diagnostics.error('Bad tag key', 'The tag key "bad" is refused.', ['tags', i, 'key']);
      });
    }
  },
  create: (context, planned, diagnostics) => save(context, planned, 1, diagnostics),
  async update(context, prior, planned, diagnostics) {
    return save(context, planned, (prior.revision as number) + 1, diagnostics);
  },
  async read(context, state) {
    const entry = readStore(context.provider.storePath)[state.name as string];
    if (!entry) return null;
    return { ...state, value: entry.value, labels: entry.labels, id: state.name, revision: entry.revision };
  },
  async delete(context, prior) {
    const store = readStore(context.provider.storePath);
    delete store[prior.name as string];
    writeStore(context.provider.storePath, store);
  },
  async importState(_context, id) {
    const empty = Object.fromEntries(THING_SCHEMA.attributes.map((a) => [a.name, null]));
    return [{ ...empty, name: id }];
  },
};
