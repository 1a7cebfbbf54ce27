import { BindingIdentity } from './identity';
import { comparisonKey } from './principal';
import type { Expr, Policy } from './types';

/** One principal in one binding (role and condition) of a policy. */
export interface PolicyMember {
  readonly role: string;
  readonly member: string;
  readonly condition?: Expr;
}

/** The principals `before` has in a binding and `after` no longer has there, in `before`'s order. */
export function removedMembers(before: Policy, after: Policy): PolicyMember[] {
  const kept = new Set<string>();
  for (const binding of after.bindings ?? []) {
    const identity = BindingIdentity.ofBinding(binding).key;
    for (const member of binding.members ?? []) kept.add(`${identity}\n${comparisonKey(member)}`);
  }
  const removed: PolicyMember[] = [];
  const seen = new Set<string>();
  for (const binding of before.bindings ?? []) {
    const identity = BindingIdentity.ofBinding(binding).key;
    for (const member of binding.members ?? []) {
      const key = `${identity}\n${comparisonKey(member)}`;
      if (kept.has(key) || seen.has(key)) continue;
      seen.add(key);
      removed.push({ role: binding.role, member, ...(binding.condition ? { condition: binding.condition } : {}) });
    }
  }
  return removed;
}

/**
 * One principal in one binding, for people: `roles/x: user:a@example.com`,
 * `roles/x (condition "title"): user:a@example.com` (plan warnings, errors
 * and the bulk kind's `missing_grants`).
 */
export function describePolicyMember(m: {
  readonly role: string;
  readonly member: string;
  readonly condition?: { readonly title?: string };
}): string {
  return `${m.role}${m.condition ? ` (condition ${JSON.stringify(m.condition.title ?? '')})` : ''}: ${m.member}`;
}
