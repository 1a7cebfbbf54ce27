import { decodeCty, encodeCty, type CtyObject, type CtyType } from '../framework/cty';
import type { PrivateState } from '../framework/private-state';
import { isOutcomeUnknown } from '../errors';
import { OWN_WRITE_MEMORY_MS } from './own-writes';

/** The private state's key of the pending values: the planned state, msgpack-encoded cty as Terraform's own values, in base64. */
const PENDING = 'pending';
/** The private state's key of when the last write's outcome was found unknown (seconds since the epoch, base 36). */
const UNSETTLED = 'unsettled';

/** How long after a write whose outcome is unknown a refresh never lets a read narrow the state (as own-writes.ts's memory). */
export const UNSETTLED_MEMORY_MS = OWN_WRITE_MEMORY_MS;

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
 *   - Either way the object is unsettled until a write of it succeeds (or a
 *     refresh adopts the pending values): every plan writes it again, and a
 *     refresh soon after never drops or narrows it, whatever a read answers.
 *     A read lagging behind that write looks as if the write never happened,
 *     and a read lagging further back than anything the process saw cannot
 *     be told from an edit in Google, so only a write settles it.
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
  if (unknown) privateState.set(UNSETTLED, Math.round(Date.now() / 1000).toString(36));
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

/** A write of the grant succeeded (or a refresh took the pending values as the state): nothing is pending or unsettled any more. */
export function markSettled(privateState: PrivateState): void {
  privateState.set(PENDING, undefined);
  privateState.set(UNSETTLED, undefined);
}

/** Whether the grant's last write had an unknown outcome that no write since has settled. */
export function unsettled(privateState: PrivateState): boolean {
  return typeof privateState.get(UNSETTLED) === 'string';
}

/** Whether that write was within UNSETTLED_MEMORY_MS: a refresh then keeps what a read would narrow. */
export function unsettledRecently(privateState: PrivateState, now = Date.now()): boolean {
  const at = privateState.get(UNSETTLED);
  return typeof at === 'string' && now - parseInt(at, 36) * 1000 <= UNSETTLED_MEMORY_MS;
}
