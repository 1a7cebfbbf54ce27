import type { Grant } from './grant';
import { BindingIdentity, type ConditionIdentity } from './identity';
import { describePolicyMember } from './policy-diff';
import { comparisonKey } from './principal';

/**
 * Which grants can stand together on one policy. Each kind of grant claims
 * something of the policy: a policy grant all of it, a binding grant one
 * binding's member list, a principal's roles (member roles) every binding of
 * that principal, a member grant or bulk entry one principal in one binding.
 * Two grants whose claims contradict each other cannot both hold: each apply
 * of one undoes the other, and which wins depends on the order Terraform
 * sends them in. The same member entry granted by two grants is refused
 * too: deleting either would revoke it for both.
 *
 * A claim is a string, so a set of them can be compared, kept and sent
 * between processes as it is (lib/contract run-declaration.ts):
 * `policy`; `binding <b>` (the binding's key); `entry <b> <m>` (and the
 * principal's comparison key); `principal <m>` (owns the principal's roles);
 * `names <m>` (the grant names the principal, in any kind).
 */
export interface GrantClaims {
  readonly claims: readonly string[];
  /** How each claim reads in a message (`roles/x: user:a`, `the roles of user:a`). */
  readonly shown: Readonly<Record<string, string>>;
}

/** What two grants on one policy claim that cannot stand together. */
export interface ClaimOverlap {
  /** `duplicate`: the same member entry twice; `conflict`: a grant another owns. */
  readonly kind: 'duplicate' | 'conflict';
  /** The grant both claim, as a message names it: `roles/x: user:a`. */
  readonly grant: string;
  /** What the other grant claims of it: `owns the whole policy`, `owns the member list of roles/x`, … */
  readonly why: string;
}

/** The claims of `grant` on its policy (its known values: the validators have checked them). */
export function claimsOf(grant: Grant): GrantClaims {
  const claims = new Map<string, string>();
  const binding = (role: string, condition: ConditionIdentity | undefined) => BindingIdentity.of(role, condition).key;
  const named = (member: string) => claims.set(`names ${comparisonKey(member)}`, member);
  const entry = (role: string, member: string, condition: ConditionIdentity | undefined) => {
    claims.set(`entry ${binding(role, condition)} ${comparisonKey(member)}`, describePolicyMember({ role, member, condition }));
    named(member);
  };
  const owned = (role: string, condition: ConditionIdentity | undefined, members: readonly string[]) => {
    claims.set(`binding ${binding(role, condition)}`, bindingShown(role, condition));
    members.forEach(named);
  };
  switch (grant.mode) {
    case 'member':
      entry(grant.role, grant.member, grant.condition);
      break;
    case 'members':
      for (const e of grant.grants) entry(e.role, e.member, e.condition);
      break;
    case 'binding':
      owned(grant.role, grant.condition, grant.members);
      break;
    case 'policy':
      claims.set('policy', `the IAM policy of ${grant.resource.name}`);
      for (const b of grant.bindings) owned(b.role, b.condition, b.members);
      break;
    case 'memberRoles':
      claims.set(`principal ${comparisonKey(grant.member)}`, `the roles of ${grant.member}`);
      for (const role of grant.roles) entry(role.role, grant.member, role.condition);
      named(grant.member);
      break;
  }
  return { claims: [...claims.keys()], shown: Object.fromEntries(claims) };
}

/**
 * What `mine` and `theirs` (two grants' claims on one policy) claim that
 * cannot stand together, or undefined when they can. An ownership (of the
 * policy, of a principal's roles, of a binding's member list) is named before
 * a duplicate entry: it says what to change.
 */
export function claimOverlap(mine: GrantClaims, theirs: GrantClaims): ClaimOverlap | undefined {
  return ownedBy(theirs, mine) ?? ownedBy(mine, theirs) ?? duplicate(mine, theirs);
}

/** What `other` claims of what `owner` owns: its policy, a principal's roles, a binding's member list. */
function ownedBy(owner: GrantClaims, other: GrantClaims): ClaimOverlap | undefined {
  const claimed = new Set(other.claims);
  for (const claim of owner.claims) {
    const [kind, key] = parts(claim);
    if (kind === 'policy' && other.claims.length > 0) {
      return {
        kind: 'conflict',
        grant: owner.shown.policy,
        why: `one of them owns ${owner.shown.policy} whole, and no other grant may stand beside it`,
      };
    }
    if (kind === 'principal' && claimed.has(`names ${key}`)) {
      const member = other.shown[`names ${key}`];
      return {
        kind: 'conflict',
        grant: member,
        why: `one of them owns every role of ${member} on this resource, and the other names it too`,
      };
    }
    if (kind === 'binding') {
      const entry = other.claims.find((c) => c === claim || c.startsWith(`entry ${key} `));
      if (entry === claim) return { kind: 'conflict', grant: owner.shown[claim], why: `both own the member list of ${owner.shown[claim]}` };
      if (entry)
        return { kind: 'conflict', grant: other.shown[entry], why: `one of them owns the whole member list of ${owner.shown[claim]}` };
    }
  }
  return undefined;
}

/** The same member entry in both. */
function duplicate(mine: GrantClaims, theirs: GrantClaims): ClaimOverlap | undefined {
  const claimed = new Set(theirs.claims);
  const twice = mine.claims.find((claim) => claim.startsWith('entry ') && claimed.has(claim));
  return twice === undefined ? undefined : { kind: 'duplicate', grant: mine.shown[twice], why: 'both grant it' };
}

/** A claim's kind and key (the rest: a binding key, `<binding> <member>`, or a member key). */
function parts(claim: string): [string, string] {
  const space = claim.indexOf(' ');
  return space < 0 ? [claim, ''] : [claim.slice(0, space), claim.slice(space + 1)];
}

function bindingShown(role: string, condition: ConditionIdentity | undefined): string {
  return `${role}${condition ? ` (condition ${JSON.stringify(condition.title ?? '')})` : ''}`;
}
