/**
 * A stand-in for the Terraform google provider (`hashicorp/google`) in tests
 * with real terraform, which cannot download it: the schemas of the source
 * types a `moved` block brings into this provider (the google provider's
 * address-group IAM resources, as its 6.x schemas declare them, and the
 * member, binding and policy of each row of google-move-table.ts: the
 * resource's attribute required, the others of its name, `project` and
 * `location`, optional), and a
 * Create that stores what the google provider stores (the given values, the
 * id it builds, an etag, an unset condition description as ""); Read keeps
 * the state; Update and Delete do nothing remote. Served by the project's
 * protocol layer (main.ts), which logs every RPC it gets to the file in
 * GOOGLE_STANDIN_LOG, so a test sees what terraform asked of it.
 */
import type { CtyObject } from '../../../lib/provider/framework/cty';
import type { ProviderDefinition, ResourceType } from '../../../lib/provider/framework/resource';
import type { Attribute, Block, Schema } from '../../../lib/provider/framework/schema';
import { GOOGLE_GENERIC_MOVE_ROWS, resourceAttribute, rowAttributes } from '../../../lib/provider/resources/google-move-table';

/** The etag the stand-in's Create stores (the google provider stores the policy's, read after its write). */
export const STANDIN_ETAG = 'BwYstandin0=';

const string = (name: string, required = true): Attribute => ({
  name,
  description: name,
  type: 'string',
  ...(required ? { required: true } : { optional: true }),
});
const computed = (name: string): Attribute => ({ name, description: name, type: 'string', computed: true });

/** The google provider's condition: a LIST block of at most one. */
const CONDITION: Block = {
  name: 'condition',
  description: 'condition',
  nesting: 'LIST',
  maxItems: 1,
  attributes: [string('expression'), string('title'), string('description', false)],
};

/** What the google provider stores of a condition: an unset description as "" (SDKv2 keeps no null strings). */
function storedCondition(value: unknown): CtyObject[] {
  return ((value as CtyObject[] | null) ?? []).map((c) => ({ ...c, description: c.description ?? '' }));
}

/** `tpgiamresource`'s id: `{name}/{role}[/{member}]`, then `/{title}/{description}/{expression}` when conditional. */
function conditionSuffix(condition: CtyObject[]): string {
  const [c] = condition;
  return c ? `/${String(c.title)}/${String(c.description)}/${String(c.expression)}` : '';
}

function standin(typeName: string, attributes: Attribute[], blocks: Block[], idOf: (planned: CtyObject) => string): ResourceType<object> {
  const schema: Schema = {
    version: 0,
    description: `The google provider's ${typeName} (stand-in).`,
    attributes: [...attributes, computed('etag'), computed('id')],
    blocks,
  };
  const stored = (planned: CtyObject): CtyObject => {
    const values = blocks.length > 0 ? { ...planned, condition: storedCondition(planned.condition) } : planned;
    return { ...values, etag: STANDIN_ETAG, id: idOf(values) };
  };
  return {
    typeName,
    schema,
    create: async (_context, planned) => stored(planned),
    read: async (_context, state) => state,
    update: async (_context, _prior, planned) => stored(planned),
    delete: async () => undefined,
    importState: async () => [],
  };
}

/** The attributes the google provider resolves from its configuration when a resource's are unset. */
const RESOLVED = new Set(['project', 'location', 'zone', 'region']);

const MEMBERS: Attribute = { name: 'members', description: 'members', type: ['set', 'string'], required: true };
const memberId = (resource: string) => (v: CtyObject) =>
  `${String(v[resource])}/${String(v.role)}/${String(v.member).toLowerCase()}${conditionSuffix(v.condition as CtyObject[])}`;
const bindingId = (v: CtyObject) => `${String(v.name)}/${String(v.role)}${conditionSuffix(v.condition as CtyObject[])}`;

export const googleStandin: ProviderDefinition<object> = {
  name: 'google',
  schema: { version: 0, description: 'The google provider (stand-in).', attributes: [string('project', false)] },
  resources: [
    standin(
      'google_network_security_address_group_iam_member',
      [string('name'), string('role'), string('member')],
      [CONDITION],
      memberId('name'),
    ),
    standin('google_network_security_address_group_iam_binding', [string('name'), string('role'), MEMBERS], [CONDITION], bindingId),
    standin('google_network_security_address_group_iam_policy', [string('name'), string('policy_data')], [], (v) => String(v.name)),
    ...GOOGLE_GENERIC_MOVE_ROWS.flatMap((row) => {
      const own = resourceAttribute(row);
      // As the google provider declares them: the resource's own and the others of its name required, the ones
      // it resolves from the provider's configuration (`project`, `location`, `zone`, `region`) optional.
      const resource = rowAttributes(row).map((a) => string(a, a === own || !RESOLVED.has(a)));
      return [
        standin(`${row.google}_iam_member`, [...resource, string('role'), string('member')], [CONDITION], memberId(own)),
        standin(`${row.google}_iam_binding`, [...resource, string('role'), MEMBERS], [CONDITION], (v) => bindingId({ ...v, name: v[own] })),
        standin(`${row.google}_iam_policy`, [...resource, string('policy_data')], [], (v) => String(v[own])),
      ];
    }),
    // A source type this provider does not take (not in google-move-table.ts): the move is refused.
    standin(
      'google_bigtable_instance_iam_member',
      [string('instance'), string('project', false), string('role'), string('member')],
      [CONDITION],
      memberId('instance'),
    ),
  ],
  dataSources: [],
  configure: async () => ({}),
};
