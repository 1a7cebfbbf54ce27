/**
 * The bench's no-op plugin provider: what Terraform costs for a plugin
 * resource that does nothing. One resource type, `noop_grant`, with the
 * member grant's configured attributes (`name`, `role`, `member`) and an `id`:
 * it plans at once (the id known from the configuration), and its create,
 * read, update and delete answer at once with nothing stored but Terraform's
 * state. Served by the same protocol layer as the googleiam provider (Node.js,
 * gRPC, AutoMTLS), so the difference between the two is what a grant costs
 * beyond a plugin resource. Bundled by bench/noop-deploy.ts.
 *
 * BENCH_NOOP_PAD_BYTES=n (from the bench's environment, through terraform's)
 * adds a computed `padding` of n characters to each resource's state: what the
 * same resource costs when it holds as many bytes of state as a grant.
 */
import type { CtyObject } from '../../lib/provider/framework/cty';
import type { ResourceType } from '../../lib/provider/framework/resource';
import { serveProvider } from '../../lib/provider/protocol/serve';

const padding = 'x'.repeat(Number(process.env.BENCH_NOOP_PAD_BYTES ?? 0));
const idOf = (values: CtyObject) => `${String(values.name)}/${String(values.role)}/${String(values.member)}`;
const required = (name: string) => ({ name, description: name, type: 'string' as const, required: true });

const noopGrant: ResourceType<object> = {
  typeName: 'noop_grant',
  schema: {
    version: 0,
    description: 'Holds what it is given; does nothing.',
    attributes: [
      required('name'),
      required('role'),
      required('member'),
      { name: 'id', description: 'id', type: 'string', computed: true },
      ...(padding ? [{ name: 'padding', description: 'padding', type: 'string' as const, computed: true }] : []),
    ],
  },
  plan: ({ proposed }) => ({ planned: { ...proposed, id: idOf(proposed), ...(padding ? { padding } : {}) }, requiresReplace: [] }),
  create: async (_context, planned) => planned,
  read: async (_context, state) => state,
  update: async (_context, _prior, planned) => planned,
  delete: async () => undefined,
  importState: async () => [],
};

serveProvider<object>(() => ({
  name: 'noop',
  schema: { version: 0, description: 'The bench no-op provider.', attributes: [] },
  resources: [noopGrant],
  dataSources: [],
  configure: async () => ({}),
}));
