import { IamValidationError } from './errors';
import { formatCount } from './format';
import type { Policy } from './types';

/** Principals per policy; every occurrence counts, audit-config exemptions too. */
export const MAX_PRINCIPALS = 1500;
/** Of those, `group:` and `domain:` principals. */
export const MAX_GROUP_PRINCIPALS = 250;
/** `&&` and `||` in one condition expression. */
export const MAX_LOGICAL_OPERATORS = 12;
/** Values in the list of a condition's `hasOnly()` (Google's policy linter, HasOnlyListLengthCheck). */
export const MAX_HAS_ONLY_VALUES = 10;

/** Principals in a policy, as Google counts them against its limits. */
export interface PrincipalCount {
  readonly principals: number;
  readonly groups: number;
}

/**
 * Counts principals as Google does: each occurrence in any binding and in any
 * audit-config exemption list. Works on the raw strings (no parsing) so that a
 * policy read from Google with a form this library does not know still counts.
 */
export function countPrincipals(policy: Policy): PrincipalCount {
  const all = [...bindingMembers(policy), ...exemptedMembers(policy)];
  return { principals: all.length, groups: all.filter(isGroupOrDomain).length };
}

/**
 * Throws when the policy is over one of Google's per-policy limits. The
 * error's value is the principals that count against the limit (a message
 * shows the first few of them).
 */
export function checkPolicyLimits(policy: Policy, field = 'policy'): void {
  const all = [...bindingMembers(policy), ...exemptedMembers(policy)];
  if (all.length > MAX_PRINCIPALS) {
    throw new IamValidationError(
      field,
      all,
      `policy would hold ${formatCount(all.length)} principals; Google allows at most ${formatCount(MAX_PRINCIPALS)}`,
    );
  }
  const groups = all.filter(isGroupOrDomain);
  if (groups.length > MAX_GROUP_PRINCIPALS) {
    throw new IamValidationError(
      field,
      groups,
      `policy would hold ${formatCount(groups.length)} groups and domains; Google allows at most ${formatCount(MAX_GROUP_PRINCIPALS)}`,
    );
  }
}

function bindingMembers(policy: Policy): readonly string[] {
  return (policy.bindings ?? []).flatMap((binding) => binding.members ?? []);
}

function exemptedMembers(policy: Policy): readonly string[] {
  return (policy.auditConfigs ?? [])
    .flatMap((config) => config.auditLogConfigs ?? [])
    .flatMap((logConfig) => logConfig.exemptedMembers ?? []);
}

/** `deleted:group:…` still occupies a group slot until Google purges it. */
function isGroupOrDomain(member: string): boolean {
  const live = member.startsWith('deleted:') ? member.slice('deleted:'.length) : member;
  return live.startsWith('group:') || live.startsWith('domain:');
}
