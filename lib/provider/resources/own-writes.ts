import type { PrivateState } from '../framework/private-state';
import type { Policy } from '../../iam/types';
import { etagDigest, type ChangeResult } from '../policies/policy-batcher';

/**
 * A grant's own last write, as its private state (kept by Terraform with the
 * object) remembers it: digests of the policy versions the writes of its
 * provider process had replaced by then, its own write's included (6
 * characters each). A later refresh that reads one of those versions has read
 * an answer older than that write (Google's IAM reads may lag writes), not
 * someone else's edit.
 */
const REPLACED_KEY = 'replaced';

/** Keeps what `result` says of the write in the grant's private state. */
export function rememberWrite(privateState: PrivateState, result: ChangeResult): void {
  privateState.set(REPLACED_KEY, result.replaced.join(''));
}

/** Whether `policy` is a version the grant's own last write had already replaced. */
export function olderThanOwnWrite(privateState: PrivateState, policy: Policy): boolean {
  const replaced = privateState.get(REPLACED_KEY);
  if (typeof replaced !== 'string' || !policy.etag) return false;
  const digest = etagDigest(policy.etag);
  for (let i = 0; i < replaced.length; i += digest.length) {
    if (replaced.slice(i, i + digest.length) === digest) return true;
  }
  return false;
}
