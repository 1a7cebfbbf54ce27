/**
 * A toy ProviderDefinition for the protocol layer's tests: provider `toy`
 * with a store path and a sensitive token, the `toy_thing` resource and a
 * `toy_thing` data source. The tests bundle main.ts with esbuild and install
 * it with installProvider, as the real provider is.
 */
import type { ProviderDefinition } from '../../../lib/provider/framework/resource';
import { readStore, toyThing, type ToyContext } from './toy-thing';

export const toyProvider: ProviderDefinition<ToyContext> = {
  name: 'toy',
  schema: {
    version: 0,
    description: 'The toy provider.',
    attributes: [
      { name: 'store_path', description: 'The JSON file things are stored in.', type: 'string', required: true },
      { name: 'token', description: 'A secret (only logged redacted).', type: 'string', optional: true, sensitive: true },
    ],
  },
  resources: [toyThing],
  dataSources: [
    {
      typeName: 'toy_thing',
      schema: {
        version: 0,
        description: 'Reads a stored thing.',
        attributes: [
          { name: 'name', description: 'The key.', type: 'string', required: true },
          { name: 'value', description: 'The stored value.', type: 'string', computed: true },
        ],
      },
      async read(context, config, diagnostics) {
        const entry = readStore(context.provider.storePath)[config.name as string];
        if (!entry) {
          diagnostics.error('No such thing', `Nothing is stored as "${String(config.name)}".`, ['name']);
          return null;
        }
        return { ...config, value: entry.value };
      },
    },
  ],
  validate(config, diagnostics) {
    if (config.token === 'refused') diagnostics.error('Refused token', 'The token "refused" is refused.', ['token']);
  },
  async configure(config) {
    return { storePath: config.store_path as string };
  },
};
