import { conditionKey } from './condition';
import { checkPolicyLimits } from './limits';
import { parseGrantPrincipal, samePrincipal } from './principal';
import { validateRole } from './role';
import type { Binding, ConditionInput, Expr, Policy } from './types';

/** A condition as the user wrote it or as Google returned it. */
export type EditCondition = ConditionInput | Expr;

/**
 * One change to a policy. A binding is identified by role + condition
 * (title, description, expression); no condition is an identity of its own.
 */
export type PolicyEdit =
  | { readonly kind: 'addMember'; readonly role: string; readonly member: string; readonly condition?: EditCondition }
  | { readonly kind: 'removeMember'; readonly role: string; readonly member: string; readonly condition?: EditCondition }
  | { readonly kind: 'setBinding'; readonly role: string; readonly members: readonly string[]; readonly condition?: EditCondition }
  | { readonly kind: 'removeBinding'; readonly role: string; readonly condition?: EditCondition };

/** The policy version that can carry conditional bindings. */
export const CONDITIONAL_POLICY_VERSION = 3;

/**
 * Applies one edit and returns a new policy; the input is never mutated.
 *
 * Everything the edit does not address is kept as it was: other bindings,
 * their order, audit configs, the etag and fields this library does not know.
 * Members are compared with `samePrincipal` (emails case-insensitively);
 * existing members keep their order and spelling, new ones are appended.
 *
 * Google may return two bindings with the same identity. Then a member found
 * in any of them is present; `addMember` appends to the first; `removeMember`
 * removes from all; `setBinding` writes the members into the first and drops
 * the others; `removeBinding` drops all. A binding left without members is
 * dropped.
 *
 * Version: see `resultVersion`.
 */
export function applyEdit(policy: Policy, edit: PolicyEdit): Policy {
  const bindings = policy.bindings ?? [];
  const key = bindingKey(edit.role, edit.condition);
  const matches = (binding: Binding): boolean => bindingKey(binding.role, binding.condition) === key;
  validateRole(edit.role, 'role');

  switch (edit.kind) {
    case 'addMember': {
      parseGrantPrincipal(edit.member, 'member');
      if (bindings.some((b) => matches(b) && includesMember(b, edit.member))) return withBindings(policy, bindings);
      const first = bindings.findIndex(matches);
      if (first < 0) return withBindings(policy, [...bindings, newBinding(edit.role, [edit.member], edit.condition)]);
      return withBindings(policy, bindings.map((b, i) => (i === first ? { ...b, members: [...(b.members ?? []), edit.member] } : b)));
    }
    case 'removeMember':
      return withBindings(policy, bindings
        .map((b) => (matches(b) ? { ...b, members: (b.members ?? []).filter((m) => !samePrincipal(m, edit.member)) } : b))
        .filter((b) => !matches(b) || hasMembers(b)));
    case 'setBinding': {
      const members = distinctMembers(edit.members);
      const first = bindings.findIndex(matches);
      const kept = bindings.filter((b, i) => !matches(b) || i === first);
      if (members.length === 0) return withBindings(policy, kept.filter((b) => !matches(b)));
      if (first < 0) return withBindings(policy, [...kept, newBinding(edit.role, members, edit.condition)]);
      return withBindings(policy, kept.map((b) => (matches(b) ? { ...b, members } : b)));
    }
    case 'removeBinding':
      return withBindings(policy, bindings.filter((b) => !matches(b)));
  }
}

/**
 * Applies the edits in order, then checks Google's per-policy limits once on
 * the result, so nothing over the limits is ever written.
 */
export function applyEdits(policy: Policy, edits: readonly PolicyEdit[]): Policy {
  const result = edits.reduce(applyEdit, policy);
  checkPolicyLimits(result);
  return result;
}

/** The first binding with this role and condition. */
export function findBinding(policy: Policy, role: string, condition?: EditCondition): Binding | undefined {
  const key = bindingKey(role, condition);
  return (policy.bindings ?? []).find((b) => bindingKey(b.role, b.condition) === key);
}

/** True when a binding with this role and condition holds the member. */
export function hasMember(policy: Policy, role: string, member: string, condition?: EditCondition): boolean {
  const key = bindingKey(role, condition);
  return (policy.bindings ?? []).some((b) => bindingKey(b.role, b.condition) === key && includesMember(b, member));
}

/**
 * The version of an edited policy: 3 when a binding had or has a condition
 * (Google requires 3 for any change to a policy with conditions, including
 * removing the last conditional binding); otherwise the version read, or none
 * when none was read. A version is never lowered.
 */
export function resultVersion(before: Policy, after: readonly Binding[]): number | undefined {
  const conditional = [...(before.bindings ?? []), ...after].some((b) => b.condition !== undefined);
  if (!conditional) return before.version;
  return Math.max(before.version ?? 0, CONDITIONAL_POLICY_VERSION);
}

function withBindings(policy: Policy, bindings: readonly Binding[]): Policy {
  const version = resultVersion(policy, bindings);
  // An absent bindings list stays absent when the edit leaves it empty.
  const keepAbsent = policy.bindings === undefined && bindings.length === 0;
  return { ...policy, ...(version === undefined ? {} : { version }), ...(keepAbsent ? {} : { bindings }) };
}

function newBinding(role: string, members: readonly string[], condition?: EditCondition): Binding {
  return condition === undefined ? { role, members } : { role, members, condition: { ...condition } };
}

function bindingKey(role: string, condition?: EditCondition): string {
  return `${role}\n${conditionKey(condition)}`;
}

function includesMember(binding: Binding, member: string): boolean {
  return (binding.members ?? []).some((m) => samePrincipal(m, member));
}

function hasMembers(binding: Binding): boolean {
  return (binding.members ?? []).length > 0;
}

/** Validates the members to write and drops repeats (first spelling wins). */
function distinctMembers(members: readonly string[]): readonly string[] {
  const seen = new Set<string>();
  return members.filter((member, i) => {
    const key = parseGrantPrincipal(member, `members[${i}]`).key;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
