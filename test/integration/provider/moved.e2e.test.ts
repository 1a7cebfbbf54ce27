/**
 * `moved` blocks under the real terraform: from the google provider's
 * address-group IAM resources (a stand-in `hashicorp/google` of the project's
 * own, test/support/google-standin, that stores what the google provider
 * stores and logs every RPC) into this provider's, and between this
 * provider's typed and generic kinds. A move plans "has moved to" and
 * 0 to add, 0 to change, 0 to destroy; its apply writes nothing to the
 * emulator and asks the google provider for nothing (no ApplyResourceChange:
 * nothing destroyed); the next plan is clean. A source this provider cannot
 * map fails at plan, naming it and pointing to import.
 */
import { GoogleApiEmulator } from '../../../lib/testing';
import { BothProvidersWorkspace } from '../../support/google-standin/workspace';
import { STANDIN_ETAG } from '../../support/google-standin/google-standin';
import { GOOGLE_GENERIC_MOVE_ROWS } from '../../../lib/provider/resources/google-move-table';
import type { GoogleIamWorkspace } from '../../support/googleiam-workspace';
import { GOOGLE_MOVE_SAMPLES } from '../../support/google-move-samples';

jest.setTimeout(180_000);

const VIEWER = 'roles/networksecurity.viewer';
const EDITOR = 'roles/networksecurity.editor';
const user = (i: number | string) => `user:u${i}@example.com`;
const CONDITION = { expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', title: 'until 2030', description: '' };
const GOOGLE_MEMBER = 'google_network_security_address_group_iam_member';

let emulator: GoogleApiEmulator;
const workspaces: BothProvidersWorkspace[] = [];
let counter = 0;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(async () => {
  for (const workspace of workspaces) workspace.remove();
  await emulator.close();
});

interface Fixture {
  readonly name: string;
  readonly workspace: GoogleIamWorkspace;
  /** Writes main.tf.json: both providers, `resource` and `moved` blocks. */
  configure(resource: Record<string, Record<string, Record<string, unknown>>>, moved?: { from: string; to: string }[]): void;
  /** The RPCs terraform sent the stand-in google provider since the last call, as `rpc type`. */
  googleCalls(): string[];
}

/** A workspace of both providers and an address group of `policy`; the googleiam provider pointed at the emulator for `services` too. */
function setUp(policy: Parameters<GoogleApiEmulator['addResource']>[1], services: readonly string[] = []): Fixture {
  const name = `projects/p-123456/locations/global/addressGroups/moved-${++counter}`;
  emulator.addResource(name, policy);
  const both = BothProvidersWorkspace.create(emulator, services);
  workspaces.push(both);
  return {
    name,
    workspace: both.workspace,
    configure: (resource, moved = []) => both.configure(resource, { moved }),
    googleCalls: () => both.googleCalls(),
  };
}

/** Applies the google resource through the stand-in: its state is what the google provider would have stored. */
async function createdByGoogle(fixture: Fixture, type: string, values: Record<string, unknown>): Promise<Record<string, unknown>> {
  fixture.configure({ [type]: { grant: values } });
  const apply = await fixture.workspace.apply();
  expect(apply.stderr).toBe('');
  expect(apply.code).toBe(0);
  expect(fixture.googleCalls()).toContain(`ApplyResourceChange ${type}`);
  const [resource] = fixture.workspace.state();
  expect(resource.instances[0].attributes.etag).toBe(STANDIN_ETAG);
  return resource.instances[0].attributes;
}

/**
 * Moves `from` to `to` (the configuration now declaring `resource`): the plan
 * says it moved and changes nothing, the apply writes nothing and destroys
 * nothing, the next plan is clean. Returns the plan and apply output, and the
 * moved state.
 */
async function expectCleanMove(
  fixture: Fixture,
  from: string,
  to: string,
  resource: Record<string, Record<string, Record<string, unknown>>>,
): Promise<{ plan: string; apply: string; state: Record<string, unknown>; googleCalls: string[] }> {
  const { workspace, name } = fixture;
  fixture.configure(resource, [{ from, to }]);
  const writes = emulator.writes(name).length;
  fixture.googleCalls();
  const plan = await workspace.terraform(['plan', '-input=false']);
  expect(plan.stderr).toBe('');
  expect(plan.stdout).toContain(`# ${from} has moved to ${to}`);
  expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
  expect(plan.stdout).not.toContain('will be updated in-place');
  const apply = await workspace.apply();
  expect(apply.stderr).toBe('');
  expect(apply.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 0 destroyed.');
  expect(emulator.writes(name).slice(writes)).toEqual([]);
  const next = await workspace.plan();
  expect(next.stdout).toContain('No changes.');
  expect(next.code).toBe(0);
  // The google provider was asked for nothing that changes anything: no plan or apply of its resource.
  const googleCalls = fixture.googleCalls();
  expect(googleCalls.filter((c) => /^(PlanResourceChange|ApplyResourceChange|ReadResource)/.test(c))).toEqual([]);
  expect(workspace.addresses()).toEqual([to]);
  return { plan: plan.stdout, apply: apply.stdout, state: workspace.state()[0].instances[0].attributes, googleCalls };
}

test('google member with a condition whose description is empty, into the typed kind: nothing written, nothing destroyed', async () => {
  const fixture = setUp({
    bindings: [{ role: VIEWER, members: [user(1)], condition: { expression: CONDITION.expression, title: CONDITION.title } }],
  });
  const google = await createdByGoogle(fixture, GOOGLE_MEMBER, {
    name: fixture.name,
    role: VIEWER,
    member: user(1),
    condition: [CONDITION],
  });
  expect(google.condition).toEqual([CONDITION]);
  const { plan, apply, state, googleCalls } = await expectCleanMove(
    fixture,
    `${GOOGLE_MEMBER}.grant`,
    'googleiam_address_group_iam_member.grant',
    {
      googleiam_address_group_iam_member: {
        grant: {
          name: fixture.name,
          role: VIEWER,
          member: user(1),
          condition: { expression: CONDITION.expression, title: CONDITION.title },
        },
      },
    },
  );
  if (process.env.MOVED_E2E_SHOW)
    process.stdout.write(`--- plan ---\n${plan}\n--- apply ---\n${apply}\n--- google calls ---\n${[...new Set(googleCalls)].join('\n')}\n`);
  expect(state).toMatchObject({
    name: fixture.name,
    id: google.id,
    condition: { expression: CONDITION.expression, title: CONDITION.title, description: null },
  });
  expect(emulator.writes(fixture.name)).toEqual([]);
});

test('google binding and google policy, into the typed kinds', async () => {
  const binding = setUp({ bindings: [{ role: VIEWER, members: [user(1), user(2)] }] });
  const google = await createdByGoogle(binding, 'google_network_security_address_group_iam_binding', {
    name: binding.name,
    role: VIEWER,
    members: [user(1), user(2)],
  });
  const moved = await expectCleanMove(
    binding,
    'google_network_security_address_group_iam_binding.grant',
    'googleiam_address_group_iam_binding.grant',
    {
      googleiam_address_group_iam_binding: { grant: { name: binding.name, role: VIEWER, members: [user(1), user(2)] } },
    },
  );
  expect(moved.state.id).toBe(google.id);
  expect(emulator.writes(binding.name)).toEqual([]);

  const bindings = [
    { role: EDITOR, members: [user('e')] },
    { role: VIEWER, members: [user(1)] },
  ];
  const policy = setUp({ bindings });
  await createdByGoogle(policy, 'google_network_security_address_group_iam_policy', {
    name: policy.name,
    policy_data: JSON.stringify({ bindings }),
  });
  await expectCleanMove(policy, 'google_network_security_address_group_iam_policy.grant', 'googleiam_address_group_iam_policy.grant', {
    googleiam_address_group_iam_policy: { grant: { name: policy.name, bindings } },
  });
  expect(emulator.writes(policy.name)).toEqual([]);
});

test('a for_each source moves with its keys', async () => {
  const fixture = setUp({ bindings: [{ role: VIEWER, members: [user(1), user(2)] }] });
  const members = { ann: user(1), bob: user(2) };
  fixture.configure({ [GOOGLE_MEMBER]: { grant: { for_each: members, name: fixture.name, role: VIEWER, member: '${each.value}' } } });
  expect((await fixture.workspace.apply()).code).toBe(0);
  fixture.configure(
    { googleiam_address_group_iam_member: { grant: { for_each: members, name: fixture.name, role: VIEWER, member: '${each.value}' } } },
    [{ from: `${GOOGLE_MEMBER}.grant`, to: 'googleiam_address_group_iam_member.grant' }],
  );
  const plan = await fixture.workspace.terraform(['plan', '-input=false']);
  expect(plan.stdout).toContain(`# ${GOOGLE_MEMBER}.grant["ann"] has moved to googleiam_address_group_iam_member.grant["ann"]`);
  expect(plan.stdout).toContain(`# ${GOOGLE_MEMBER}.grant["bob"] has moved to googleiam_address_group_iam_member.grant["bob"]`);
  expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
  expect((await fixture.workspace.apply()).stdout).toContain('Resources: 0 added, 0 changed, 0 destroyed.');
  expect((await fixture.workspace.plan()).code).toBe(0);
  expect(fixture.workspace.addresses()).toEqual([
    'googleiam_address_group_iam_member.grant["ann"]',
    'googleiam_address_group_iam_member.grant["bob"]',
  ]);
  expect(fixture.googleCalls().filter((c) => c.startsWith('ApplyResourceChange'))).toEqual([
    `ApplyResourceChange ${GOOGLE_MEMBER}`,
    `ApplyResourceChange ${GOOGLE_MEMBER}`,
  ]);
  expect(emulator.writes(fixture.name)).toEqual([]);
});

test("typed to generic and back: this provider's own kinds, the same grant", async () => {
  const fixture = setUp({ bindings: [] });
  const grant = { name: fixture.name, role: VIEWER, member: user(1) };
  fixture.configure({ googleiam_address_group_iam_member: { grant } });
  expect((await fixture.workspace.apply()).code).toBe(0);
  const created = emulator.writes(fixture.name).length;
  expect(created).toBe(1);
  const generic = { ...grant, service: 'networksecurity', api_version: 'v1' };
  await expectCleanMove(fixture, 'googleiam_address_group_iam_member.grant', 'googleiam_iam_member.grant', {
    googleiam_iam_member: { grant: generic },
  });
  await expectCleanMove(fixture, 'googleiam_iam_member.grant', 'googleiam_address_group_iam_member.grant', {
    googleiam_address_group_iam_member: { grant },
  });
  expect(emulator.writes(fixture.name)).toHaveLength(created);
});

test('typed to generic at another api_version: moved, and an update in place of api_version alone that writes nothing', async () => {
  const fixture = setUp({ bindings: [] });
  const grant = { name: fixture.name, role: VIEWER, member: user(1) };
  fixture.configure({ googleiam_address_group_iam_member: { grant } });
  expect((await fixture.workspace.apply()).code).toBe(0);
  const created = emulator.writes(fixture.name).length;
  const [from, to] = ['googleiam_address_group_iam_member.grant', 'googleiam_iam_member.grant'];
  // The move writes the typed type's version (v1) into the state; the configuration says v1beta1, which serves the same policy.
  fixture.configure({ googleiam_iam_member: { grant: { ...grant, service: 'networksecurity', api_version: 'v1beta1' } } }, [{ from, to }]);
  const plan = await fixture.workspace.terraform(['plan', '-input=false']);
  expect(plan.stderr).toBe('');
  // A move with a change is shown as the change, "moved from" (terraform's "has moved to" is for a move alone).
  expect(plan.stdout).toContain(`# ${to} will be updated in-place\n  # (moved from ${from})`);
  expect(plan.stdout).toMatch(/~ api_version += "v1" -> "v1beta1"/);
  expect(plan.stdout).not.toContain('known after apply');
  expect(plan.stdout).not.toContain('must be replaced');
  expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
  const apply = await fixture.workspace.apply();
  expect(apply.stderr).toBe('');
  expect(apply.stdout).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
  expect(emulator.writes(fixture.name)).toHaveLength(created);
  expect(fixture.workspace.state()[0].instances[0].attributes.api_version).toBe('v1beta1');
  const next = await fixture.workspace.plan();
  expect(next.stdout).toContain('No changes.');
  expect(next.code).toBe(0);
  expect(fixture.workspace.addresses()).toEqual([to]);
});

test('a source this provider cannot map fails at plan, naming it and pointing to import; nothing changes', async () => {
  const fixture = setUp({ bindings: [{ role: VIEWER, members: [user(1)] }] });
  // Bigtable instances are not in the table (google-move-table.ts): the move is refused.
  await createdByGoogle(fixture, 'google_bigtable_instance_iam_member', {
    instance: 'moved',
    role: VIEWER,
    member: user(1),
  });
  fixture.configure({ googleiam_address_group_iam_member: { grant: { name: fixture.name, role: VIEWER, member: user(1) } } }, [
    { from: 'google_bigtable_instance_iam_member.grant', to: 'googleiam_address_group_iam_member.grant' },
  ]);
  const plan = await fixture.workspace.plan();
  expect(plan.code).toBe(1);
  const error = plan.stderr.replace(/[\s│]+/g, ' ');
  expect(error).toContain('Cannot move google_bigtable_instance_iam_member to googleiam_address_group_iam_member');
  expect(error).toContain("this provider does not map the google provider's google_bigtable_instance_iam_member");
  expect(error).toContain('`import` block');
  expect(error).toContain('lifecycle { destroy = false }');
  expect(fixture.workspace.addresses()).toEqual(['google_bigtable_instance_iam_member.grant']);

  // A policy_data it cannot read, and another kind (a binding is not a member grant): refused the same way.
  const policy = setUp({ bindings: [] });
  await createdByGoogle(policy, 'google_network_security_address_group_iam_policy', { name: policy.name, policy_data: 'not json' });
  policy.configure({ googleiam_address_group_iam_policy: { grant: { name: policy.name, bindings: [] } } }, [
    { from: 'google_network_security_address_group_iam_policy.grant', to: 'googleiam_address_group_iam_policy.grant' },
  ]);
  const refused = await policy.workspace.plan();
  expect(refused.code).toBe(1);
  expect(refused.stderr.replace(/[\s│]+/g, ' ')).toContain('policy_data is not JSON');
  policy.configure({ googleiam_address_group_iam_member: { grant: { name: policy.name, role: VIEWER, member: user(1) } } }, [
    { from: 'google_network_security_address_group_iam_policy.grant', to: 'googleiam_address_group_iam_member.grant' },
  ]);
  const kind = await policy.workspace.plan();
  expect(kind.code).toBe(1);
  expect(kind.stderr.replace(/[\s│]+/g, ' ')).toContain('grants differently');
  expect(emulator.writes(policy.name)).toEqual([]);
});

test('every row of the generic table: its google member moves into googleiam_iam_member, nothing written, nothing destroyed', async () => {
  expect(GOOGLE_MOVE_SAMPLES.map((r) => r.google)).toEqual(GOOGLE_GENERIC_MOVE_ROWS.map((r) => r.google));
  const fixture = setUp(
    { bindings: [] },
    GOOGLE_MOVE_SAMPLES.map((row) => row.service),
  );
  for (const row of GOOGLE_MOVE_SAMPLES) emulator.addResource(row.name, { bindings: [{ role: row.role, members: [user(1)] }] });
  const key = (row: (typeof GOOGLE_MOVE_SAMPLES)[number]) => row.google.replace(/^google_/, '');
  fixture.configure(
    Object.fromEntries(
      GOOGLE_MOVE_SAMPLES.map((row) => [`${row.google}_iam_member`, { [key(row)]: { ...row.state, role: row.role, member: user(1) } }]),
    ),
  );
  const created = await fixture.workspace.apply();
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  const writes = GOOGLE_MOVE_SAMPLES.map((row) => emulator.writes(row.name).length);
  expect(writes.every((n) => n === 0)).toBe(true);
  fixture.googleCalls();

  fixture.configure(
    {
      googleiam_iam_member: Object.fromEntries(
        GOOGLE_MOVE_SAMPLES.map((row) => [
          key(row),
          { service: row.service, api_version: row.apiVersion, name: row.name, role: row.role, member: user(1) },
        ]),
      ),
    },
    GOOGLE_MOVE_SAMPLES.map((row) => ({ from: `${row.google}_iam_member.${key(row)}`, to: `googleiam_iam_member.${key(row)}` })),
  );
  const plan = await fixture.workspace.terraform(['plan', '-input=false']);
  expect(plan.stderr).toBe('');
  for (const row of GOOGLE_MOVE_SAMPLES)
    expect(plan.stdout).toContain(`# ${row.google}_iam_member.${key(row)} has moved to googleiam_iam_member.${key(row)}`);
  expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
  expect(plan.stdout).not.toContain('will be updated in-place');
  const apply = await fixture.workspace.apply();
  expect(apply.stderr).toBe('');
  expect(apply.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 0 destroyed.');
  for (const row of GOOGLE_MOVE_SAMPLES) expect([row.name, emulator.writes(row.name)]).toEqual([row.name, []]);
  const next = await fixture.workspace.plan();
  expect(next.stdout).toContain('No changes.');
  expect(next.code).toBe(0);
  expect(fixture.googleCalls().filter((c) => /^(PlanResourceChange|ApplyResourceChange|ReadResource)/.test(c))).toEqual([]);
  expect(fixture.workspace.addresses().sort()).toEqual(GOOGLE_MOVE_SAMPLES.map((row) => `googleiam_iam_member.${key(row)}`).sort());
  for (const resource of fixture.workspace.state()) {
    const row = GOOGLE_MOVE_SAMPLES.find((r) => `googleiam_iam_member.${key(r)}` === `${resource.type}.${resource.name}`)!;
    expect(resource.instances[0].attributes).toMatchObject({
      service: row.service,
      api_version: row.apiVersion,
      name: row.name,
      member: user(1),
    });
  }
});
