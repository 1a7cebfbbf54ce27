/**
 * The googleiam provider under the real terraform (the bundle, installed as
 * the implied local mirror) against the emulator, with hand-written
 * configurations: add, change members (one write, no gap), delete from the
 * configuration (revoked, others' grants kept), -target, -replace, destroy;
 * another api_version of the same resource (an update in place, no write).
 * What each step writes is read from the emulator's write history.
 */
import { GoogleApiEmulator } from '../../../lib/testing';
import { GoogleIamWorkspace } from '../../support/googleiam-workspace';
import { expectNoGap, historyOf } from '../../support/write-history';

jest.setTimeout(120_000);

const ROLE = 'roles/networksecurity.viewer';
const EDITOR = 'roles/networksecurity.editor';
const OTHERS = { role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] };
const user = (i: number | string) => `user:u${i}@example.com`;

let emulator: GoogleApiEmulator;
let workspace: GoogleIamWorkspace;
const NAME = 'projects/p-123456/locations/global/authorizationPolicies/lifecycle';

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(NAME, { bindings: [OTHERS, { role: ROLE, members: ['user:someone-else@example.com'] }] });
  workspace = GoogleIamWorkspace.create(emulator);
});
afterAll(async () => {
  workspace.remove();
  await emulator.close();
});

/** `count` members of ROLE, and a binding of EDITOR with `editors`. */
function configure(members: readonly string[], editors: readonly string[]): void {
  workspace.configure({
    resource: {
      googleiam_authorization_policy_iam_member: Object.fromEntries(
        members.map((m, i) => [`m${i}`, { name: NAME, role: ROLE, member: m }]),
      ),
      googleiam_authorization_policy_iam_binding: editors.length ? { editors: { name: NAME, role: EDITOR, members: editors } } : {},
    },
  });
}

test('add: ten members and a binding are applied in a few batched writes; a plan after shows no change', async () => {
  configure(
    Array.from({ length: 10 }, (_, i) => user(i)),
    [user('e1'), user('e2')],
  );
  const apply = await workspace.apply();
  expect(apply.code).toBe(0);
  expect(apply.stdout).toContain('Apply complete! Resources: 11 added, 0 changed, 0 destroyed.');
  expect(emulator.writes(NAME).length).toBeLessThanOrEqual(3);
  expect(historyOf(emulator, NAME, ROLE).at(-1)).toEqual(
    ['user:someone-else@example.com', ...Array.from({ length: 10 }, (_, i) => user(i))].sort(),
  );
  const plan = await workspace.plan();
  expect(plan.code).toBe(0);
});

test("change a binding's members: one write, in place, no gap for the principals kept", async () => {
  const before = emulator.writes(NAME).length;
  configure(
    Array.from({ length: 10 }, (_, i) => user(i)),
    [user('e2'), user('e3')],
  );
  const apply = await workspace.apply();
  expect(apply.stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
  // The one write holds e2 throughout: it was never taken away in between.
  expect(historyOf(emulator, NAME, EDITOR).slice(before)).toEqual([[user('e2'), user('e3')]]);
  expectNoGap(emulator, NAME, ROLE, ['user:someone-else@example.com']);
});

test("delete from the configuration: revoked, others' grants kept", async () => {
  configure(
    Array.from({ length: 8 }, (_, i) => user(i)),
    [user('e2'), user('e3')],
  );
  const apply = await workspace.apply();
  expect(apply.stdout).toContain('Resources: 0 added, 0 changed, 2 destroyed.');
  expect(historyOf(emulator, NAME, ROLE).at(-1)).toEqual(
    ['user:someone-else@example.com', ...Array.from({ length: 8 }, (_, i) => user(i))].sort(),
  );
  expect(emulator.policy(NAME).bindings).toContainEqual(OTHERS);
});

test('-target and -replace', async () => {
  configure(
    Array.from({ length: 9 }, (_, i) => user(i)),
    [user('e2'), user('e3'), user('e4')],
  );
  const targeted = await workspace.apply('-target=googleiam_authorization_policy_iam_member.m8');
  expect(targeted.stdout).toContain('Resources: 1 added, 0 changed, 0 destroyed.');
  expect(historyOf(emulator, NAME, EDITOR).at(-1)).toEqual([user('e2'), user('e3')]);
  const before = emulator.writes(NAME).length;
  const replaced = await workspace.apply('-replace=googleiam_authorization_policy_iam_member.m0');
  expect(replaced.stdout).toContain('Resources: 1 added, 1 changed, 1 destroyed.');
  // Destroy then create: the member is revoked and granted again; nothing else is lost.
  expect(historyOf(emulator, NAME, ROLE).at(-1)).toContain(user(0));
  expect(emulator.writes(NAME).length - before).toBeLessThanOrEqual(3);
});

test("destroy: everything this configuration granted is revoked; others' grants are kept", async () => {
  const destroy = await workspace.terraform(['destroy', '-auto-approve', '-input=false']);
  expect(destroy.code).toBe(0);
  expect(emulator.policy(NAME).bindings).toEqual([OTHERS, { role: ROLE, members: ['user:someone-else@example.com'] }]);
  expect(workspace.state()).toEqual([]);
});

test('another api_version of the same resource: an update in place that writes nothing; one that does not serve the name fails at plan', async () => {
  const secret = 'projects/p-123456/secrets/lifecycle-version';
  const regional = 'projects/p-123456/locations/us-east1/secrets/lifecycle-version';
  const accessor = 'roles/secretmanager.secretAccessor';
  const others = { role: 'roles/secretmanager.admin', members: ['user:owner@example.com'] };
  for (const name of [secret, regional]) emulator.addResource(name, { bindings: [others] });
  const own = GoogleIamWorkspace.create(emulator, { CLOUDSDK_API_ENDPOINT_OVERRIDES_SECRETMANAGER: emulator.endpoint('secretmanager') });
  try {
    const configureVersion = (version: string, regionalVersion = 'v1') =>
      own.configure({
        resource: {
          googleiam_iam_member: {
            reader: { service: 'secretmanager', api_version: version, name: secret, role: accessor, member: user('r') },
            regional: { service: 'secretmanager', api_version: regionalVersion, name: regional, role: accessor, member: user('r') },
          },
          googleiam_iam_binding: {
            readers: {
              service: 'secretmanager',
              api_version: version,
              name: secret,
              role: 'roles/secretmanager.viewer',
              members: [user(1)],
            },
          },
        },
      });
    configureVersion('v1beta1');
    const created = await own.apply();
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain('Resources: 3 added, 0 changed, 0 destroyed.');
    const writes = { secret: emulator.writes(secret).length, regional: emulator.writes(regional).length };

    configureVersion('v1');
    const plan = await own.plan();
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('# googleiam_iam_member.reader will be updated in-place');
    expect(plan.stdout).toContain('# googleiam_iam_binding.readers will be updated in-place');
    expect(plan.stdout.match(/~ api_version += "v1beta1" -> "v1"/g)).toHaveLength(2);
    // Nothing else changes: the etag stays (no write), nothing "must be replaced".
    expect(plan.stdout).not.toContain('known after apply');
    expect(plan.stdout).not.toContain('must be replaced');
    expect(plan.stdout).toContain('Plan: 0 to add, 2 to change, 0 to destroy.');
    const apply = await own.apply();
    expect(apply.stderr).toBe('');
    expect(apply.stdout).toContain('Resources: 0 added, 2 changed, 0 destroyed.');
    expect({ secret: emulator.writes(secret).length, regional: emulator.writes(regional).length }).toEqual(writes);
    expect(own.state().map((r) => r.instances[0].attributes.api_version)).toEqual(['v1', 'v1', 'v1']);
    const next = await own.plan();
    expect(next.stdout).toContain('No changes.');
    expect(next.code).toBe(0);

    // v1beta1 has no regional secrets: refused at plan, as for any version that does not serve the name.
    configureVersion('v1', 'v1beta1');
    const refused = await own.plan();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Invalid resource');
    expect(refused.stderr).toContain('not in any IAM-enabled collection of secretmanager v1beta1');
    expect(refused.stderr).toContain('googleiam_iam_member.regional');
    expect(emulator.writes(regional)).toHaveLength(writes.regional);
  } finally {
    own.remove();
  }
});

test("a bucket's two spellings (projects/_/buckets/x, b/x) are one policy: granted together without a stale write; a change of spelling is an update in place that writes nothing", async () => {
  const [full, path] = ['projects/_/buckets/lifecycle-spelt', 'b/lifecycle-spelt'];
  const objectViewer = 'roles/storage.objectViewer';
  emulator.addResource(path, { bindings: [{ role: 'roles/storage.admin', members: ['user:owner@example.com'] }] });
  const own = GoogleIamWorkspace.create(emulator, { CLOUDSDK_API_ENDPOINT_OVERRIDES_STORAGE: emulator.endpoint('storage') });
  try {
    const configureName = (name: string, bucket = name) =>
      own.configure({
        resource: {
          googleiam_iam_binding: {
            readers: { service: 'storage', api_version: 'v1', name: bucket, role: objectViewer, members: [user(1)] },
          },
          googleiam_iam_member: {
            writer: { service: 'storage', api_version: 'v1', name, role: 'roles/storage.objectCreator', member: user(2) },
          },
        },
      });
    // Both spellings in one configuration are one policy: one lock and one batch, so no write is refused as stale.
    configureName(path, full);
    emulator.resetStats();
    expect((await own.apply()).stdout).toContain('Resources: 2 added, 0 changed, 0 destroyed.');
    expect([emulator.stats().conflicts, emulator.stats().rejected]).toEqual([0, 0]);
    const written = emulator.writes(path).length;
    expect(emulator.policy(path).bindings).toEqual(
      expect.arrayContaining([
        { role: objectViewer, members: [user(1)] },
        { role: 'roles/storage.objectCreator', members: [user(2)] },
      ]),
    );

    configureName(path);
    const plan = await own.plan();
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('# googleiam_iam_binding.readers will be updated in-place');
    expect(plan.stdout).toMatch(/~ name += "projects\/_\/buckets\/lifecycle-spelt" -> "b\/lifecycle-spelt"/);
    expect(plan.stdout).not.toContain('must be replaced');
    expect(plan.stdout).not.toContain('known after apply');
    expect(plan.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    expect((await own.apply()).stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
    expect(emulator.writes(path)).toHaveLength(written);
    const next = await own.plan();
    expect([next.code, next.stdout.includes('No changes.')]).toEqual([0, true]);

    // Another bucket is another policy: replaced, a revoke on the old one.
    emulator.addResource('b/lifecycle-other');
    configureName(path, 'b/lifecycle-other');
    const other = await own.plan();
    expect(other.stdout).toContain('# googleiam_iam_binding.readers must be replaced');
    expect(other.stdout).toContain('Plan: 1 to add, 0 to change, 1 to destroy.');
    expect((await own.terraform(['destroy', '-auto-approve', '-input=false'])).code).toBe(0);
    expect(emulator.policy(path).bindings).toEqual([{ role: 'roles/storage.admin', members: ['user:owner@example.com'] }]);
  } finally {
    own.remove();
  }
});

test('drift and another api_version in one plan: the version change does not hide the drift, the apply repairs it in one write', async () => {
  const secret = 'projects/p-123456/secrets/lifecycle-drift';
  const secretViewer = 'roles/secretmanager.viewer';
  emulator.addResource(secret, { bindings: [] });
  const own = GoogleIamWorkspace.create(emulator, { CLOUDSDK_API_ENDPOINT_OVERRIDES_SECRETMANAGER: emulator.endpoint('secretmanager') });
  try {
    const configureVersion = (version: string) =>
      own.configure({
        resource: {
          googleiam_iam_binding: {
            readers: { service: 'secretmanager', api_version: version, name: secret, role: secretViewer, members: [user(1), user(2)] },
          },
        },
      });
    configureVersion('v1beta1');
    expect((await own.apply()).code).toBe(0);
    // Someone takes u2 away and adds an intruder, in the console.
    emulator.addResource(secret, { bindings: [{ role: secretViewer, members: [user(1), 'user:intruder@example.com'] }] });
    const written = emulator.writes(secret).length;

    configureVersion('v1');
    const plan = await own.plan();
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('# googleiam_iam_binding.readers will be updated in-place');
    expect(plan.stdout).toMatch(/~ api_version += "v1beta1" -> "v1"/);
    expect(plan.stdout).toContain('- "user:intruder@example.com"');
    expect(plan.stdout).toContain('+ "user:u2@example.com"');
    expect(plan.stdout).toMatch(/~ etag += "[^"]+" -> \(known after apply\)/);
    expect((await own.apply()).stdout).toContain('Resources: 0 added, 1 changed, 0 destroyed.');
    expect(emulator.writes(secret).length - written).toBe(1);
    expect(historyOf(emulator, secret, secretViewer).at(-1)).toEqual([user(1), user(2)]);
    const next = await own.plan();
    expect([next.code, next.stdout.includes('No changes.')]).toEqual([0, true]);
  } finally {
    own.remove();
  }
});
