import { shortDigest } from '../../iam/digest';
import { grantedBindings, type Grant } from '../../iam/grant';
import { BindingIdentity, type ConditionIdentity } from '../../iam/identity';
import { comparisonKey } from '../../iam/principal';
import type { PrivateState } from '../framework/private-state';

/**
 * What an authoritative grant's configuration held at its last apply, as its
 * private state remembers it: a digest of each (binding, principal) pair. A
 * plan gets the refreshed state, which holds whatever Google holds (a member
 * added in the console included), so only this tells a member the user took
 * out of the configuration (no warning: removing it is what they asked) from
 * one the configuration never listed (the plan warns that the apply removes
 * it). Written by each successful create and update; an imported grant, or
 * one applied by an earlier version, remembers nothing, and its plan warns of
 * every member it removes.
 */
const KEY = 'lastApplied';

/** Hex digits per pair: a chance of about 1 in 16 million that a foreign member passes for a listed one. */
const DIGITS = 6;

/** One principal in one binding (role + condition), as Google compares them. */
export function grantPairKey(role: string, condition: ConditionIdentity | undefined, member: string): string {
  return shortDigest(`${BindingIdentity.of(role, condition).key}\n${comparisonKey(member)}`, DIGITS);
}

/** The pairs `grant` gives. */
function pairsOf(grant: Grant): string[] {
  return grantedBindings(grant).flatMap((b) => b.members.map((member) => grantPairKey(b.role, b.condition, member)));
}

/** A successful write of `grant`: what the configuration declares now. */
export function rememberLastApplied(privateState: PrivateState, grant: Grant): void {
  privateState.set(KEY, pairsOf(grant).join(''));
}

/** The pairs the configuration held at the last apply (none remembered: none). */
export function lastAppliedPairs(privateState: PrivateState): Set<string> {
  const kept = privateState.get(KEY);
  const pairs = new Set<string>();
  if (typeof kept !== 'string') return pairs;
  for (let i = 0; i < kept.length; i += DIGITS) pairs.add(kept.slice(i, i + DIGITS));
  return pairs;
}

/** A grant moved from another of this provider's types (MoveResourceState): what its configuration held stays remembered. */
export function carryLastApplied(from: PrivateState, to: PrivateState): void {
  to.set(KEY, from.get(KEY));
}
