/**
 * What the engine reports of a write whose answer was lost: settled only by a
 * later write that Google takes (a read alone proves nothing while reads may
 * lag), else an unknown outcome that Terraform keeps.
 */
import { GoogleApiError } from '../../../../lib/api/errors';
import { applyEditBatch } from '../../../../lib/provider/policies/engine';
import { isOutcomeUnknown } from '../../../../lib/provider/errors';
import { failureError } from '../../../../lib/provider/policies/policy-batcher';
import { MemoryPolicy } from '../../../support/memory-policy';

const ROLE = 'roles/networksecurity.viewer';
const OTHER = { role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] };
const fast = { initialDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 1_000 };

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
    // The retry found the member there and wrote anyway: Google taking that etag is what proves the read current.
    expect(policy.writes).toHaveLength(1);
    expect(policy.writes[0].policy.bindings).toEqual([OTHER, { role: ROLE, members: ['user:a@example.com'] }]);
  });

  test('a lost write that no later write confirms is an unknown outcome, even when the retry is refused', async () => {
    const policy = new MemoryPolicy({ bindings: [OTHER] });
    let writes = 0;
    policy.beforeWrite = () => {
      writes++;
      throw writes === 1
        ? new GoogleApiError(503, 'UNAVAILABLE', 'down', 'POST x')
        : new GoogleApiError(403, 'PERMISSION_DENIED', 'no longer allowed', 'POST x');
    };
    const [outcome] = await applyEditBatch(
      policy,
      [{ id: 'a', edits: [{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }] }],
      fast,
    );
    // The refusal answered the second write only: the first may have been carried out.
    expect(outcome).toMatchObject({ ok: false, status: 'PERMISSION_DENIED', writeUnanswered: true });
    const error = failureError(outcome as Extract<typeof outcome, { ok: false }>);
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(error.message).toMatch(/^PERMISSION_DENIED: no longer allowed\. The write was sent but its answer was lost/);
  });

  test("every retry lost: the outcome is unknown, and the error says so (what Terraform keeps is the resource's to say)", async () => {
    const policy = new MemoryPolicy({ bindings: [OTHER] });
    policy.beforeWrite = () => {
      throw new GoogleApiError(503, 'UNAVAILABLE', 'down', 'POST x');
    };
    const [outcome] = await applyEditBatch(
      policy,
      [{ id: 'a', edits: [{ kind: 'addMember', role: ROLE, member: 'user:a@example.com' }] }],
      {
        ...fast,
        maxElapsedMs: 20,
      },
    );
    const error = failureError(outcome as Extract<typeof outcome, { ok: false }>);
    expect(isOutcomeUnknown(error)).toBe(true);
    expect(error.message).toContain('no later write with a fresh etag confirmed the policy');
    expect(error.message).toMatch(/whether Google carried it out is unknown$/);
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
