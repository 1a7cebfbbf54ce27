/**
 * From many `google_*_iam_member` resources (a stand-in `hashicorp/google` of
 * the project's own, test/support/google-standin, that stores what the google
 * provider stores and logs every RPC) to one `googleiam_*_iam_members` under
 * the real terraform, with no gap in access: an `import` block for the bulk
 * resource and, for each old resource, a `removed` block with
 * `lifecycle { destroy = false }`. One apply imports the bulk resource
 * (adopting no grant), grants its entries (a write that changes nothing: the
 * policy holds them already), revokes nothing, and forgets the old resources
 * without asking the google provider to destroy them; the next plan is clean.
 * Deleting the old resources from the configuration instead plans their
 * destruction: a revoke of each grant.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { Binding, Policy } from '../../../lib/iam/types';
import { GoogleApiEmulator } from '../../../lib/testing';
import { BothProvidersWorkspace, type Resources } from '../../support/google-standin/workspace';
import { membersIn } from '../../support/write-history';

jest.setTimeout(180_000);

const SOMEONE_ELSE = 'user:someone-else@example.com';
const ACCESSOR = 'roles/secretmanager.secretAccessor';
const VIEWER = 'roles/networksecurity.viewer';
const user = (i: number | string) => `user:u${i}@example.com`;
const CONDITION = { expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', title: 'until 2030' };

let emulator: GoogleApiEmulator;
const workspaces: BothProvidersWorkspace[] = [];
let counter = 0;
type Fixture = BothProvidersWorkspace;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(async () => {
  for (const workspace of workspaces) workspace.remove();
  await emulator.close();
});

/** A workspace of both providers, the googleiam provider pointed at the emulator (for `services` too). */
function setUp(services: readonly string[] = []): Fixture {
  const both = BothProvidersWorkspace.create(emulator, services);
  workspaces.push(both);
  return both;
}

interface Grant {
  readonly role: string;
  readonly member: string;
  readonly condition?: typeof CONDITION;
}

interface Case {
  /** The policy's resource name, in the emulator. */
  readonly name: string;
  /** The google member type, and each grant as its values (in state as `<type>.grant_<n>`). */
  readonly googleType: string;
  readonly google: (grant: Grant) => Record<string, unknown>;
  /** The bulk type, its values besides the `grant` blocks, its import ID. */
  readonly bulkType: string;
  readonly bulk: Record<string, unknown>;
  readonly importId: string;
  readonly grants: readonly Grant[];
  /** Someone else's binding, which no resource of the configuration names. */
  readonly foreign: Binding;
  readonly services?: readonly string[];
  /** The google members' names (`grant_<n>` unless given) and the bulk resource's (`all`). */
  readonly keys?: readonly string[];
  readonly bulkName?: string;
}

const keys = (c: Case) => c.keys ?? c.grants.map((_, i) => `grant_${i + 1}`);
const bulkAddress = (c: Case) => `${c.bulkType}.${c.bulkName ?? 'all'}`;

/** The bindings the policy starts with: every grant of the case, and the foreign binding. */
function startingBindings(c: Case): Binding[] {
  const bindings: { role: string; members: string[]; condition?: typeof CONDITION }[] = [];
  for (const g of c.grants) {
    const found = bindings.find((b) => b.role === g.role && b.condition?.title === g.condition?.title);
    if (found) found.members.push(g.member);
    else bindings.push({ role: g.role, members: [g.member], ...(g.condition ? { condition: g.condition } : {}) });
  }
  return [...bindings, c.foreign];
}

/**
 * The fixture of a case: the emulator's policy holding the grants and the
 * foreign binding, the state holding one google member per grant, as the
 * stand-in google provider stores them.
 */
async function startFrom(c: Case): Promise<Fixture> {
  emulator.addResource(c.name, { bindings: startingBindings(c) });
  const fixture = setUp(c.services);
  fixture.configure({ [c.googleType]: Object.fromEntries(c.grants.map((g, i) => [keys(c)[i], c.google(g)])) });
  const created = await fixture.workspace.apply();
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  expect(fixture.workspace.addresses().sort()).toEqual(keys(c).map((k) => `${c.googleType}.${k}`));
  // The stand-in writes nothing to Google (the google provider's create of a grant held already would change nothing).
  expect(emulator.writes(c.name)).toEqual([]);
  fixture.googleCalls();
  return fixture;
}

/** The bulk resource `<bulkType>.all`, a `grant` block per grant. */
const bulkResource = (c: Case): Resources => ({
  [c.bulkType]: {
    [c.bulkName ?? 'all']: {
      ...c.bulk,
      grant: c.grants.map((g) => ({ role: g.role, member: g.member, ...(g.condition ? { condition: g.condition } : {}) })),
    },
  },
});

/** What of the case's grants and the foreign binding `policy` lacks: `role: member`. */
function lacking(c: Case, policy: Policy): string[] {
  const write = { seq: 0, resource: c.name, policy };
  const all = [...c.grants, ...c.foreign.members!.map((member) => ({ role: c.foreign.role, member, condition: undefined }))];
  return all.filter((g) => !membersIn(write, g.role, g.condition?.title).includes(g.member)).map((g) => `${g.role}: ${g.member}`);
}

const show = (title: string, text: string) => {
  if (process.env.MIGRATION_E2E_SHOW) process.stdout.write(`--- ${title} ---\n${text}\n`);
};

/**
 * The configuration of the bulk resource, its `import` block and a `removed`
 * block (destroy = false) per old member: the plan imports one, changes it
 * (its grants, which the import did not adopt), destroys none and forgets the
 * old ones; the apply asks the google provider for nothing, writes at most
 * once, and every policy Google held kept every grant; the next plan is clean.
 */
async function expectGaplessMigration(c: Case, configure?: (fixture: Fixture) => void): Promise<void> {
  const fixture = await startFrom(c);
  const { workspace } = fixture;
  if (configure) configure(fixture);
  else
    fixture.configure(bulkResource(c), {
      import: [{ to: bulkAddress(c), id: c.importId }],
      removed: keys(c).map((k) => ({ from: `${c.googleType}.${k}`, lifecycle: { destroy: false } })),
    });

  const plan = await workspace.terraform(['plan', '-input=false']);
  show('plan', `${plan.stdout}${plan.stderr}`);
  expect(plan.code).toBe(0);
  for (const k of keys(c))
    expect(plan.stdout).toContain(`# ${c.googleType}.${k} will no longer be managed by Terraform, but will not be destroyed`);
  expect(plan.stdout).toContain(`# ${bulkAddress(c)} will be updated in-place\n  # (imported from "${c.importId}")`);
  expect(plan.stdout.match(/^ {6}\+ grant \{$/gm)).toHaveLength(c.grants.length);
  expect(plan.stdout).not.toMatch(/will be destroyed|must be replaced|^ {6}- /m);
  expect(plan.stdout).toContain('Plan: 1 to import, 0 to add, 1 to change, 0 to destroy.');
  const warning = `${plan.stdout}${plan.stderr}`.replace(/\s+/g, ' ');
  expect(warning).toContain('Warning: Some objects will no longer be managed by Terraform');
  expect(warning).toContain('Terraform will discard its tracking information for the following objects, but it will not delete them:');

  const apply = await workspace.apply();
  show('apply', `${apply.stdout}${apply.stderr}`);
  expect(apply.code).toBe(0);
  expect(apply.stdout).toContain('Apply complete! Resources: 1 imported, 0 added, 1 changed, 0 destroyed.');
  // The google provider was asked to destroy nothing, nor to plan or read anything.
  const calls = fixture.googleCalls();
  show('google calls', [...new Set(calls)].join('\n'));
  expect(calls.filter((call) => /^(PlanResourceChange|ApplyResourceChange|ReadResource)/.test(call))).toEqual([]);
  // It is still needed for the state it held: terraform reads that state with it.
  expect(calls).toContain(`UpgradeResourceState ${c.googleType}`);
  // At most one write to Google, and every policy it held kept every grant and the foreign binding.
  const writes = emulator.writes(c.name);
  show('writes', JSON.stringify(writes, null, 2));
  expect(writes.length).toBeLessThanOrEqual(1);
  for (const write of writes) expect([write.seq, lacking(c, write.policy)]).toEqual([write.seq, []]);
  // The write changes nothing: Google held the listed grants already.
  for (const write of writes) expect(write.policy.bindings).toEqual(startingBindings(c));
  expect(lacking(c, emulator.policy(c.name))).toEqual([]);

  const next = await workspace.plan();
  expect(next.stdout).toContain('No changes.');
  expect(next.code).toBe(0);
  expect(workspace.addresses()).toEqual([bulkAddress(c)]);
  expect(workspace.state()[0].instances[0].attributes).toMatchObject({ name: c.name, missing_grants: [] });
  expect(workspace.state()[0].instances[0].attributes.grant).toHaveLength(c.grants.length);
}

const SECRET = 'projects/p-123456/secrets/migrate-db-password';
const SECRET_CASE: Case = {
  name: SECRET,
  googleType: 'google_secret_manager_secret_iam_member',
  google: (g) => ({ secret_id: SECRET, role: g.role, member: g.member }),
  bulkType: 'googleiam_iam_members',
  bulk: { service: 'secretmanager', api_version: 'v1', name: SECRET },
  importId: `//secretmanager.googleapis.com/${SECRET}`,
  grants: [
    { role: ACCESSOR, member: user(1) },
    { role: ACCESSOR, member: user(2) },
    { role: 'roles/secretmanager.viewer', member: user(3) },
  ],
  foreign: { role: 'roles/secretmanager.admin', members: [SOMEONE_ELSE] },
  services: ['secretmanager'],
};

function addressGroupCase(): Case {
  const name = `projects/p-123456/locations/global/addressGroups/migrate-${++counter}`;
  return {
    name,
    googleType: 'google_network_security_address_group_iam_member',
    google: (g) => ({
      name,
      role: g.role,
      member: g.member,
      ...(g.condition ? { condition: [{ ...g.condition, description: '' }] } : {}),
    }),
    bulkType: 'googleiam_address_group_iam_members',
    bulk: { name },
    importId: name,
    grants: [
      { role: VIEWER, member: user(1) },
      { role: VIEWER, member: user(2) },
      { role: VIEWER, member: user(3), condition: CONDITION },
    ],
    foreign: { role: 'roles/networksecurity.admin', members: [SOMEONE_ELSE] },
  };
}

test('three google_secret_manager_secret_iam_member into one googleiam_iam_members: import and removed, no grant ever revoked', async () => {
  await expectGaplessMigration(SECRET_CASE);
});

test('three google_network_security_address_group_iam_member (one conditional) into one googleiam_address_group_iam_members', async () => {
  await expectGaplessMigration(addressGroupCase());
});

test('without the removed blocks, the plan destroys the old resources: a revoke of each grant', async () => {
  const c = addressGroupCase();
  const fixture = await startFrom(c);
  fixture.configure(bulkResource(c), { import: [{ to: `${c.bulkType}.all`, id: c.importId }] });
  const plan = await fixture.workspace.terraform(['plan', '-input=false']);
  show('plan without removed', `${plan.stdout}${plan.stderr}`);
  expect(plan.code).toBe(0);
  for (const k of keys(c)) expect(plan.stdout).toContain(`# ${c.googleType}.${k} will be destroyed`);
  expect(plan.stdout).toContain('Plan: 1 to import, 0 to add, 1 to change, 3 to destroy.');
  expect(emulator.writes(c.name)).toEqual([]);
});

test('a moved block cannot do it: terraform moves one resource to one, never three into one', async () => {
  const c = addressGroupCase();
  const fixture = await startFrom(c);
  fixture.configure(bulkResource(c), {
    moved: keys(c).map((k) => ({ from: `${c.googleType}.${k}`, to: `${c.bulkType}.all` })),
  });
  const plan = await fixture.workspace.terraform(['plan', '-input=false']);
  show('plan with moved', `${plan.stdout}${plan.stderr}`);
  expect(plan.code).toBe(1);
  const refused = plan.stderr.replace(/[\s│]+/g, ' ');
  expect(refused).toContain(`Cannot move ${c.googleType} to ${c.bulkType}`);
  expect(refused).toContain('(member, not members)');
  expect(refused).toContain('lifecycle { destroy = false }');

  // Terraform's own rule, whatever the types: three moved blocks into one address.
  fixture.configure(
    { [c.googleType]: { all: c.google(c.grants[0]) } },
    { moved: keys(c).map((k) => ({ from: `${c.googleType}.${k}`, to: `${c.googleType}.all` })) },
  );
  const ambiguous = await fixture.workspace.terraform(['plan', '-input=false']);
  show('plan with moved, one type', `${ambiguous.stdout}${ambiguous.stderr}`);
  expect(ambiguous.code).toBe(1);
  expect(ambiguous.stderr.replace(/[\s│]+/g, ' ')).toContain('Ambiguous move statements');
  expect(fixture.workspace.addresses()).toEqual(keys(c).map((k) => `${c.googleType}.${k}`));
  expect(emulator.writes(c.name)).toEqual([]);
});

/** The first `hcl` block of docs/hcl.md's "From many `_iam_member` to one `_iam_members`". */
function docsBlock(): string {
  const page = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'hcl.md'), 'utf8');
  const section = page.indexOf('### From many `_iam_member` to one `_iam_members`');
  expect(section).toBeGreaterThan(0);
  const block = /```hcl\n([\s\S]*?)\n```/.exec(page.slice(section));
  return block![1];
}

test("docs/hcl.md's example, word for word: the same plan, apply and history", async () => {
  const name = 'projects/my-project/secrets/db-password';
  await expectGaplessMigration(
    {
      ...SECRET_CASE,
      name,
      google: (g) => ({ secret_id: name, role: g.role, member: g.member }),
      bulk: { service: 'secretmanager', api_version: 'v1', name },
      importId: `//secretmanager.googleapis.com/${name}`,
      grants: [
        { role: ACCESSOR, member: 'user:ann@example.com' },
        { role: ACCESSOR, member: 'user:bob@example.com' },
        { role: 'roles/secretmanager.viewer', member: 'user:carol@example.com' },
      ],
      keys: ['ann', 'bob', 'carol'],
      bulkName: 'db_password',
    },
    (fixture) => fixture.configureHcl(docsBlock()),
  );
});
