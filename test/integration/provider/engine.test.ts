/**
 * The read-modify-write engine against the emulator over HTTP, with the real
 * REST client: batching, isolation of a bad request, conflicts and failures.
 */
import { GoogleRestClient } from '../../../lib/api/client';
import { IamPolicyApi, type IamPolicyEndpoint } from '../../../lib/api/iam-policy';
import { TYPED_RESOURCE_TYPES } from '../../../lib/grant/resource-type';
import { applyEditBatch, type EditRequest } from '../../../lib/provider/policies/engine';
import { GoogleApiEmulator } from '../../../lib/testing';

const ROLE = 'roles/networksecurity.viewer';
let emulator: GoogleApiEmulator;
let client: GoogleRestClient;
let counter = 0;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  client = new GoogleRestClient({ env: emulator.env() });
});
afterAll(() => emulator.close());

/** The policy API of one authorization policy, over HTTP. */
const api = (name: string) => new IamPolicyApi(client, { ...TYPED_RESOURCE_TYPES.AuthorizationPolicy, name });

function newResource(policy?: Parameters<GoogleApiEmulator['addResource']>[1]): string {
  const name = `projects/p-123456/locations/global/authorizationPolicies/engine-${++counter}`;
  emulator.addResource(name, policy);
  return name;
}

const add = (id: string, member: string): EditRequest => ({ id, edits: [{ kind: 'addMember', role: ROLE, member }] });
const fast = { initialDelayMs: 5, maxDelayMs: 20, maxElapsedMs: 5_000 };

test('a batch of requests costs one read and one write', async () => {
  const resource = newResource({
    bindings: [{ role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] }],
  });
  emulator.resetStats();
  const outcomes = await applyEditBatch(
    api(resource),
    [add('a', 'user:a@example.com'), add('b', 'user:b@example.com'), add('c', 'user:a@example.com')],
    fast,
  );

  expect(outcomes.map((o) => o.ok && o.changed)).toEqual([true, true, false]);
  expect(emulator.stats()).toMatchObject({ getIamPolicy: 1, setIamPolicy: 1 });
  const etag = emulator.policy(resource).etag;
  expect(outcomes.every((o) => o.ok && o.etag === etag && o.batchSize === 3 && o.attempts === 1)).toBe(true);
  expect(emulator.policy(resource).bindings).toEqual([
    { role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] },
    { role: ROLE, members: ['user:a@example.com', 'user:b@example.com'] },
  ]);
});

test('nothing to change is still one write, with the etag read: Google taking it proves the read was current', async () => {
  const resource = newResource({ bindings: [{ role: ROLE, members: ['user:a@example.com'] }] });
  emulator.resetStats();
  const [outcome] = await applyEditBatch(api(resource), [add('a', 'user:A@Example.com')], fast);
  expect(outcome).toMatchObject({ ok: true, changed: false });
  expect(emulator.stats()).toMatchObject({ getIamPolicy: 1, setIamPolicy: 1, conflicts: 0 });
});

test('a request that would break the principal limit is rejected alone', async () => {
  const members = Array.from({ length: 1_500 }, (_, i) => `user:u${i}@example.com`);
  const resource = newResource({
    bindings: [{ role: 'roles/networksecurity.admin', members: members.slice(0, 1_499) }],
  });
  const outcomes = await applyEditBatch(api(resource), [add('fits', 'user:last@example.com'), add('over', 'user:over@example.com')], fast);
  expect(outcomes[0]).toMatchObject({ ok: true, changed: true });
  expect(outcomes[1]).toMatchObject({ ok: false, status: 'INVALID_ARGUMENT', message: expect.stringMatching(/1,501 principals/) });
  expect(emulator.policy(resource).bindings?.find((b) => b.role === ROLE)?.members).toEqual(['user:last@example.com']);
});

test('conflicts and transient faults are retried until the write lands', async () => {
  const resource = newResource();
  emulator.setFaults({ rate: 0.5, kinds: ['409', '503', 'reset'], seed: 7 });
  const retries: string[] = [];
  try {
    const [outcome] = await applyEditBatch(api(resource), [add('a', 'user:a@example.com')], {
      ...fast,
      onRetry: (e) => retries.push(String(e)),
    });
    expect(outcome).toMatchObject({ ok: true, changed: true });
    expect(outcome.attempts).toBe(retries.length + 1);
  } finally {
    emulator.setFaults(undefined);
  }
  expect(emulator.policy(resource).bindings).toEqual([{ role: ROLE, members: ['user:a@example.com'] }]);
});

test('a real etag conflict from a concurrent writer is redone on the fresh policy', async () => {
  const resource = newResource();
  let interfered = false;
  const racing: IamPolicyEndpoint = {
    getIamPolicy: () => api(resource).getIamPolicy(),
    setIamPolicy: async (policy) => {
      if (!interfered) {
        interfered = true; // someone else writes between our read and our write
        const theirs = await api(resource).getIamPolicy();
        await api(resource).setIamPolicy({
          ...theirs,
          bindings: [{ role: 'roles/networksecurity.admin', members: ['user:them@example.com'] }],
        });
      }
      return api(resource).setIamPolicy(policy);
    },
  };
  const [outcome] = await applyEditBatch(racing, [add('a', 'user:a@example.com')], fast);
  expect(outcome).toMatchObject({ ok: true, attempts: 2 });
  expect(emulator.stats().conflicts).toBeGreaterThanOrEqual(1);
  expect(emulator.policy(resource).bindings).toEqual([
    { role: 'roles/networksecurity.admin', members: ['user:them@example.com'] },
    { role: ROLE, members: ['user:a@example.com'] },
  ]);
});

test('NOT_FOUND fails every request at once, without retrying', async () => {
  const outcomes = await applyEditBatch(
    api('projects/p-123456/locations/global/authorizationPolicies/missing'),
    [add('a', 'user:a@example.com'), add('b', 'user:b@example.com')],
    fast,
  );
  expect(outcomes).toEqual([
    expect.objectContaining({ id: 'a', ok: false, status: 'NOT_FOUND', attempts: 1 }),
    expect.objectContaining({ id: 'b', ok: false, status: 'NOT_FOUND', attempts: 1 }),
  ]);
});
