import { BindingIdentity } from './identity';
import { checkPolicyLimits } from './limits';
import { comparisonKey, parseGrantPrincipal, samePrincipal } from './principal';
import { validateRole } from './role';
import type { AuditConfig, Binding, ConditionInput, Expr, Policy } from './types';

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
  | {
      readonly kind: 'removeBinding';
      readonly role: string;
      readonly condition?: EditCondition;
      /** Members the binding keeps (a grant elsewhere declares them): only the others are removed. @default - none */
      readonly except?: readonly string[];
    }
  | { readonly kind: 'replaceBindings'; readonly bindings: readonly EditBinding[] }
  | { readonly kind: 'replaceAuditConfigs'; readonly auditConfigs: readonly AuditConfig[] };

/** A binding as a `replaceBindings` edit declares it. */
export interface EditBinding {
  readonly role: string;
  readonly members: readonly string[];
  readonly condition?: EditCondition;
}

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
 * the others; `removeBinding` drops all (but for the members it keeps,
 * `except`). A binding left without members is dropped.
 *
 * Version: see `resultVersion`.
 */
export function applyEdit(policy: Policy, edit: PolicyEdit): Policy {
  const bindings = policy.bindings ?? [];
  switch (edit.kind) {
    case 'replaceBindings':
      return withBindings(policy, replaceBindings(bindings, edit.bindings));
    case 'replaceAuditConfigs':
      return { ...policy, auditConfigs: edit.auditConfigs.map((config) => ({ ...config })) };
    default:
  }
  const identity = BindingIdentity.of(edit.role, edit.condition);
  const matches = (binding: Binding): boolean => identity.matches(binding);
  validateRole(edit.role, 'role');

  switch (edit.kind) {
    case 'addMember': {
      parseGrantPrincipal(edit.member, 'member');
      if (bindings.some((b) => matches(b) && includesMember(b, edit.member))) return withBindings(policy, bindings);
      const first = bindings.findIndex(matches);
      if (first < 0) return withBindings(policy, [...bindings, newBinding(edit.role, [edit.member], edit.condition)]);
      return withBindings(
        policy,
        bindings.map((b, i) => (i === first ? { ...b, members: [...(b.members ?? []), edit.member] } : b)),
      );
    }
    case 'removeMember':
      return withBindings(
        policy,
        bindings
          .map((b) => (matches(b) ? { ...b, members: (b.members ?? []).filter((m) => !samePrincipal(m, edit.member)) } : b))
          .filter((b) => !matches(b) || hasMembers(b)),
      );
    case 'setBinding':
      return withBindings(policy, setBinding(bindings, edit.role, edit.members, edit.condition));
    case 'removeBinding': {
      const kept = new Set((edit.except ?? []).map(comparisonKey));
      if (kept.size === 0)
        return withBindings(
          policy,
          bindings.filter((b) => !matches(b)),
        );
      return withBindings(
        policy,
        bindings
          .map((b) => (matches(b) ? { ...b, members: (b.members ?? []).filter((m) => kept.has(comparisonKey(m))) } : b))
          .filter((b) => !matches(b) || hasMembers(b)),
      );
    }
  }
}

/**
 * Applies the edits in order, then drops every binding left without members
 * (Google requires at least one principal per binding) and checks Google's
 * per-policy limits once on the result, so nothing over the limits is ever written.
 */
export function applyEdits(policy: Policy, edits: readonly PolicyEdit[]): Policy {
  const edited = edits.reduce(applyEdit, policy);
  const result = (edited.bindings ?? []).some((b) => !hasMembers(b)) ? withBindings(edited, edited.bindings!.filter(hasMembers)) : edited;
  checkPolicyLimits(result);
  return result;
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

/** The members of role + condition become exactly `members` (in the first matching binding; other matches are dropped). */
function setBinding(
  bindings: readonly Binding[],
  role: string,
  members: readonly string[],
  condition: EditCondition | undefined,
  field = 'members',
): Binding[] {
  const identity = BindingIdentity.of(role, condition);
  const matches = (binding: Binding): boolean => identity.matches(binding);
  const distinct = distinctMembers(members, field);
  const first = bindings.findIndex(matches);
  const kept = bindings.filter((b, i) => !matches(b) || i === first);
  if (distinct.length === 0) return kept.filter((b) => !matches(b));
  if (first < 0) return [...kept, newBinding(role, distinct, condition)];
  return kept.map((b) => (matches(b) ? { ...b, members: distinct } : b));
}

/**
 * The bindings become exactly `declared`: a declared binding that exists keeps
 * its place (and fields this library does not know) with the declared members;
 * a new one is appended; every other binding is dropped.
 */
function replaceBindings(bindings: readonly Binding[], declared: readonly EditBinding[]): Binding[] {
  const declaredKeys = new Set(
    declared.map((b, i) => {
      validateRole(b.role, `bindings[${i}].role`);
      return BindingIdentity.ofBinding(b).key;
    }),
  );
  let result: Binding[] = bindings.filter((b) => declaredKeys.has(BindingIdentity.ofBinding(b).key));
  declared.forEach((b, i) => {
    result = setBinding(result, b.role, b.members, b.condition, `bindings[${i}].members`);
  });
  return result;
}

function newBinding(role: string, members: readonly string[], condition?: EditCondition): Binding {
  return condition === undefined ? { role, members } : { role, members, condition: { ...condition } };
}

function includesMember(binding: Binding, member: string): boolean {
  return (binding.members ?? []).some((m) => samePrincipal(m, member));
}

function hasMembers(binding: Binding): boolean {
  return (binding.members ?? []).length > 0;
}

/** Validates the members to write and drops repeats (first spelling wins). */
function distinctMembers(members: readonly string[], field = 'members'): readonly string[] {
  const seen = new Set<string>();
  return members.filter((member, i) => {
    const key = parseGrantPrincipal(member, `${field}[${i}]`).key;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
