import type { SetIamPolicyOptions } from '../../lib/api/iam-policy';
import { GoogleApiError } from '../../lib/api/errors';
import type { Policy } from '../../lib/iam/types';
import type { IamPolicyEndpoint } from '../../lib/api/iam-policy';

/**
 * One resource's policy in memory, as the engine sees Google: a read returns
 * it with its etag, a write must carry that etag (else 409 ABORTED) and gets
 * a new one. Every call is recorded; `beforeWrite` lets a test play a
 * concurrent writer or a refusal.
 */
export class MemoryPolicy implements IamPolicyEndpoint {
  public policy: Policy;
  public readonly reads: Policy[] = [];
  public readonly writes: Array<{ policy: Policy; options: SetIamPolicyOptions }> = [];
  public beforeWrite?: (policy: Policy) => void;
  private generation = 1;

  constructor(policy: Omit<Policy, 'etag'> = {}) {
    this.policy = { ...policy, etag: 'etag-1' };
  }

  public async getIamPolicy(): Promise<Policy> {
    const copy = JSON.parse(JSON.stringify(this.policy)) as Policy;
    this.reads.push(copy);
    return copy;
  }

  public async setIamPolicy(policy: Policy, options: SetIamPolicyOptions): Promise<Policy> {
    this.beforeWrite?.(policy);
    if (policy.etag !== this.policy.etag)
      throw new GoogleApiError(409, 'ABORTED', 'There were concurrent policy changes.', 'POST x:setIamPolicy');
    this.writes.push({ policy: JSON.parse(JSON.stringify(policy)) as Policy, options });
    this.policy = { ...policy, etag: `etag-${++this.generation}` };
    return this.getIamPolicy();
  }

  /** Someone else writes: the etag moves on. */
  public concurrentWrite(policy: Omit<Policy, 'etag'>): void {
    this.policy = { ...policy, etag: `etag-${++this.generation}` };
  }
}
