import { decodeCty, encodeCty, type CtyObject, type CtyType } from '../framework/cty';
import type { PrivateState } from '../framework/private-state';
import { isOutcomeUnknown } from '../errors';

/** The private state's key of the pending values: the planned state, msgpack-encoded cty as Terraform's own values, in base64. */
const PENDING = 'pending';

/**
 * What Terraform keeps of a grant whose write failed: one rule for every
 * kind, so that Terraform never forgets a grant Google may hold.
 *
 * - Google answered (refused, or a rule of this provider refused before
 *   sending): nothing was written. A create leaves no state (the next apply
 *   creates again); an update leaves the state from before it.
 * - The outcome is unknown (a write was sent, its answer lost, and no later
 *   write confirmed it): Google may hold the change or not.
 *   - A create returns its planned values with the error: Terraform keeps the
 *     object, tainted, so the next apply replaces it (revoke, then grant) and
 *     a destroy revokes it.
 *   - An update returns the state from before it, and keeps its planned
 *     values in the private state (`pending`): what it was revoking stays in
 *     the state (a non-authoritative kind's refresh never reports a grant
 *     Google holds beyond its own, so planned values alone would forget it),
 *     what it was granting is remembered. The next refresh takes the pending
 *     values as the state when Google shows the old grant gone and the new one
 *     held (the write went through); otherwise the next plan shows the update
 *     again. Every later write of the grant also revokes what the pending
 *     values grant and the new ones do not, and a delete revokes both; the
 *     next write that succeeds forgets them.
 * - A delete that fails keeps the object in the state whatever the outcome
 *   (the protocol layer, rpc/apply-resource-change.ts).
 */
export function keptAfterFailedWrite(
  operation: 'create' | 'update',
  error: unknown,
  values: { readonly prior: CtyObject | null; readonly planned: CtyObject },
  privateState: PrivateState,
  type: CtyType,
): CtyObject | null {
  const unknown = isOutcomeUnknown(error);
  if (operation === 'create') return unknown ? { ...values.planned, etag: null } : null;
  if (unknown) privateState.set(PENDING, Buffer.from(encodeCty({ ...values.planned, etag: null }, type)).toString('base64'));
  return values.prior && (unknown ? { ...values.prior, etag: null } : values.prior);
}

/** The planned values of an update whose outcome is unknown, kept with the state; undefined when there are none. */
export function pendingValues(privateState: PrivateState, type: CtyType): CtyObject | undefined {
  const kept = privateState.get(PENDING);
  if (typeof kept !== 'string') return undefined;
  try {
    const value = decodeCty(Buffer.from(kept, 'base64'), type);
    return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Map)
      ? (value as CtyObject)
      : undefined;
  } catch {
    return undefined; // written by a version of the provider with another schema
  }
}

/** A write of the grant succeeded (or a refresh took the pending values as the state): nothing is pending any more. */
export function forgetPending(privateState: PrivateState): void {
  privateState.set(PENDING, undefined);
}
