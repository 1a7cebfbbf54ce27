import type { Grant } from './grant';
import { BindingIdentity } from './identity';
import { comparisonKey } from './principal';
import type { Binding, ConditionInput, Expr, Policy } from './types';

/**
 * How a policy read from Google differs from what one grant declares, as
 * sentences (none when it holds). Only what the grant owns counts:
 * - a member grant: its principal missing from its role and condition;
 * - a binding: the binding gone, or principals missing or not declared;
 * - a policy: declared bindings gone or changed, bindings not declared.
 * Other roles, other members of roles only member grants touch, other
 * conditions and audit configs are never drift (a policy grant that declares
 * audit configs owns them, but they are not compared: Google may add
 * exemptions of its own).
 */
export function grantDrift(grant: Grant, policy: Policy): string[] {
  const bindings = policy.bindings ?? [];
  switch (grant.mode) {
    case 'member': {
      const members = membersOf(bindings, grant.role, grant.condition);
      return members.has(comparisonKey(grant.member)) ? [] : [`${grant.member} is missing`];
    }
    case 'binding':
      return bindingDrift(bindings, grant.role, grant.members, grant.condition, '');
    case 'policy': {
      const declared = new Set(grant.bindings.map((b) => BindingIdentity.ofBinding(b).key));
      const undeclared = bindings
        .filter((b) => !declared.has(BindingIdentity.ofBinding(b).key) && (b.members ?? []).length > 0)
        .map((b) => `binding ${describeBinding(b.role, b.condition)} is not declared (members: ${(b.members ?? []).join(', ')})`);
      const changed = grant.bindings.flatMap((b) =>
        bindingDrift(bindings, b.role, b.members, b.condition, `binding ${describeBinding(b.role, b.condition)}: `),
      );
      return [...changed, ...undeclared];
    }
  }
}

function bindingDrift(
  bindings: readonly Binding[],
  role: string,
  declared: readonly string[],
  condition: ConditionInput | Expr | undefined,
  prefix: string,
): string[] {
  const present = membersOf(bindings, role, condition);
  if (present.size === 0) return [`${prefix}the binding is gone (it should hold ${declared.join(', ')})`];
  const wanted = new Map(declared.map((m) => [comparisonKey(m), m]));
  const missing = [...wanted].filter(([key]) => !present.has(key)).map(([, m]) => m);
  const extra = [...present].filter(([key]) => !wanted.has(key)).map(([, m]) => m);
  return [
    ...(missing.length ? [`${prefix}${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`] : []),
    ...(extra.length ? [`${prefix}${extra.join(', ')} ${extra.length === 1 ? 'was' : 'were'} added outside this code`] : []),
  ];
}

/** The members of every binding with this role and condition (Google may return two), by comparison key. */
function membersOf(bindings: readonly Binding[], role: string, condition: ConditionInput | Expr | undefined): Map<string, string> {
  const identity = BindingIdentity.of(role, condition);
  const members = new Map<string, string>();
  for (const binding of bindings) {
    if (!identity.matches(binding)) continue;
    for (const member of binding.members ?? []) members.set(comparisonKey(member), member);
  }
  return members;
}

function describeBinding(role: string, condition: ConditionInput | Expr | undefined): string {
  return condition ? `${role} (condition ${JSON.stringify(condition.title ?? '')})` : role;
}
