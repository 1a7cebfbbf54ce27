/**
 * The provider's resource types driven in process (as the protocol layer
 * drives them) against the emulator over HTTP, with the real REST client:
 * what each call writes (the emulator's write history), batching, etag reuse,
 * one read per policy, in-place updates, settling a lost answer, Ctrl-C, 404s.
 */
import { ApiError } from '../../../lib/testing/emulator/api-error';
import { UNKNOWN, type CtyObject } from '../../../lib/provider/framework/cty';
import { Diagnostics } from '../../../lib/provider/framework/diagnostics';
import { PrivateState } from '../../../lib/provider/framework/private-state';
import type { ResourceType } from '../../../lib/provider/framework/resource';
import type { GoogleIamContext } from '../../../lib/provider/provider-context';
import { googleIamProvider } from '../../../lib/provider/google-iam-provider';
import { GoogleApiEmulator } from '../../../lib/testing';
import { fullValue, ProviderHarness, withDiagnostics } from '../../support/provider-harness';
import { historyOf } from '../../support/write-history';
import { membersOf } from '../../support/grant-env';

const ROLE = 'roles/networksecurity.viewer';
const OTHER_ROLE = 'roles/networksecurity.editor';
const ADMIN = 'roles/networksecurity.admin';
const OWNER = { role: ADMIN, members: ['user:owner@example.com'] };
const FAST_RETRIES = { CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '10', CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '2000' };

let emulator: GoogleApiEmulator;
let counter = 0;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(() => emulator.close());
afterEach(() => {
  emulator.afterWrite = undefined;
  emulator.setFaults(undefined);
});

function newPolicy(): string {
  const name = `projects/p-123456/locations/global/authorizationPolicies/provider-${++counter}`;
  emulator.addResource(name, { bindings: [OWNER] });
  return name;
}

async function provider(env: Record<string, string> = FAST_RETRIES): Promise<ProviderHarness> {
  return ProviderHarness.configure({ ...emulator.env(), ...env });
}

/** A type's schema, as the harness's provider has it. */
const schemaOf = (typeName: string) => googleIamProvider({}).resources.find((r) => r.typeName === typeName)!;
const user = (i: number | string) => `user:u${i}@example.com`;

function member(type: ResourceType<GoogleIamContext>, name: string, principal: string, extra: CtyObject = {}): CtyObject {
  const values = fullValue(type, { name, role: ROLE, member: principal, ...extra });
  return { ...values, id: `${name}/${ROLE}/${principal}`, etag: UNKNOWN };
}

async function create(harness: ProviderHarness, type: ResourceType<GoogleIamContext>, planned: CtyObject) {
  return withDiagnostics((d) => type.create(harness.call, planned, d));
}

describe('batching', () => {
  test('concurrent creates on one policy are one read and one write; the next wave reuses the etag (no read)', async () => {
    const harness = await provider();
    const type = harness.resource('googleiam_authorization_policy_iam_member');
    const name = newPolicy();
    emulator.resetStats();
    const first = await Promise.all(Array.from({ length: 10 }, (_, i) => create(harness, type, member(type, name, user(i)))));
    expect(first.every((r) => !r.diagnostics.hasError && r.value !== null)).toBe(true);
    expect(emulator.writes(name)).toHaveLength(1);
    const second = await Promise.all(Array.from({ length: 10 }, (_, i) => create(harness, type, member(type, name, user(i + 10)))));
    expect(second.every((r) => r.value !== null)).toBe(true);
    expect(emulator.writes(name)).toHaveLength(2);
    expect(emulator.stats()).toMatchObject({ getIamPolicy: 1, setIamPolicy: 2 });
    expect(historyOf(emulator, name, ROLE).at(-1)).toHaveLength(20);
    // The state's etag is the policy's after the batch that wrote it.
    expect(second[0].value!.etag).toBe(emulator.policy(name).etag);
  });

  test('reads of N grants on one policy cost one getIamPolicy for the process', async () => {
    const name = newPolicy();
    const members = Array.from({ length: 25 }, (_, i) => user(i));
    emulator.addResource(name, { bindings: [OWNER, { role: ROLE, members }] });
    const harness = await provider();
    const type = harness.resource('googleiam_authorization_policy_iam_member');
    emulator.resetStats();
    const states = members.map((m) => ({ ...member(type, name, m), etag: 'old' }));
    const reads = await Promise.all(states.map((s) => withDiagnostics((d) => type.read(harness.call, s, d))));
    await withDiagnostics((d) => type.read(harness.call, states[0], d));
    expect(reads.every((r) => r.value?.etag === emulator.policy(name).etag)).toBe(true);
    expect(emulator.stats().getIamPolicy).toBe(1);
  });
});

describe('update, delete, read', () => {
  test("a member's change is one write that removes the old principal and adds the new one (no gap for others)", async () => {
    const harness = await provider();
    const type = harness.resource('googleiam_authorization_policy_iam_member');
    const name = newPolicy();
    const prior = (await create(harness, type, member(type, name, user('old')))).value!;
    const before = emulator.writes(name).length;
    const planned = member(type, name, user('new'));
    // The update comes from the next run, another provider process (one run never creates and updates one object).
    const next = await provider();
    const { value, diagnostics } = await withDiagnostics((d) => next.resource(type.typeName).update(next.call, prior, planned, d));
    expect(diagnostics.all).toEqual([]);
    expect(value).toMatchObject({ member: user('new'), etag: emulator.policy(name).etag });
    expect(historyOf(emulator, name, ROLE).slice(before)).toEqual([[user('new')]]);
    expect(historyOf(emulator, name, ADMIN).slice(before)).toEqual([OWNER.members]);
  });

  test("a binding's new members are one write; a role change takes the old binding away in the same write", async () => {
    const harness = await provider();
    const type = harness.resource('googleiam_authorization_policy_iam_binding');
    const name = newPolicy();
    const binding = (role: string, members: string[]) => ({
      ...fullValue(type, { name, role, members }),
      id: `${name}/${role}`,
      etag: UNKNOWN,
    });
    const prior = (await create(harness, type, binding(ROLE, [user(1), user(2)]))).value!;
    const start = emulator.writes(name).length;
    // Each update comes from a run of its own, another provider process (one run changes one object once).
    const run = async () => {
      const later = await provider();
      return { call: later.call, type: later.resource(type.typeName) };
    };
    const second = await run();
    const changed = (await withDiagnostics((d) => second.type.update(second.call, prior, binding(ROLE, [user(2), user(3)]), d))).value!;
    expect(historyOf(emulator, name, ROLE).slice(start)).toEqual([[user(2), user(3)]]);
    const third = await run();
    await withDiagnostics((d) => third.type.update(third.call, changed, binding('roles/networksecurity.editor', [user(2)]), d));
    const last = emulator
      .writes(name)
      .at(-1)!
      .policy.bindings!.map((b) => b.role);
    expect(last).toEqual([ADMIN, 'roles/networksecurity.editor']);
    expect(emulator.writes(name)).toHaveLength(start + 2);
  });

  test('another api_version of the same resource: the plan keeps the etag and the update writes nothing, for every generic kind', async () => {
    const kinds: [string, CtyObject][] = [
      ['googleiam_iam_member', { role: ROLE, member: user(1) }],
      ['googleiam_iam_binding', { role: ROLE, members: [user(1)] }],
      ['googleiam_iam_policy', { bindings: [{ role: ROLE, members: [user(1)], condition: null }] }],
      ['googleiam_iam_members', { grant: [{ role: ROLE, member: user(1), condition: null }] }],
      ['googleiam_iam_member_roles', { member: user(1), grant: [{ role: ROLE, condition: null }] }],
    ];
    for (const [typeName, values] of kinds) {
      const name = `projects/p-123456/locations/global/addressGroups/version-${++counter}`;
      emulator.addResource(name, { bindings: [] });
      const config = (version: string) =>
        fullValue(schemaOf(typeName), { service: 'networksecurity', api_version: version, name, ...values });
      // Each step is a run of its own, another provider process.
      const step = async () => {
        const harness = await provider();
        const type = harness.resource(typeName);
        const plan = async (prior: CtyObject | null, version: string) =>
          (
            await withDiagnostics((d) =>
              type.plan!({ prior, proposed: { ...(prior ?? {}), ...config(version) }, config: config(version) }, d, harness.call),
            )
          ).value.planned;
        return { harness, type, plan };
      };
      const first = await step();
      const created = (await withDiagnostics(async (d) => first.type.create(first.harness.call, await first.plan(null, 'v1beta1'), d)))
        .value!;
      const writes = emulator.writes(name).length;
      expect(writes).toBe(1);
      const second = await step();
      const planned = await second.plan(created, 'v1');
      expect([typeName, planned.etag]).toEqual([typeName, created.etag]);
      const { value, diagnostics } = await withDiagnostics((d) => second.type.update(second.harness.call, created, planned, d));
      expect([typeName, diagnostics.all]).toEqual([typeName, []]);
      expect(value).toMatchObject({ api_version: 'v1', etag: created.etag });
      expect([typeName, emulator.writes(name).length]).toEqual([typeName, writes]);
    }
  });

  test("read drops a member that is gone, reports a binding's actual members (others' grants are no diff for a member)", async () => {
    const name = newPolicy();
    emulator.addResource(name, { bindings: [OWNER, { role: ROLE, members: ['user:Alice@Example.com', user('other')] }] });
    const harness = await provider();
    const memberType = harness.resource('googleiam_authorization_policy_iam_member');
    const bindingType = harness.resource('googleiam_authorization_policy_iam_binding');
    const present = { ...member(memberType, name, 'user:alice@example.com'), etag: 'x' };
    const gone = { ...member(memberType, name, user('gone')), etag: 'x' };
    expect((await withDiagnostics((d) => memberType.read(harness.call, present, d))).value).toMatchObject({
      member: 'user:alice@example.com',
    });
    expect((await withDiagnostics((d) => memberType.read(harness.call, gone, d))).value).toBeNull();
    const binding = {
      ...fullValue(bindingType, { name, role: ROLE, members: ['user:alice@example.com'] }),
      id: 'x',
      etag: 'x',
    };
    const refreshed = (await withDiagnostics((d) => bindingType.read(harness.call, binding, d))).value!;
    expect(refreshed.members).toEqual(['user:alice@example.com', user('other')]);
    const noBinding = { ...binding, role: 'roles/networksecurity.editor' };
    expect((await withDiagnostics((d) => bindingType.read(harness.call, noBinding, d))).value).toBeNull();
  });

  test("a policy reads Google's bindings in the state's order; audit configs only when the state has them", async () => {
    const name = newPolicy();
    const audit = [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }];
    emulator.addResource(name, { bindings: [OWNER, { role: ROLE, members: [user(1)] }], auditConfigs: audit });
    const harness = await provider();
    const type = harness.resource('googleiam_authorization_policy_iam_policy');
    const state = fullValue(type, {
      name,
      bindings: [{ role: ROLE, members: [user(1)], condition: null }],
      id: name,
      etag: 'x',
    });
    const read = (await withDiagnostics((d) => type.read(harness.call, state, d))).value!;
    expect(read.bindings).toEqual([
      { role: ROLE, members: [user(1)], condition: null },
      { role: ADMIN, members: OWNER.members, condition: null },
    ]);
    expect(read.audit_configs).toBeNull();
    const withAudit = (await withDiagnostics((d) => type.read(harness.call, { ...state, audit_configs: [] }, d))).value!;
    expect(withAudit.audit_configs).toEqual([
      { service: 'allServices', audit_log_configs: [{ log_type: 'DATA_READ', exempted_members: null }] },
    ]);
  });

  test('a resource deleted in Google: read drops it with a warning, delete succeeds with a warning', async () => {
    const harness = await provider();
    const type = harness.resource('googleiam_authorization_policy_iam_member');
    const name = newPolicy();
    const state = (await create(harness, type, member(type, name, user(1)))).value!;
    emulator.removeResource(name);
    (await harness.context.policies.of({ service: 'networksecurity', apiVersion: 'v1', name })).forget();
    const read = await withDiagnostics((d) => type.read(harness.call, state, d));
    expect(read.value).toBeNull();
    expect(read.diagnostics.all).toEqual([expect.objectContaining({ severity: 'WARNING', summary: `${name} no longer exists` })]);
    const deleted = await withDiagnostics((d) => type.delete(harness.call, state, d));
    expect(deleted.diagnostics.all.map((d) => d.severity)).toEqual(['WARNING']);
  });

  test("a failed create returns no state, with Google's status and message", async () => {
    const harness = await provider();
    const type = harness.resource('googleiam_authorization_policy_iam_member');
    const name = `projects/p-123456/locations/global/authorizationPolicies/never-created-${++counter}`;
    const { value, diagnostics } = await create(harness, type, member(type, name, user(1)));
    expect(value).toBeNull();
    expect(diagnostics.all).toEqual([expect.objectContaining({ severity: 'ERROR', detail: expect.stringContaining('NOT_FOUND') })]);
  });
});

describe('a lost answer and Ctrl-C', () => {
  const NO_RETRIES = { CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '10', CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '0' };

  test('a write carried out whose answer was lost is settled by one more read-modify-write, past the budget: the create succeeds', async () => {
    const harness = await provider(NO_RETRIES);
    const type = harness.resource('googleiam_authorization_policy_iam_member');
    const name = newPolicy();
    await (await harness.context.policies.of({ service: 'networksecurity', apiVersion: 'v1', name })).read();
    emulator.afterWrite = () => {
      emulator.afterWrite = undefined;
      throw new ApiError(503, 'UNAVAILABLE', 'lost on the way back');
    };
    emulator.resetStats();
    const { value, diagnostics } = await create(harness, type, member(type, name, user(1)));
    expect(diagnostics.all).toEqual([]);
    expect(value).toMatchObject({ member: user(1), etag: emulator.policy(name).etag });
    // The write; then a read, and a write with its etag that Google takes, proving the member is there.
    expect(emulator.stats()).toMatchObject({ setIamPolicy: 2, getIamPolicy: 1 });
    expect(historyOf(emulator, name, ROLE)).toEqual([[user(1)], [user(1)]]);
  });

  test('a write answered 503 that a read does not show fails, and the grant is kept: reads may lag writes, so its outcome is unknown', async () => {
    const harness = await provider(NO_RETRIES);
    const type = harness.resource('googleiam_authorization_policy_iam_member');
    const name = newPolicy();
    emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['setIamPolicy'] });
    const planned = member(type, name, user(1));
    const { value, diagnostics } = await create(harness, type, planned);
    expect(value).toEqual({ ...planned, etag: null });
    expect(diagnostics.all).toHaveLength(1);
    expect(diagnostics.all[0].detail).toContain('UNAVAILABLE');
    expect(diagnostics.all[0].detail).toContain("Google's IAM reads may lag writes");
    expect(diagnostics.all[0].detail).toContain('whether Google carried it out is unknown');
    expect(emulator.writes(name)).toHaveLength(0);
  });

  test('an update whose outcome is unknown keeps the values from before it, and the new ones privately: a later delete revokes both', async () => {
    const harness = await provider(NO_RETRIES);
    const type = harness.resource('googleiam_authorization_policy_iam_binding');
    const name = newPolicy();
    const binding = (role: string, members: string[]) => ({
      ...fullValue(type, { name, role, members }),
      id: `${name}/${role}`,
      etag: UNKNOWN,
    });
    const prior = (await withDiagnostics((d) => type.create(harness.call, binding(ROLE, [user(1)]), d))).value!;
    // The write is carried out, its answer lost, and every read fails: no read can settle it.
    emulator.afterWrite = () => {
      emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['getIamPolicy'] });
      throw new ApiError(503, 'UNAVAILABLE', 'The service is currently unavailable.');
    };
    const call = harness.call;
    const planned = binding(OTHER_ROLE, [user(1), user(2)]);
    const updated = await withDiagnostics((d) => type.update(call, prior, planned, d));
    // What the update was revoking (ROLE for u1) stays in the state: a non-authoritative refresh would never show it again.
    expect(updated.value).toEqual({ ...prior, etag: null });
    expect(updated.diagnostics.all[0].detail).toContain('whether Google carried it out is unknown');
    expect(updated.diagnostics.all[0].detail).toContain('Terraform keeps the values from before this change in its state');
    emulator.afterWrite = undefined;
    emulator.setFaults(undefined);
    expect(membersOf(emulator, name, OTHER_ROLE)).toEqual([user(1), user(2)]);
    // The delete comes from another run (another provider process), with the private state Terraform kept: both bindings go.
    const later = await provider(NO_RETRIES);
    const kept = { ...later.call, private: PrivateState.decode(call.private.encode()) };
    const deleted = await withDiagnostics((d) => later.resource(type.typeName).delete(kept, updated.value!, d));
    expect(deleted.diagnostics.all).toEqual([]);
    expect(membersOf(emulator, name, ROLE)).toEqual([]);
    expect(membersOf(emulator, name, OTHER_ROLE)).toEqual([]);
  });

  test('a create whose outcome is unknown, then a refresh that reads a version from before its write: kept (not dropped), planned again, and a delete revokes it', async () => {
    const harness = await provider(NO_RETRIES);
    const type = harness.resource('googleiam_authorization_policy_iam_member');
    const name = newPolicy();
    // The write is carried out, its answer lost, and every read fails: no read can settle it.
    emulator.afterWrite = () => {
      emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['getIamPolicy'] });
      throw new ApiError(503, 'UNAVAILABLE', 'The service is currently unavailable.');
    };
    const call = harness.call;
    const created = await withDiagnostics((d) => type.create(call, member(type, name, user(1)), d));
    expect(created.diagnostics.all[0].detail).toContain('whether Google carried it out is unknown');
    emulator.afterWrite = undefined;
    emulator.setFaults(undefined);
    expect(membersOf(emulator, name, ROLE)).toEqual([user(1)]);
    // The next run's refresh reads a version from before the write (the provider never saw it replaced).
    emulator.setReadLag(60_000);
    try {
      const later = await provider(NO_RETRIES);
      const kept = { ...later.call, private: PrivateState.decode(call.private.encode()) };
      const read = await withDiagnostics((d) => later.resource(type.typeName).read(kept, created.value!, d));
      expect(read.value).toEqual(created.value);
      expect(read.diagnostics.all.map((d) => d.summary)).toEqual([
        `Google's IAM policy of ${name} lacks what a write of moments ago may have granted`,
      ]);
      // Its plan writes it again (Terraform replaces a tainted create anyway; an unsettled update is planned as a change).
      const { planned } = await later.resource(type.typeName).plan!(
        { prior: read.value, proposed: read.value!, config: read.value! },
        new Diagnostics(),
        kept,
      );
      expect(planned.etag).toBe(UNKNOWN);
      // Removed from the configuration: the delete (once reads have caught up) revokes what Google holds.
      emulator.setReadLag(0);
      const deleted = await withDiagnostics((d) => later.resource(type.typeName).delete(kept, read.value!, d));
      expect(deleted.diagnostics.all).toEqual([]);
    } finally {
      emulator.setReadLag(0);
    }
    expect(membersOf(emulator, name, ROLE)).toEqual([]);
  });

  test('stop() cancels what was not sent; the write in flight finishes and is answered', async () => {
    const harness = await provider();
    const type = harness.resource('googleiam_authorization_policy_iam_member');
    const name = newPolicy();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let writing!: () => void;
    const inFlight = new Promise<void>((resolve) => (writing = resolve));
    emulator.afterWrite = () => {
      writing();
      return held;
    };
    const first = create(harness, type, member(type, name, user(1)));
    await inFlight;
    const second = create(harness, type, member(type, name, user(2)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    harness.stop();
    const late = await create(harness, type, member(type, name, user(3)));
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a.diagnostics.all).toEqual([]);
    expect(a.value).not.toBeNull();
    for (const cancelled of [b, late]) {
      expect(cancelled.value).toBeNull();
      expect(cancelled.diagnostics.all[0].detail).toMatch(/^cancelled: Terraform asked the provider to stop \(Ctrl-C\)/);
    }
    expect(historyOf(emulator, name, ROLE)).toEqual([[user(1)]]);
  });

  test('stop() while a write is retried after a lost answer: the write sent is settled at once by one more read-modify-write', async () => {
    const harness = await provider({ CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '200', CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '5000' });
    const type = harness.resource('googleiam_authorization_policy_iam_member');
    const name = newPolicy();
    emulator.afterWrite = () => {
      emulator.afterWrite = undefined;
      setTimeout(() => harness.stop(), 20);
      throw new ApiError(503, 'UNAVAILABLE', 'lost on the way back');
    };
    const { value, diagnostics } = await create(harness, type, member(type, name, user(1)));
    expect(diagnostics.all).toEqual([]);
    expect(value).toMatchObject({ member: user(1) });
  });
});
