/**
 * The read-modify-write engine against an in-memory policy (see
 * test/support/memory-policy.ts): batching, isolation of a bad request,
 * conflicts, the etag, the audit-config mask. The same engine against the
 * emulator over HTTP: test/integration/provider/engine.test.ts.
 */
import { GoogleApiError } from '../../../../lib/api/errors';
import type { IamPolicyEndpoint } from '../../../../lib/api/iam-policy';
import { applyEditBatch, samePolicy, type EditRequest } from '../../../../lib/provider/policies/engine';
import type { Policy } from '../../../../lib/iam/types';
import { MemoryPolicy } from '../../../support/memory-policy';

const ROLE = 'roles/networksecurity.viewer';
const OWNER = { role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] };
const add = (id: string, member: string): EditRequest => ({ id, edits: [{ kind: 'addMember', role: ROLE, member }] });
const fast = { initialDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 1_000 };

test('a batch costs one read and one write; each request learns whether it changed anything', async () => {
  const policy = new MemoryPolicy({ version: 1, bindings: [OWNER] });
  const outcomes = await applyEditBatch(
    policy,
    [add('a', 'user:a@example.com'), add('b', 'user:b@example.com'), add('c', 'user:A@example.com')],
    fast,
  );
  expect(outcomes.map((o) => o.ok && o.changed)).toEqual([true, true, false]);
  expect(outcomes.every((o) => o.ok && o.etag === 'etag-2' && o.batchSize === 3 && o.attempts === 1)).toBe(true);
  expect([policy.reads.length, policy.writes.length]).toEqual([2, 1]); // the read, and the write's answer
  expect(policy.policy.bindings).toEqual([OWNER, { role: ROLE, members: ['user:a@example.com', 'user:b@example.com'] }]);
});

test('nothing to change is still written, with the etag read: a read may lag, and only a write Google takes proves it current', async () => {
  const policy = new MemoryPolicy({ bindings: [{ role: ROLE, members: ['user:a@example.com'] }] });
  const [outcome] = await applyEditBatch(policy, [add('a', 'user:A@Example.com')], fast);
  expect(outcome).toMatchObject({ ok: true, changed: false, etag: 'etag-2' });
  expect(policy.writes.map((w) => [w.policy.etag, w.policy.bindings])).toEqual([
    ['etag-1', [{ role: ROLE, members: ['user:a@example.com'] }]],
  ]);
});

test('a lagging read that already shows the change: the write with its etag is refused, the cycle reads again and makes it', async () => {
  // Google has u:a (etag-2); a lagging read answers etag-1, without it. A delete of u:a must not stop at that read.
  const policy = new MemoryPolicy({ bindings: [{ role: ROLE, members: ['user:a@example.com'] }] });
  const fresh = policy.policy;
  policy.concurrentWrite({ bindings: [{ role: ROLE, members: ['user:a@example.com'] }] });
  let lagging = 2;
  const read = policy.getIamPolicy.bind(policy);
  policy.getIamPolicy = async () => (lagging-- > 0 ? { ...fresh, bindings: [] } : read());
  const [outcome] = await applyEditBatch(
    policy,
    [{ id: 'd', edits: [{ kind: 'removeMember', role: ROLE, member: 'user:a@example.com' }] }],
    fast,
  );
  expect(outcome).toMatchObject({ ok: true, attempts: 3 });
  expect(policy.policy.bindings).toEqual([]);
});

test('a request that would break a policy rule is rejected alone; the others are written', async () => {
  const policy = new MemoryPolicy({
    bindings: [{ role: 'roles/networksecurity.admin', members: Array.from({ length: 1_499 }, (_, i) => `user:u${i}@example.com`) }],
  });
  const outcomes = await applyEditBatch(
    policy,
    [add('fits', 'user:last@example.com'), add('over', 'user:over@example.com'), add('bad', 'User:x@example.com')],
    fast,
  );
  expect(outcomes[0]).toMatchObject({ ok: true, changed: true });
  expect(outcomes[1]).toMatchObject({ ok: false, status: 'INVALID_ARGUMENT', message: expect.stringMatching(/1,501 principals/) });
  expect(outcomes[2]).toMatchObject({ ok: false, status: 'INVALID_ARGUMENT', message: expect.stringMatching(/case-sensitive/) });
  expect(policy.writes).toHaveLength(1);
});

test('a write Google refuses as INVALID_ARGUMENT is retried request by request, so one bad grant cannot sink the others', async () => {
  const policy = new MemoryPolicy();
  policy.beforeWrite = (written) => {
    if ((written.bindings ?? []).some((b) => b.members?.includes('user:refused@example.com')))
      throw new GoogleApiError(400, 'INVALID_ARGUMENT', 'Principal refused.', 'POST x');
  };
  const outcomes = await applyEditBatch(policy, [add('ok', 'user:ok@example.com'), add('no', 'user:refused@example.com')], fast);
  expect(outcomes).toEqual([
    expect.objectContaining({ id: 'ok', ok: true, changed: true, batchSize: 1 }),
    expect.objectContaining({ id: 'no', ok: false, status: 'INVALID_ARGUMENT', message: 'Principal refused.' }),
  ]);
  expect(policy.policy.bindings).toEqual([{ role: ROLE, members: ['user:ok@example.com'] }]);
});

test("an etag conflict redoes the whole cycle on the fresh policy, keeping the other writer's change", async () => {
  const policy = new MemoryPolicy();
  let interfered = false;
  policy.beforeWrite = () => {
    if (interfered) return;
    interfered = true;
    policy.concurrentWrite({ bindings: [OWNER] });
  };
  const [outcome] = await applyEditBatch(policy, [add('a', 'user:a@example.com')], fast);
  expect(outcome).toMatchObject({ ok: true, attempts: 2 });
  expect(policy.policy.bindings).toEqual([OWNER, { role: ROLE, members: ['user:a@example.com'] }]);
});

test('an error that is not worth retrying fails every request of the batch at once', async () => {
  const failing: IamPolicyEndpoint = {
    getIamPolicy: async () => {
      throw new GoogleApiError(404, 'NOT_FOUND', 'gone', 'GET x');
    },
    setIamPolicy: async () => {
      throw new Error('never');
    },
  };
  expect(await applyEditBatch(failing, [add('a', 'user:a@example.com'), add('b', 'user:b@example.com')], fast)).toEqual([
    expect.objectContaining({ id: 'a', ok: false, status: 'NOT_FOUND', message: 'gone', attempts: 1 }),
    expect.objectContaining({ id: 'b', ok: false, status: 'NOT_FOUND', message: 'gone', attempts: 1 }),
  ]);
});

test('a policy read without an etag is never written: a write without one would replace the policy blindly', async () => {
  const writes: unknown[] = [];
  const blind: IamPolicyEndpoint = {
    getIamPolicy: async () => ({ bindings: [OWNER] }),
    setIamPolicy: async (policy) => {
      writes.push(policy);
      return policy;
    },
  };
  const [outcome] = await applyEditBatch(blind, [add('a', 'user:a@example.com')], fast);
  expect(outcome).toMatchObject({ ok: false, attempts: 1, message: expect.stringMatching(/no etag.*nothing was written/) });
  expect(writes).toEqual([]);
});

test('the write carries the etag that was read, drops member-less bindings, and replaces audit configs only when a policy grant declares them', async () => {
  const policy = new MemoryPolicy({ version: 1, bindings: [{ role: 'roles/networksecurity.admin', members: [] }] });
  await applyEditBatch(policy, [add('a', 'user:a@example.com')], fast);
  const audit = [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }];
  await applyEditBatch(
    policy,
    [
      {
        id: 'p',
        edits: [
          { kind: 'replaceBindings', bindings: [{ role: ROLE, members: ['user:p@example.com'] }] },
          { kind: 'replaceAuditConfigs', auditConfigs: audit },
        ],
      },
    ],
    fast,
  );
  expect(policy.writes).toEqual([
    {
      policy: { etag: 'etag-1', version: 1, bindings: [{ role: ROLE, members: ['user:a@example.com'] }] },
      options: { updateAuditConfigs: false },
    },
    {
      policy: { etag: 'etag-2', version: 1, bindings: [{ role: ROLE, members: ['user:p@example.com'] }], auditConfigs: audit },
      options: { updateAuditConfigs: true },
    },
  ]);
});

describe('the policy as the last batch wrote it (assumedPolicy: the next batch on the same policy skips the read)', () => {
  async function lastWritten(policy: MemoryPolicy): Promise<Policy> {
    let written: Policy | undefined;
    await applyEditBatch(policy, [add('first', 'user:first@example.com')], { ...fast, onWritten: (p) => (written = p) });
    expect(written).toEqual(policy.policy);
    return written!;
  }

  test('a write against it needs no read', async () => {
    const policy = new MemoryPolicy();
    const assumedPolicy = await lastWritten(policy);
    const reads = policy.reads.length;
    const [outcome] = await applyEditBatch(policy, [add('a', 'user:a@example.com')], { ...fast, assumedPolicy });
    expect(outcome).toMatchObject({ ok: true, changed: true, attempts: 1 });
    expect(policy.reads.length - reads).toBe(1); // the write's answer only
    expect(policy.writes.at(-1)?.policy.etag).toBe(assumedPolicy.etag);
  });

  test('stale (someone wrote since): the refused write is redone at once on a fresh read, losing nobody', async () => {
    const policy = new MemoryPolicy();
    const assumedPolicy = await lastWritten(policy);
    policy.concurrentWrite({
      bindings: [...(policy.policy.bindings ?? []), { role: 'roles/compute.networkViewer', members: ['user:console@example.com'] }],
    });
    const [outcome] = await applyEditBatch(policy, [add('a', 'user:a@example.com')], { ...fast, initialDelayMs: 60_000, assumedPolicy });
    expect(outcome).toMatchObject({ ok: true, changed: true, attempts: 1 }); // no backoff wait: it would take a minute here
    expect(policy.policy.bindings).toEqual([
      { role: ROLE, members: ['user:first@example.com', 'user:a@example.com'] },
      { role: 'roles/compute.networkViewer', members: ['user:console@example.com'] },
    ]);
  });

  test('"already granted" is never concluded from it: the policy is read', async () => {
    const policy = new MemoryPolicy();
    const assumedPolicy = await lastWritten(policy);
    policy.concurrentWrite({}); // the console removed everything; the etag moved on
    const [outcome] = await applyEditBatch(policy, [add('again', 'user:first@example.com')], { ...fast, assumedPolicy });
    expect(outcome).toMatchObject({ ok: true, changed: true });
    expect(policy.policy.bindings).toEqual([{ role: ROLE, members: ['user:first@example.com'] }]);
  });

  test('nor is a rule broken: the policy is read before a request is rejected', async () => {
    const full = Array.from({ length: 1_500 }, (_, i) => `user:u${i}@example.com`);
    const policy = new MemoryPolicy({ bindings: [{ role: 'roles/networksecurity.admin', members: full }] });
    const assumedPolicy = { ...policy.policy };
    policy.concurrentWrite({ bindings: [{ role: 'roles/networksecurity.admin', members: full.slice(1) }] });
    const [outcome] = await applyEditBatch(policy, [add('fits', 'user:new@example.com')], { ...fast, assumedPolicy });
    expect(outcome).toMatchObject({ ok: true, changed: true });
  });

  test('a request Google refuses is retried alone on fresh reads, like any batch', async () => {
    const policy = new MemoryPolicy();
    const assumedPolicy = await lastWritten(policy);
    policy.beforeWrite = (written) => {
      if ((written.bindings ?? []).some((b) => b.members?.includes('user:refused@example.com')))
        throw new GoogleApiError(400, 'INVALID_ARGUMENT', 'Principal refused.', 'POST x');
    };
    const outcomes = await applyEditBatch(policy, [add('ok', 'user:ok@example.com'), add('no', 'user:refused@example.com')], {
      ...fast,
      assumedPolicy,
    });
    expect(outcomes.map((o) => o.ok)).toEqual([true, false]);
    expect(policy.policy.bindings).toEqual([{ role: ROLE, members: ['user:first@example.com', 'user:ok@example.com'] }]);
  });
});

test('samePolicy ignores key order', () => {
  expect(
    samePolicy(
      { version: 1, etag: 'x', bindings: [{ role: 'r', members: ['a'] }] },
      { bindings: [{ members: ['a'], role: 'r' }], etag: 'x', version: 1 },
    ),
  ).toBe(true);
  expect(samePolicy({ bindings: [{ role: 'r', members: ['a', 'b'] }] }, { bindings: [{ role: 'r', members: ['b', 'a'] }] })).toBe(false);
});
