import { UNKNOWN } from '../../../lib/provider/framework/cty';
import { Diagnostics } from '../../../lib/provider/framework/diagnostics';
import type { ResourceType } from '../../../lib/provider/framework/resource';
import { planResourceChange } from '../../../lib/provider/protocol/planning';

const resource: ResourceType = {
  typeName: 'toy_thing',
  schema: {
    version: 0,
    description: '',
    attributes: [
      { name: 'name', description: '', type: 'string', required: true },
      { name: 'members', description: '', type: ['set', 'string'], required: true },
      { name: 'project', description: '', type: 'string', optional: true, computed: true },
      { name: 'etag', description: '', type: 'string', computed: true },
    ],
  },
  create: async () => null,
  read: async () => null,
  update: async () => null,
  delete: async () => undefined,
  importState: async () => [],
};
const prior = { name: 'n', members: ['a', 'b'], project: 'p', etag: 'e1' };

describe('PlanResourceChange by default', () => {
  test('a create plans computed attributes the configuration leaves null as unknown', async () => {
    const config = { name: 'n', members: ['a'], project: null, etag: null };
    const plan = await planResourceChange(resource, { prior: null, proposed: config, config }, new Diagnostics());
    expect(plan.planned).toEqual({ name: 'n', members: ['a'], project: UNKNOWN, etag: UNKNOWN });
  });

  test('an update with no configured change keeps the prior computed values (a set in another order is no change)', async () => {
    const config = { name: 'n', members: ['b', 'a'], project: null, etag: null };
    const proposed = { ...config, project: 'p', etag: 'e1' };
    expect((await planResourceChange(resource, { prior, proposed, config }, new Diagnostics())).planned).toEqual(proposed);
  });

  test('an update that changes a configured attribute plans unconfigured computed ones unknown, configured ones as configured', async () => {
    const config = { name: 'n', members: ['a'], project: 'p', etag: null };
    const proposed = { ...config, etag: 'e1' };
    expect((await planResourceChange(resource, { prior, proposed, config }, new Diagnostics())).planned).toEqual({
      ...config,
      etag: UNKNOWN,
    });
  });

  test('a destroy plans null', async () => {
    expect((await planResourceChange(resource, { prior, proposed: null, config: null }, new Diagnostics())).planned).toBeNull();
  });

  test("a resource's own plan gets its requires_replace through, and configured non-computed attributes forced to the configuration", async () => {
    const config = { name: 'N', members: ['a'], project: null, etag: null };
    const own: ResourceType = {
      ...resource,
      plan: ({ proposed }) => ({ planned: { ...proposed, name: 'n', etag: UNKNOWN }, requiresReplace: [['name']] }),
    };
    const plan = await planResourceChange(own, { prior, proposed: { ...config, project: 'p', etag: 'e1' }, config }, new Diagnostics());
    expect(plan.planned).toEqual({ name: 'N', members: ['a'], project: 'p', etag: UNKNOWN });
    expect(plan.requiresReplace).toEqual([['name']]);
  });
});
