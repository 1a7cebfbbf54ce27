/**
 * `moved` blocks under the real terraform from the google provider's binding and policy kinds of every row of the
 * generic table (google-move-table.ts), those of the APIs serving IAM at paths of their own (Cloud Storage, Compute
 * Engine, BigQuery, Cloud DNS) among them: each google `_iam_binding` into `googleiam_iam_binding`, each
 * `_iam_policy` into `googleiam_iam_policy`, in one run of all rows. The stand-in `hashicorp/google` (test/support/google-standin) stores what the google provider
 * stores. The plan says "has moved to" and 0 to add, 0 to change, 0 to destroy; the apply writes nothing to the
 * emulator (its write history of every resource unchanged) and asks the google provider for nothing; the next plan
 * is clean. (The member kinds of every row: moved.e2e.test.ts.)
 */
import { GoogleApiEmulator } from '../../../lib/testing';
import { BothProvidersWorkspace } from '../../support/google-standin/workspace';
import { GOOGLE_MOVE_SAMPLES } from '../../support/google-move-samples';

jest.setTimeout(180_000);

const user = (i: number | string) => `user:u${i}@example.com`;
/** A sample of every row of the table (moved.test.ts checks there is one per row). */
const SAMPLES = GOOGLE_MOVE_SAMPLES;
const SERVICES = [...new Set(SAMPLES.map((row) => row.service))];
const key = (row: (typeof SAMPLES)[number]) => row.google.replace(/^google_/, '');

let emulator: GoogleApiEmulator;
const workspaces: BothProvidersWorkspace[] = [];

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(async () => {
  for (const workspace of workspaces) workspace.remove();
  await emulator.close();
});

/** A workspace of both providers, the googleiam provider pointed at the emulator for every service of SAMPLES. */
function workspaceOf(): BothProvidersWorkspace {
  const both = BothProvidersWorkspace.create(emulator, SERVICES);
  workspaces.push(both);
  return both;
}

/**
 * Creates each sample's google `_iam_<kind>` through the stand-in (the emulator seeded with `bindings` of the
 * sample's role), then moves each into `googleiam_iam_<kind>` declared with `generic`: a clean move, no write.
 */
async function expectCleanMoves(
  kind: 'binding' | 'policy',
  bindings: (role: string) => { role: string; members: string[] }[],
  google: (row: (typeof SAMPLES)[number]) => Record<string, unknown>,
  generic: (row: (typeof SAMPLES)[number]) => Record<string, unknown>,
): Promise<void> {
  for (const row of SAMPLES) emulator.addResource(row.name, { bindings: bindings(row.role) });
  const fixture = workspaceOf();
  fixture.configure(
    Object.fromEntries(SAMPLES.map((row) => [`${row.google}_iam_${kind}`, { [key(row)]: { ...row.state, ...google(row) } }])),
  );
  const created = await fixture.workspace.apply();
  expect(created.stderr).toBe('');
  expect(created.code).toBe(0);
  const writes = SAMPLES.map((row) => [row.name, emulator.writes(row.name).length]);
  fixture.googleCalls();

  const to = `googleiam_iam_${kind}`;
  fixture.configure(
    {
      [to]: Object.fromEntries(
        SAMPLES.map((row) => [key(row), { service: row.service, api_version: row.apiVersion, name: row.name, ...generic(row) }]),
      ),
    },
    { moved: SAMPLES.map((row) => ({ from: `${row.google}_iam_${kind}.${key(row)}`, to: `${to}.${key(row)}` })) },
  );
  const plan = await fixture.workspace.terraform(['plan', '-input=false']);
  expect(plan.stderr).toBe('');
  for (const row of SAMPLES) expect(plan.stdout).toContain(`# ${row.google}_iam_${kind}.${key(row)} has moved to ${to}.${key(row)}`);
  expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
  expect(plan.stdout).not.toContain('will be updated in-place');
  const apply = await fixture.workspace.apply();
  expect(apply.stderr).toBe('');
  expect(apply.stdout).toContain('Apply complete! Resources: 0 added, 0 changed, 0 destroyed.');
  expect(SAMPLES.map((row) => [row.name, emulator.writes(row.name).length])).toEqual(writes);
  const next = await fixture.workspace.plan();
  expect(next.stdout).toContain('No changes.');
  expect(next.code).toBe(0);
  expect(fixture.googleCalls().filter((c) => /^(PlanResourceChange|ApplyResourceChange|ReadResource)/.test(c))).toEqual([]);
  expect(fixture.workspace.addresses().sort()).toEqual(SAMPLES.map((row) => `${to}.${key(row)}`).sort());
  for (const resource of fixture.workspace.state()) {
    const row = SAMPLES.find((r) => key(r) === resource.name)!;
    expect(resource.instances[0].attributes).toMatchObject({ service: row.service, api_version: row.apiVersion, name: row.name });
  }
  if (process.env.MOVED_E2E_SHOW) {
    const summary = (out: string) => out.split('\n').filter((l) => /has moved to|^Plan:|^Apply complete|^No changes/.test(l.trim()));
    process.stdout.write(`--- ${kind}: plan ---\n${summary(plan.stdout).join('\n')}\n--- apply ---\n${summary(apply.stdout).join('\n')}\n`);
    process.stdout.write(`--- writes ---\n${JSON.stringify(SAMPLES.map((row) => [row.name, emulator.writes(row.name)]))}\n`);
  }
}

test('every row: its google _iam_binding moves into googleiam_iam_binding, no write', async () => {
  expect(SAMPLES.map((row) => row.service).sort()).toEqual(expect.arrayContaining(['bigquery', 'compute', 'dns', 'storage']));
  const members = [user(1), user(2)];
  await expectCleanMoves(
    'binding',
    (role) => [{ role, members }],
    (row) => ({ role: row.role, members }),
    (row) => ({ role: row.role, members }),
  );
});

test('every row: its google _iam_policy moves into googleiam_iam_policy, no write', async () => {
  const bindings = (role: string) => [{ role, members: [user('p')] }];
  await expectCleanMoves(
    'policy',
    bindings,
    (row) => ({ policy_data: JSON.stringify({ bindings: bindings(row.role) }) }),
    (row) => ({ bindings: bindings(row.role) }),
  );
});

test('a bucket state holding the bare name moves to b/<bucket>', async () => {
  const row = SAMPLES.find((r) => r.google === 'google_storage_bucket')!;
  emulator.addResource('b/bare', { bindings: [{ role: row.role, members: [user(1)] }] });
  const fixture = workspaceOf();
  fixture.configure({ google_storage_bucket_iam_member: { bare: { bucket: 'bare', role: row.role, member: user(1) } } });
  expect((await fixture.workspace.apply()).code).toBe(0);
  fixture.configure(
    { googleiam_iam_member: { bare: { service: 'storage', api_version: 'v1', name: 'b/bare', role: row.role, member: user(1) } } },
    { moved: [{ from: 'google_storage_bucket_iam_member.bare', to: 'googleiam_iam_member.bare' }] },
  );
  const plan = await fixture.workspace.terraform(['plan', '-input=false']);
  expect(plan.stderr).toBe('');
  expect(plan.stdout).toContain('Plan: 0 to add, 0 to change, 0 to destroy.');
  expect((await fixture.workspace.apply()).code).toBe(0);
  expect(emulator.writes('b/bare')).toEqual([]);
  expect((await fixture.workspace.plan()).code).toBe(0);
  expect(fixture.workspace.state()[0].instances[0].attributes).toMatchObject({ name: 'b/bare' });
});

test("a bucket moved into a grant written with Google's full name (projects/_/buckets/<bucket>): an update in place of name, no write", async () => {
  const row = SAMPLES.find((r) => r.google === 'google_storage_bucket')!;
  emulator.addResource('b/spelt', { bindings: [{ role: row.role, members: [user(1)] }] });
  const fixture = workspaceOf();
  fixture.configure({ google_storage_bucket_iam_member: { spelt: { bucket: 'b/spelt', role: row.role, member: user(1) } } });
  expect((await fixture.workspace.apply()).code).toBe(0);
  const [from, to] = ['google_storage_bucket_iam_member.spelt', 'googleiam_iam_member.spelt'];
  fixture.configure(
    {
      googleiam_iam_member: {
        spelt: { service: 'storage', api_version: 'v1', name: 'projects/_/buckets/spelt', role: row.role, member: user(1) },
      },
    },
    { moved: [{ from, to }] },
  );
  const plan = await fixture.workspace.terraform(['plan', '-input=false']);
  expect(plan.stderr).toBe('');
  expect(plan.stdout).toContain(`# ${to} will be updated in-place\n  # (moved from ${from})`);
  expect(plan.stdout).toMatch(/~ name += "b\/spelt" -> "projects\/_\/buckets\/spelt"/);
  expect(plan.stdout).not.toContain('must be replaced');
  expect(plan.stdout).not.toContain('known after apply');
  expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
  const apply = await fixture.workspace.apply();
  expect(apply.stdout).toContain('Apply complete! Resources: 0 added, 1 changed, 0 destroyed.');
  expect(emulator.writes('b/spelt')).toEqual([]);
  expect(emulator.policy('b/spelt').bindings).toEqual([{ role: row.role, members: [user(1)] }]);
  const next = await fixture.workspace.plan();
  expect([next.code, next.stdout.includes('No changes.')]).toEqual([0, true]);
  expect(fixture.workspace.state()[0].instances[0].attributes).toMatchObject({ name: 'projects/_/buckets/spelt' });
});
