import { BindingIdentity } from './identity';
import { checkPolicyLimits } from './limits';
import { comparisonKey, parseGrantPrincipal } from './principal';
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
  | { readonly kind: 'replaceAuditConfigs'; readonly auditConfigs: readonly AuditConfig[] }
  | {
      /** The principal holds exactly these roles (and conditions) on the policy: taken out of every other binding, added to these. */
      readonly kind: 'setMemberRoles';
      readonly member: string;
      readonly roles: readonly EditRole[];
    };

/** A binding as a `replaceBindings` edit declares it. */
export interface EditBinding {
  readonly role: string;
  readonly members: readonly string[];
  readonly condition?: EditCondition;
}

/** A role as a `setMemberRoles` edit declares it. */
export interface EditRole {
  readonly role: string;
  readonly condition?: EditCondition;
}

/** The policy version that can carry conditional bindings. */
export const CONDITIONAL_POLICY_VERSION = 3;

/**
 * Applies one edit and returns a new policy; the input is never mutated.
 *
 * Everything the edit does not address is kept as it was: other bindings,
 * their order, audit configs, the etag and fields this library does not know.
 * Members are compared as Google compares principals (emails
 * case-insensitively); existing members keep their order and spelling, new
 * ones are appended.
 *
 * Google may return two bindings with the same identity. Then a member found
 * in any of them is present; `addMember` appends to the first; `removeMember`
 * removes from all; `setBinding` writes the members into the first and drops
 * the others; `removeBinding` drops all (but for the members it keeps,
 * `except`). A binding left without members by a removal is dropped.
 *
 * Version: see `resultVersion`.
 */
export function applyEdit(policy: Policy, edit: PolicyEdit): Policy {
  const draft = new PolicyDraft(policy);
  draft.apply(edit);
  return draft.result(false);
}

/**
 * Applies the edits in order, then drops every binding left without members
 * (Google requires at least one principal per binding) and checks Google's
 * per-policy limits once on the result, so nothing over the limits is ever written.
 * The policy is edited in one working copy: a thousand edits of a binding of
 * a thousand members cost about a thousand steps, not a million.
 */
export function applyEdits(policy: Policy, edits: readonly PolicyEdit[]): Policy {
  let result = policy;
  if (edits.length > 0) {
    const draft = new PolicyDraft(policy);
    for (const edit of edits) draft.apply(edit);
    result = draft.result(true);
  } else if ((policy.bindings ?? []).some((b) => !hasMembers(b))) {
    result = { ...policy, bindings: policy.bindings!.filter(hasMembers) };
  }
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

/** One binding while a policy is edited: where it came from, and its members now. */
interface DraftBinding {
  /** The binding as read (its fields this library does not know are kept), or as an edit made it. */
  readonly source: Binding;
  readonly identity: string;
  members: string[];
  /** The comparison keys of `members`. */
  keys: Set<string>;
  changed: boolean;
  dropped: boolean;
}

/** A policy being edited in place (applyEdit, applyEdits): the bindings by identity, members by comparison key. */
class PolicyDraft {
  private readonly bindings: DraftBinding[];
  private readonly byIdentity = new Map<string, DraftBinding[]>();
  private auditConfigs?: AuditConfig[];
  /** Whether a binding with a condition was there at any point: the result is then version 3. */
  private conditional: boolean;

  constructor(private readonly policy: Policy) {
    this.bindings = (policy.bindings ?? []).map((binding) => this.track(binding, [...(binding.members ?? [])], false));
    this.conditional = (policy.bindings ?? []).some((b) => b.condition !== undefined);
  }

  public apply(edit: PolicyEdit): void {
    switch (edit.kind) {
      case 'replaceBindings':
        this.replaceBindings(edit.bindings);
        return;
      case 'replaceAuditConfigs':
        this.auditConfigs = edit.auditConfigs.map((config) => ({ ...config }));
        return;
      case 'setMemberRoles':
        this.setMemberRoles(edit.member, edit.roles);
        return;
      default:
    }
    validateRole(edit.role, 'role');
    const identity = BindingIdentity.of(edit.role, edit.condition).key;
    switch (edit.kind) {
      case 'addMember':
        parseGrantPrincipal(edit.member, 'member');
        this.addMember(identity, edit.role, edit.member, edit.condition);
        return;
      case 'removeMember': {
        const key = comparisonKey(edit.member);
        this.keepOnly(identity, (memberKey) => memberKey !== key);
        return;
      }
      case 'setBinding':
        this.setBinding(identity, edit.role, edit.members, edit.condition, 'members');
        return;
      case 'removeBinding': {
        const kept = new Set((edit.except ?? []).map(comparisonKey));
        this.keepOnly(identity, (memberKey) => kept.has(memberKey));
        return;
      }
    }
  }

  /** The edited policy; `dropEmpty`: also without the bindings that came without members. */
  public result(dropEmpty: boolean): Policy {
    const bindings = this.bindings
      .filter((b) => !b.dropped && (!dropEmpty || b.members.length > 0))
      .map((b) => (b.changed ? { ...b.source, members: b.members } : b.source));
    const version = this.conditional ? Math.max(this.policy.version ?? 0, CONDITIONAL_POLICY_VERSION) : this.policy.version;
    // An absent bindings list stays absent when the edits leave it empty.
    const keepAbsent = this.policy.bindings === undefined && bindings.length === 0;
    return {
      ...this.policy,
      ...(version === undefined ? {} : { version }),
      ...(keepAbsent ? {} : { bindings }),
      ...(this.auditConfigs ? { auditConfigs: this.auditConfigs } : {}),
    };
  }

  private track(source: Binding, members: string[], changed: boolean): DraftBinding {
    const entry: DraftBinding = {
      source,
      identity: BindingIdentity.ofBinding(source).key,
      members,
      keys: new Set(members.map(comparisonKey)),
      changed,
      dropped: false,
    };
    const same = this.byIdentity.get(entry.identity) ?? [];
    same.push(entry);
    this.byIdentity.set(entry.identity, same);
    return entry;
  }

  /** The bindings with this identity that are still there, in policy order. */
  private live(identity: string): DraftBinding[] {
    return (this.byIdentity.get(identity) ?? []).filter((b) => !b.dropped);
  }

  private append(role: string, members: string[], condition: EditCondition | undefined): void {
    const source: Binding = condition === undefined ? { role, members } : { role, members, condition: { ...condition } };
    if (condition !== undefined) this.conditional = true;
    this.bindings.push(this.track(source, members, true));
  }

  private addMember(identity: string, role: string, member: string, condition: EditCondition | undefined): void {
    const matching = this.live(identity);
    const key = comparisonKey(member);
    if (matching.some((b) => b.keys.has(key))) return;
    if (matching.length === 0) {
      this.append(role, [member], condition);
      return;
    }
    const first = matching[0];
    first.members = [...first.members, member];
    first.keys.add(key);
    first.changed = true;
  }

  /** Keeps, in every binding with this identity, the members `keep` accepts; a binding left empty is dropped. */
  private keepOnly(identity: string, keep: (memberKey: string) => boolean): void {
    for (const binding of this.live(identity)) {
      const members = binding.members.filter((m) => keep(comparisonKey(m)));
      if (members.length !== binding.members.length) {
        binding.members = members;
        binding.keys = new Set(members.map(comparisonKey));
        binding.changed = true;
      }
      if (members.length === 0) binding.dropped = true;
    }
  }

  /** The members of role + condition become exactly `members` (in the first matching binding; other matches are dropped). */
  private setBinding(
    identity: string,
    role: string,
    members: readonly string[],
    condition: EditCondition | undefined,
    field: string,
  ): void {
    const distinct = distinctMembers(members, field);
    const [first, ...others] = this.live(identity);
    for (const other of others) other.dropped = true;
    if (distinct.length === 0) {
      if (first) first.dropped = true;
      return;
    }
    if (!first) {
      this.append(role, [...distinct], condition);
      return;
    }
    first.members = [...distinct];
    first.keys = new Set(distinct.map(comparisonKey));
    first.changed = true;
  }

  /**
   * The bindings become exactly `declared`: a declared binding that exists keeps
   * its place (and fields this library does not know) with the declared members;
   * a new one is appended; every other binding is dropped.
   */
  private replaceBindings(declared: readonly EditBinding[]): void {
    const declaredKeys = new Set(
      declared.map((b, i) => {
        validateRole(b.role, `bindings[${i}].role`);
        return BindingIdentity.ofBinding(b).key;
      }),
    );
    for (const binding of this.bindings) if (!declaredKeys.has(binding.identity)) binding.dropped = true;
    declared.forEach((b, i) => {
      this.setBinding(BindingIdentity.ofBinding(b).key, b.role, b.members, b.condition, `bindings[${i}].members`);
    });
  }

  private setMemberRoles(member: string, roles: readonly EditRole[]): void {
    parseGrantPrincipal(member, 'member');
    const identities = roles.map((r, i) => {
      validateRole(r.role, `roles[${i}].role`);
      return BindingIdentity.of(r.role, r.condition).key;
    });
    const declared = new Set(identities);
    const key = comparisonKey(member);
    for (const binding of this.bindings) {
      if (binding.dropped || declared.has(binding.identity) || !binding.keys.has(key)) continue;
      this.keepOnly(binding.identity, (memberKey) => memberKey !== key);
    }
    roles.forEach((r, i) => this.addMember(identities[i], r.role, member, r.condition));
  }
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
