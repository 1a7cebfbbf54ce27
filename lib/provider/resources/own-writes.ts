import type { PrivateState } from '../framework/private-state';
import type { Policy } from '../../iam/types';
import { etagDigest, type ChangeResult } from '../policies/policy-batcher';

/**
 * A grant's own last write, as its private state (kept by Terraform with the
 * object) remembers it: the policy's etag after the write, and digests of the
 * versions the writes of its provider process had replaced by then (8
 * characters each). A later refresh that reads one of those versions has read
 * an answer older than that write (Google's IAM reads may lag writes), not
 * someone else's edit.
 */
const WRITE_KEY = 'write';
interface WriteRecord {
  readonly etag: string;
  readonly replaced: string;
}

/** Keeps what `result` says of the write in the grant's private state. */
export function rememberWrite(privateState: PrivateState, result: ChangeResult): void {
  privateState.set(WRITE_KEY, { etag: result.etag, replaced: result.replaced.join('') } satisfies WriteRecord);
}

/** Whether `policy` is a version the grant's own last write had already replaced. */
export function olderThanOwnWrite(privateState: PrivateState, policy: Policy): boolean {
  const record = privateState.get(WRITE_KEY) as Partial<WriteRecord> | undefined;
  if (typeof record?.replaced !== 'string' || !policy.etag || policy.etag === record.etag) return false;
  const digest = etagDigest(policy.etag);
  for (let i = 0; i < record.replaced.length; i += digest.length) {
    if (record.replaced.slice(i, i + digest.length) === digest) return true;
  }
  return false;
}
