/**
 * What the engine reports of a write whose answer was lost, and how a fresh
 * read settles it (editsInEffect, settleUnanswered).
 */
import { GoogleApiError } from '../../../../lib/api/errors';
import { applyEdits, type PolicyEdit } from '../../../../lib/iam/policy-edit';
import type { Policy } from '../../../../lib/iam/types';
import { applyEditBatch } from '../../../../lib/provider/policies/engine';
import { isOutcomeUnknown } from '../../../../lib/provider/errors';
import { editsInEffect, settleUnanswered } from '../../../../lib/provider/policies/settle';
import { MemoryPolicy } from '../../../support/memory-policy';

const ROLE = 'roles/networksecurity.authorizationPolicyViewer';
const OTHER = { role: 'roles/networksecurity.authorizationPolicyAdmin', members: ['user:owner@example.com'] };
const fast = { initialDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 1_000 };

describe('editsInEffect: whether what the edits declare is in a policy', () => {
  const cases: Array<[string, Policy, PolicyEdit[]]> = [
    ['a member added to a new binding', { bindings: [OTHER] }, [{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }]],
    [
      'a member added beside others',
      { bindings: [OTHER, { role: ROLE, members: ['user:b@example.com'] }] },
      [{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }],
    ],
    [
      "a binding's members replaced",
      { bindings: [{ role: ROLE, members: ['user:b@example.com'] }] },
      [{ kind: 'setBinding', role: ROLE, members: ['user:a@example.com'] }],
    ],
    ['a new binding', { bindings: [OTHER] }, [{ kind: 'setBinding', role: ROLE, members: ['user:a@example.com'] }]],
    [
      'a whole policy',
      { bindings: [OTHER], auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }] },
      [
        { kind: 'replaceBindings', bindings: [{ role: ROLE, members: ['user:a@example.com'] }] },
        { kind: 'replaceAuditConfigs', auditConfigs: [] },
      ],
    ],
  ];
  test.each(cases)('%s', (_label, before, edits) => {
    expect(editsInEffect(applyEdits(before, edits), edits)).toBe(true);
    expect(editsInEffect(before, edits)).toBe(false);
  });
});

describe('a write whose answer was lost', () => {
  test('a 503 to a write is reported as unanswered: the change may have been made', async () => {
    const policy = new MemoryPolicy({ bindings: [OTHER] });
    policy.beforeWrite = () => {
      throw new GoogleApiError(503, 'UNAVAILABLE', 'down', 'POST x');
    };
    const [outcome] = await applyEditBatch(
      policy,
      [{ id: 'a', edits: [{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }] }],
      {
        ...fast,
        maxElapsedMs: 0,
      },
    );
    expect(outcome).toMatchObject({
      ok: false,
      status: 'UNAVAILABLE',
      writeUnanswered: true,
    });
  });

  test('a refusal (409, 403) is an answer: nothing was written', async () => {
    const policy = new MemoryPolicy({ bindings: [OTHER] });
    policy.beforeWrite = () => {
      throw new GoogleApiError(403, 'PERMISSION_DENIED', 'no', 'POST x');
    };
    const [outcome] = await applyEditBatch(
      policy,
      [{ id: 'a', edits: [{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }] }],
      fast,
    );
    expect(outcome).toMatchObject({ ok: false, status: 'PERMISSION_DENIED' });
    expect(outcome).not.toHaveProperty('writeUnanswered');
  });

  test('a write that took effect although its answer was lost counts as this request’s change on the retry', async () => {
    const policy = new MemoryPolicy({ bindings: [OTHER] });
    let lost = false;
    policy.beforeWrite = (written) => {
      if (lost) return;
      lost = true;
      policy.concurrentWrite(written); // Google carried it out...
      throw new GoogleApiError(503, 'UNAVAILABLE', 'down', 'POST x'); // ...and the answer never came
    };
    const [outcome] = await applyEditBatch(
      policy,
      [{ id: 'a', edits: [{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }] }],
      fast,
    );
    expect(outcome).toMatchObject({ ok: true, changed: true });
    expect(policy.writes).toEqual([]);
  });

  test('stopRetrying ends the retries at once (an interrupted run)', async () => {
    const policy = new MemoryPolicy({ bindings: [OTHER] });
    policy.beforeWrite = () => {
      throw new GoogleApiError(503, 'UNAVAILABLE', 'down', 'POST x');
    };
    const [outcome] = await applyEditBatch(
      policy,
      [{ id: 'a', edits: [{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }] }],
      {
        ...fast,
        stopRetrying: () => true,
      },
    );
    expect(outcome).toMatchObject({ ok: false, attempts: 1 });
  });
});

describe('settling a lost write by a read (settleUnanswered)', () => {
  const edits = [{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }] as const;
  const failure = (writeUnanswered: boolean) => ({
    id: 'a',
    ok: false as const,
    status: 'UNAVAILABLE',
    message: 'down',
    attempts: 1,
    batchSize: 1,
    ...(writeUnanswered ? { writeUnanswered } : {}),
  });

  test('a read that shows the change settles it as done', async () => {
    const policy = new MemoryPolicy({ bindings: [OTHER, { role: ROLE, members: ['user:a@example.com'] }] });
    const settled = await settleUnanswered(policy, [{ outcome: failure(true), edits }], fast);
    expect(settled.get('a')).toEqual({ etag: 'etag-1', changed: true, batchSize: 1 });
  });

  test("a read without the change leaves an unanswered write unknown: Google's reads may lag writes", async () => {
    const policy = new MemoryPolicy({ bindings: [OTHER] });
    const settled = await settleUnanswered(policy, [{ outcome: failure(true), edits }], fast);
    const error = settled.get('a') as Error;
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(error.message).toContain("Google's IAM reads may lag writes");
    expect(error.message).toContain('Terraform keeps the grant in its state');
  });

  test('a write Google answered (refused) stays its own error; when no read answers, an unanswered one is unknown', async () => {
    const policy = new MemoryPolicy({ bindings: [OTHER] });
    expect((await settleUnanswered(policy, [{ outcome: failure(false), edits }], fast)).has('a')).toBe(false);
    policy.getIamPolicy = () => Promise.reject(new GoogleApiError(503, 'UNAVAILABLE', 'reads down too', 'GET x'));
    const error = (await settleUnanswered(policy, [{ outcome: failure(true), edits }], { ...fast, maxElapsedMs: 0 })).get('a') as Error;
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(error.message).toContain('a read to check it failed too (UNAVAILABLE (HTTP 503): reads down too [GET x])');
  });
});
