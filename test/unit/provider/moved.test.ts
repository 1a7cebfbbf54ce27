/**
 * `moved` blocks into this provider's grant types (MoveResourceState, ResourceType
 * `moveFrom`): from the google provider's address-group IAM resources, and
 * between a typed family and the generic one. The state is what an import
 * writes, with the source's etag; a source that cannot be mapped is an error
 * naming it and pointing to import.
 */
import { decodeCty } from '../../../lib/provider/framework/cty';
import { Diagnostics } from '../../../lib/provider/framework/diagnostics';
import { PrivateState } from '../../../lib/provider/framework/private-state';
import type { MoveSource, ResourceType } from '../../../lib/provider/framework/resource';
import { Logger } from '../../../lib/provider/protocol/log';
import { ProviderServer, SERVER_CAPABILITIES } from '../../../lib/provider/protocol/provider-server';
import { moveResourceState } from '../../../lib/provider/protocol/rpc/move-resource-state';
import { IAM_RESOURCE_TYPES } from '../../../lib/provider/resources/iam-types';
import { GOOGLE_SOURCE_TYPES } from '../../../lib/provider/resources/move-sources';
import { GOOGLE_GENERIC_MOVE_ROWS } from '../../../lib/provider/resources/google-move-table';
import { GoogleIamApis } from '../../../lib/api/iam-apis';
import type { GoogleIamContext } from '../../../lib/provider/provider-context';
import { GOOGLE_MOVE_SAMPLES } from '../../support/google-move-samples';

const NAME = 'projects/p-123456/locations/global/addressGroups/ag';
const GOOGLE = 'registry.terraform.io/hashicorp/google';
const OWN = 'registry.terraform.io/cdktf-google-iam/googleiam';
const CONDITION = { expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', title: 'until 2030' };

function type(name: string): ResourceType<GoogleIamContext> {
  const found = IAM_RESOURCE_TYPES.find((t) => t.typeName === name);
  if (!found) throw new Error(name);
  return found;
}

function move(target: string, source: Partial<MoveSource> & Pick<MoveSource, 'typeName' | 'state'>, from?: PrivateState) {
  const diagnostics = new Diagnostics();
  const privateState = PrivateState.decode(null);
  const state = type(target).moveFrom!(
    { providerAddress: GOOGLE, schemaVersion: 0, private: from ?? PrivateState.decode(null), ...source },
    diagnostics,
    privateState,
  );
  return { state, diagnostics: diagnostics.all, privateState };
}

/** A state as Terraform sends it, JSON: a map as an object. */
const asJson = (state: unknown): MoveSource['state'] =>
  JSON.parse(JSON.stringify(state, (_key, value: unknown) => (value instanceof Map ? Object.fromEntries(value) : value)));

const googleMember = (condition: unknown[] = []) => ({
  condition,
  etag: 'BwYabc=',
  id: `${NAME}/roles/networksecurity.viewer/user:a@example.com`,
  member: 'user:a@example.com',
  name: NAME,
  role: 'roles/networksecurity.viewer',
});

test('the google sources: the address group kinds, then the generic table', () => {
  expect(GOOGLE_SOURCE_TYPES.slice(0, 3)).toEqual([
    'google_network_security_address_group_iam_member',
    'google_network_security_address_group_iam_binding',
    'google_network_security_address_group_iam_policy',
  ]);
  expect(GOOGLE_SOURCE_TYPES).toHaveLength(3 + 3 * GOOGLE_GENERIC_MOVE_ROWS.length);
});

test('google member: the LIST condition becomes the block, an empty description absent; id and etag as the google state has them', () => {
  const { state, diagnostics } = move('googleiam_address_group_iam_member', {
    typeName: 'google_network_security_address_group_iam_member',
    state: googleMember([{ ...CONDITION, description: '' }]),
  });
  expect(diagnostics).toEqual([]);
  expect(state).toEqual({
    name: NAME,
    role: 'roles/networksecurity.viewer',
    member: 'user:a@example.com',
    condition: { ...CONDITION, description: null },
    check_suppressions: null,
    id: `${NAME}/roles/networksecurity.viewer/user:a@example.com/until 2030//${CONDITION.expression}`,
    etag: 'BwYabc=',
  });
  const plain = move('googleiam_address_group_iam_member', {
    typeName: 'google_network_security_address_group_iam_member',
    state: googleMember(),
  });
  expect(plain.state!.id).toBe(googleMember().id);
  expect(plain.state!.condition).toBeNull();
});

test('source addresses match loosely: google-beta, and bare names as OpenTofu sends them', () => {
  for (const providerAddress of [
    'registry.terraform.io/hashicorp/google-beta',
    'hashicorp/google',
    'google',
    'registry.opentofu.org/hashicorp/google',
  ]) {
    const { diagnostics } = move('googleiam_address_group_iam_member', {
      providerAddress,
      typeName: 'google_network_security_address_group_iam_member',
      state: googleMember(),
    });
    expect(diagnostics).toEqual([]);
  }
});

test('google binding and policy: members as a set, policy_data parsed as an import reads a policy', () => {
  const binding = move('googleiam_address_group_iam_binding', {
    typeName: 'google_network_security_address_group_iam_binding',
    state: {
      name: NAME,
      role: 'roles/networksecurity.viewer',
      members: ['user:b@example.com', 'user:a@example.com'],
      condition: [],
      etag: 'e1',
      id: `${NAME}/roles/networksecurity.viewer`,
    },
  });
  expect(binding.diagnostics).toEqual([]);
  expect(binding.state).toMatchObject({
    members: ['user:b@example.com', 'user:a@example.com'],
    condition: null,
    id: `${NAME}/roles/networksecurity.viewer`,
    etag: 'e1',
  });
  expect(binding.privateState.encode().length).toBe(0);

  const policyData = JSON.stringify({
    bindings: [
      { members: ['user:a@example.com'], role: 'roles/networksecurity.viewer' },
      { condition: { ...CONDITION, description: '' }, members: ['user:c@example.com'], role: 'roles/networksecurity.editor' },
    ],
  });
  const policy = move('googleiam_address_group_iam_policy', {
    typeName: 'google_network_security_address_group_iam_policy',
    state: { name: NAME, policy_data: policyData, etag: 'e2', id: NAME },
  });
  expect(policy.diagnostics).toEqual([]);
  expect(policy.state).toMatchObject({
    name: NAME,
    bindings: [
      { role: 'roles/networksecurity.viewer', members: ['user:a@example.com'], condition: null },
      { role: 'roles/networksecurity.editor', members: ['user:c@example.com'], condition: { ...CONDITION, description: null } },
    ],
    audit_configs: null,
    id: NAME,
    etag: 'e2',
  });
});

test('into the generic kind and back: the same grant, its private state carried over', () => {
  const typed = move('googleiam_address_group_iam_member', {
    typeName: 'google_network_security_address_group_iam_member',
    state: googleMember(),
  }).state!;
  const from = PrivateState.decode(Buffer.from(JSON.stringify({ lastApplied: 'abcdef' })));
  const generic = move(
    'googleiam_iam_member',
    { providerAddress: OWN, typeName: 'googleiam_address_group_iam_member', state: typed },
    from,
  );
  expect(generic.diagnostics).toEqual([]);
  expect(generic.state).toEqual({ ...typed, service: 'networksecurity', api_version: 'v1', get_iam_policy_method: null });
  expect(generic.privateState.get('lastApplied')).toBe('abcdef');
  const back = move('googleiam_address_group_iam_member', {
    providerAddress: 'googleiam',
    typeName: 'googleiam_iam_member',
    // Terraform sends the state as JSON: a map as an object.
    state: asJson(generic.state),
  });
  expect(back.diagnostics).toEqual([]);
  expect(back.state).toEqual(typed);
  // A type to itself (OpenTofu calls the RPC when only the provider's address changed, opentofu/opentofu#4375).
  expect(
    move('googleiam_address_group_iam_member', { providerAddress: OWN, typeName: 'googleiam_address_group_iam_member', state: typed })
      .state,
  ).toEqual(typed);
  // The google source straight into the generic kind.
  expect(
    move('googleiam_iam_member', { typeName: 'google_network_security_address_group_iam_member', state: googleMember() }).state,
  ).toEqual(generic.state);
});

test.each([
  [
    'an unknown source type',
    {
      typeName: 'google_bigtable_instance_iam_member',
      state: { instance: 'projects/p/instances/x', role: 'r', member: 'user:a@example.com' },
    },
    /google_bigtable_instance_iam_member/,
  ],
  [
    'another kind',
    {
      typeName: 'google_network_security_address_group_iam_binding',
      state: { name: NAME, role: 'roles/networksecurity.viewer', members: [] },
    },
    /grants differently/,
  ],
  ['a policy_data it cannot parse', { typeName: 'google_network_security_address_group_iam_member', state: googleMember() }, null],
  [
    'a newer schema version',
    { typeName: 'google_network_security_address_group_iam_member', schemaVersion: 1, state: googleMember() },
    /schema version 1/,
  ],
  [
    'another provider',
    {
      providerAddress: 'registry.terraform.io/acme/google',
      typeName: 'google_network_security_address_group_iam_member',
      state: googleMember(),
    },
    /acme/,
  ],
  [
    'another resource type of this provider',
    {
      providerAddress: OWN,
      typeName: 'googleiam_authorization_policy_iam_member',
      state: { ...googleMember(), name: 'projects/p-123456/locations/global/authorizationPolicies/ap', condition: null },
    },
    /name/,
  ],
])('refused: %s, naming the source and pointing to import', (_what, source, why) => {
  const policySource = {
    typeName: 'google_network_security_address_group_iam_policy',
    state: { name: NAME, policy_data: '{"bindings": "no"}' },
  };
  const target =
    why === null
      ? 'googleiam_address_group_iam_policy'
      : source.typeName.endsWith('_binding')
        ? 'googleiam_address_group_iam_member'
        : 'googleiam_address_group_iam_member';
  const { state, diagnostics } = move(target, why === null ? policySource : source);
  expect(state).toBeNull();
  expect(diagnostics).toHaveLength(1);
  const [d] = diagnostics;
  expect(d.severity).toBe('ERROR');
  const named = why === null ? policySource.typeName : source.typeName;
  expect(d.summary).toBe(`Cannot move ${named} to ${target}`);
  expect(d.detail).toMatch(why ?? /policy_data/);
  expect(d.detail).toContain('`import` block');
  expect(d.detail).toContain('lifecycle { destroy = false }');
});

describe('the MoveResourceState RPC', () => {
  const thing: ResourceType<object> = {
    typeName: 'toy_thing',
    schema: { version: 0, description: '', attributes: [{ name: 'name', description: '', type: 'string', required: true }] },
    create: async () => null,
    read: async (_c, state) => state,
    update: async () => null,
    delete: async () => undefined,
    importState: async () => [],
  };
  const server = (resource: ResourceType<object>) =>
    new ProviderServer<object>(
      {
        name: 'toy',
        schema: { version: 0, description: '', attributes: [] },
        resources: [resource],
        dataSources: [],
        configure: async () => ({}),
      },
      new Logger('provider.toy', {}),
      () => undefined,
    );
  const request = (json: string | undefined) => ({
    source_provider_address: 'registry.terraform.io/hashicorp/google',
    source_type_name: 'google_thing',
    source_schema_version: '0',
    source_state: json === undefined ? null : { json: Buffer.from(json) },
    target_type_name: 'toy_thing',
    source_private: Buffer.alloc(0),
  });

  test('the server announces it', () => {
    expect(SERVER_CAPABILITIES.move_resource_state).toBe(true);
  });

  test('a type without moveFrom refuses, naming the source', () => {
    const response = moveResourceState(server(thing), request('{"name":"a"}'));
    expect(response.target_state).toBeNull();
    expect(response.diagnostics).toEqual([
      expect.objectContaining({ severity: 'ERROR', summary: 'Move not supported', detail: expect.stringContaining('google_thing') }),
    ]);
  });

  test("the type's answer is encoded with its private state; the source as parsed JSON", () => {
    let seen: MoveSource | undefined;
    const movable: ResourceType<object> = {
      ...thing,
      moveFrom(source, _diagnostics, target) {
        seen = source;
        target.set('from', source.typeName);
        return { name: (source.state as { name: string }).name };
      },
    };
    const response = moveResourceState(server(movable), request('{"name":"a"}'));
    expect(response.diagnostics).toEqual([]);
    expect(decodeCty(response.target_state!.msgpack, ['object', { name: 'string' }])).toEqual({ name: 'a' });
    expect(JSON.parse(Buffer.from(response.target_private).toString())).toEqual({ from: 'google_thing' });
    expect(seen).toMatchObject({
      providerAddress: 'registry.terraform.io/hashicorp/google',
      typeName: 'google_thing',
      schemaVersion: 0,
      state: { name: 'a' },
    });
    // No state sent: an error, the type not called.
    seen = undefined;
    expect(moveResourceState(server(movable), request(undefined)).diagnostics[0].summary).toBe('Unable to move the state');
    expect(seen).toBeUndefined();
  });
});

test('the bulk kinds move typed <-> generic too, their computed missing_grants with them', () => {
  const grant = { role: 'roles/networksecurity.viewer', member: 'user:a@example.com', condition: null };
  const typed = {
    name: NAME,
    grant: [grant],
    check_suppressions: { 'GoogleIam-Public': 'public by design here' },
    missing_grants: [],
    id: NAME,
    etag: 'e',
  };
  const generic = move('googleiam_iam_members', { providerAddress: OWN, typeName: 'googleiam_address_group_iam_members', state: typed });
  expect(generic.diagnostics).toEqual([]);
  expect(generic.state).toMatchObject({
    name: NAME,
    service: 'networksecurity',
    api_version: 'v1',
    grant: [grant],
    missing_grants: [],
    id: NAME,
    etag: 'e',
  });
  const back = move('googleiam_address_group_iam_members', {
    providerAddress: OWN,
    typeName: 'googleiam_iam_members',
    // Terraform sends the state as JSON: a map as an object.
    state: asJson(generic.state),
  });
  expect(back.diagnostics).toEqual([]);
  expect({ ...back.state, check_suppressions: Object.fromEntries(back.state!.check_suppressions as Map<string, string>) }).toEqual(typed);
});

test('the generic table: every row tested here, each collection IAM-enabled at its API version', () => {
  expect(GOOGLE_GENERIC_MOVE_ROWS.map((r) => r.google)).toEqual(GOOGLE_MOVE_SAMPLES.map((r) => r.google));
  for (const row of GOOGLE_MOVE_SAMPLES) {
    const tableRow = GOOGLE_GENERIC_MOVE_ROWS.find((r) => r.google === row.google)!;
    expect([tableRow.service, tableRow.apiVersion]).toEqual([row.service, row.apiVersion]);
    expect(GoogleIamApis.collection(row.service, row.apiVersion, row.name)).toMatchObject({ writable: true });
    for (const kind of ['member', 'binding', 'policy']) expect(GOOGLE_SOURCE_TYPES).toContain(`${row.google}_iam_${kind}`);
  }
  // Not in the table: a managed folder's state names no collection (its `managed_folder` ends in `/`), Bigtable not mapped.
  for (const unmapped of ['google_storage_managed_folder', 'google_bigtable_instance'])
    expect(GOOGLE_SOURCE_TYPES).not.toContain(`${unmapped}_iam_member`);
});

describe.each(GOOGLE_MOVE_SAMPLES)('$google into the generic kinds', ({ google, state, service, apiVersion, name, role }) => {
  const resource = { service, api_version: apiVersion, name, get_iam_policy_method: null };

  test('member, with its condition', () => {
    const moved = move('googleiam_iam_member', {
      typeName: `${google}_iam_member`,
      state: { ...state, role, member: 'user:a@example.com', condition: [{ ...CONDITION, description: '' }], etag: 'e', id: 'x' },
    });
    expect(moved.diagnostics).toEqual([]);
    expect(moved.state).toEqual({
      ...resource,
      role,
      member: 'user:a@example.com',
      condition: { ...CONDITION, description: null },
      check_suppressions: null,
      id: `${name}/${role}/user:a@example.com/until 2030//${CONDITION.expression}`,
      etag: 'e',
    });
  });

  test('binding and policy', () => {
    const binding = move('googleiam_iam_binding', {
      typeName: `${google}_iam_binding`,
      state: { ...state, role, members: ['user:b@example.com', 'user:a@example.com'], condition: [], etag: 'e1' },
    });
    expect(binding.diagnostics).toEqual([]);
    expect(binding.state).toMatchObject({ ...resource, role, members: ['user:b@example.com', 'user:a@example.com'], condition: null });
    const policy = move('googleiam_iam_policy', {
      typeName: `${google}_iam_policy`,
      state: { ...state, policy_data: JSON.stringify({ bindings: [{ role, members: ['user:a@example.com'] }] }), etag: 'e2' },
    });
    expect(policy.diagnostics).toEqual([]);
    expect(policy.state).toMatchObject({
      ...resource,
      bindings: [{ role, members: ['user:a@example.com'], condition: null }],
      audit_configs: null,
      etag: 'e2',
    });
  });

  test('not into a typed kind', () => {
    const refused = move('googleiam_address_group_iam_member', {
      typeName: `${google}_iam_member`,
      state: { ...state, role, member: 'user:a@example.com' },
    });
    expect(refused.state).toBeNull();
    expect(refused.diagnostics[0].detail).toContain(`moves into the generic googleiam_iam_member`);
  });
});

test('the short forms: a last segment with the attributes the state has, else refused', () => {
  const member = { role: 'roles/pubsub.subscriber', member: 'user:a@example.com' };
  expect(
    move('googleiam_iam_member', { typeName: 'google_pubsub_topic_iam_member', state: { ...member, topic: 't', project: 'p-123456' } })
      .state,
  ).toMatchObject({ name: 'projects/p-123456/topics/t' });
  expect(
    move('googleiam_iam_member', { typeName: 'google_folder_iam_member', state: { ...member, role: 'roles/viewer', folder: '123' } }).state,
  ).toMatchObject({ name: 'folders/123' });
  for (const [typeName, state, why] of [
    ['google_pubsub_topic_iam_member', { topic: 't' }, /no project/],
    ['google_kms_key_ring_iam_member', { key_ring_id: 'europe-west1/k' }, /not a full name projects\/\*\/locations\/\*\/keyRings\/\*/],
    ['google_kms_crypto_key_iam_member', { crypto_key_id: 'c' }, /not the full name/],
    ['google_service_account_iam_member', { service_account_id: 'sa@p-123456.iam.gserviceaccount.com' }, /not the full name/],
    ['google_pubsub_subscription_iam_member', { subscription: 'projects/p-123456/topics/t' }, /not a full name/],
  ] as const) {
    const refused = move('googleiam_iam_member', { typeName, state: { ...member, ...state } });
    expect(refused.state).toBeNull();
    expect(refused.diagnostics[0].detail).toMatch(why);
  }
});
