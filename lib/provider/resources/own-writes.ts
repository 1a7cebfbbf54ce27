import type { PrivateState } from '../framework/private-state';
import { EMPTY_POLICY_ETAG, type Policy } from '../../iam/types';
import { etagDigest, type ChangeResult } from '../policies/policy-batcher';

/**
 * A grant's own last write, as its private state (kept by Terraform with the
 * object) remembers it: when it was made, and digests of the policy versions
 * its provider process had seen before it (6 characters each). A refresh soon
 * after that reads one of those versions has read an answer older than the
 * write (Google's IAM reads may lag writes), not someone else's edit.
 *
 * The memory expires: a lagging read answers an old version for seconds, and
 * a version remembered longer could only mislead (a resource deleted and
 * created again, a digest shared by chance). The empty policy's etag is never
 * among the versions (policy-batcher.ts).
 */
const KEY = 'ownWrite';

/** How long after a grant's write a refresh takes a remembered version for a lagging read. */
export const OWN_WRITE_MEMORY_MS = 5 * 60_000;

/** Keeps what `result` says of the write in the grant's private state. */
export function rememberWrite(privateState: PrivateState, result: ChangeResult, now = Date.now()): void {
  // One short string (it is stored with every grant, and Terraform rewrites the state after each): `<seconds, base 36>:<digests>`.
  privateState.set(KEY, `${Math.round(now / 1000).toString(36)}:${result.replaced.join('')}`);
  privateState.set('replaced', undefined); // as earlier versions kept it, without a time
}

/** Whether `policy` is a version older than the grant's own last write, which that write's process had seen. */
export function olderThanOwnWrite(privateState: PrivateState, policy: Policy, now = Date.now()): boolean {
  const kept = privateState.get(KEY);
  if (typeof kept !== 'string' || !policy.etag) return false;
  const [writtenAt, replaced = ''] = kept.split(':');
  if (!(now - parseInt(writtenAt, 36) * 1000 <= OWN_WRITE_MEMORY_MS)) return false;
  const digest = etagDigest(policy.etag);
  for (let i = 0; i < replaced.length; i += digest.length) {
    if (replaced.slice(i, i + digest.length) === digest) return true;
  }
  return false;
}

/**
 * Whether `policy` is the empty policy (etag `ACAB`) answered soon after the
 * grant's own write: a read lagging that write may answer the empty policy
 * it replaced, and so may a resource deleted and created again. The two look
 * the same, so a refresh keeps such a grant rather than forget one Google may
 * hold, and its plan grants it again (a no-op where it is held).
 */
export function emptyAfterOwnWrite(privateState: PrivateState, policy: Policy, now = Date.now()): boolean {
  return policy.etag === EMPTY_POLICY_ETAG && ownWriteRecent(privateState, now);
}

/** Whether the grant's own last write was made within OWN_WRITE_MEMORY_MS. */
export function ownWriteRecent(privateState: PrivateState, now = Date.now()): boolean {
  const kept = privateState.get(KEY);
  return typeof kept === 'string' && now - parseInt(kept.split(':')[0], 36) * 1000 <= OWN_WRITE_MEMORY_MS;
}
