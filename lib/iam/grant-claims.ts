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
  /** `duplicate`: the same member entry twice; `conflict`: something one of them owns. */
  readonly kind: 'duplicate' | 'conflict';
  /** What is owned: the whole policy, a principal's roles, a binding's member list; or the entry both grant. */
  readonly about: 'policy' | 'principal' | 'binding' | 'entry';
  /** Who owns it: the grant asked about (`mine`), the other (`theirs`), or each (two owners of one thing, or one entry twice). */
  readonly owner: 'mine' | 'theirs' | 'both';
  /** The claim of the grant asked about that the other contradicts (for the field a message names). */
  readonly claim: string;
  /** The grant both claim, as a message names it: `roles/x: user:a`, `user:a`, `the IAM policy of …`. */
  readonly grant: string;
  /** Why they cannot stand together: `one of them owns every role of user:a on this resource, …`. */
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
  const owned = ownedBy(theirs, mine, 'theirs') ?? ownedBy(mine, theirs, 'mine');
  if (owned) return owned;
  const claimed = new Set(theirs.claims);
  const twice = mine.claims.find((claim) => claim.startsWith('entry ') && claimed.has(claim));
  return twice === undefined
    ? undefined
    : { kind: 'duplicate', about: 'entry', owner: 'both', claim: twice, grant: mine.shown[twice], why: 'both grant it' };
}

/**
 * What `other` claims of what `owner` owns (its policy, a principal's roles,
 * a binding's member list), `side` saying which of the two asked about owns it.
 */
function ownedBy(owner: GrantClaims, other: GrantClaims, side: 'mine' | 'theirs'): ClaimOverlap | undefined {
  const claimed = new Set(other.claims);
  const seen = (mineClaim: string, otherClaim: string) => (side === 'mine' ? mineClaim : otherClaim);
  for (const claim of owner.claims) {
    const [kind, key] = parts(claim);
    if (kind === 'policy' && other.claims.length > 0) {
      return {
        kind: 'conflict',
        about: 'policy',
        owner: claimed.has('policy') ? 'both' : side,
        claim: seen(claim, other.claims[0]),
        grant: owner.shown.policy,
        why: `one of them owns ${owner.shown.policy} whole, and no other grant may stand beside it`,
      };
    }
    if (kind === 'principal' && claimed.has(`names ${key}`)) {
      const member = other.shown[`names ${key}`];
      return {
        kind: 'conflict',
        about: 'principal',
        owner: claimed.has(claim) ? 'both' : side,
        claim: seen(claim, `names ${key}`),
        grant: member,
        why: `one of them owns every role of ${member} on this resource, and the other names it too`,
      };
    }
    if (kind === 'binding') {
      const entry = other.claims.find((c) => c === claim || c.startsWith(`entry ${key} `));
      if (entry === claim) {
        const why = `both own the member list of ${owner.shown[claim]}`;
        return { kind: 'conflict', about: 'binding', owner: 'both', claim, grant: owner.shown[claim], why };
      }
      if (entry) {
        const why = `one of them owns the whole member list of ${owner.shown[claim]}`;
        return { kind: 'conflict', about: 'binding', owner: side, claim: seen(claim, entry), grant: other.shown[entry], why };
      }
    }
  }
  return undefined;
}

/**
 * The claims of many grants on one policy, indexed so that what contradicts
 * one grant is found among the few that claim something near it (a thousand
 * grants on one policy: a thousand look-ups, not half a million comparisons).
 * Grants are told apart by `id`; adding an id again replaces its claims.
 */
export class ClaimIndex<Id> {
  private readonly all = new Map<Id, GrantClaims>();
  /** Claim → the grants that make it. */
  private readonly byClaim = new Map<string, Set<Id>>();
  /** Binding key → the grants with an entry in it. */
  private readonly entriesOf = new Map<string, Set<Id>>();

  public add(id: Id, claims: GrantClaims): void {
    const before = this.all.get(id);
    if (before && sameClaims(before, claims)) {
      this.all.set(id, claims); // the same resource planned again (the usual case): nothing to index anew
      return;
    }
    if (before) for (const claim of before.claims) this.unindex(id, claim);
    this.all.set(id, claims);
    for (const claim of claims.claims) {
      put(this.byClaim, claim, id);
      const [kind, key] = parts(claim);
      if (kind === 'entry') put(this.entriesOf, bindingOfEntry(key), id);
    }
  }

  /** The grants added whose claims contradict `claims` (but `except`), each with the overlap seen from `claims`' side. */
  public overlapping(claims: GrantClaims, except?: Id): { readonly id: Id; readonly overlap: ClaimOverlap }[] {
    const near = new Set<Id>(this.byClaim.get('policy'));
    for (const claim of claims.claims) {
      const [kind, key] = parts(claim);
      const look = (...keys: string[]) => keys.forEach((k) => this.byClaim.get(k)?.forEach((id) => near.add(id)));
      if (kind === 'policy') this.all.forEach((_claims, id) => near.add(id));
      else if (kind === 'principal') look(`names ${key}`);
      else if (kind === 'names') look(`principal ${key}`);
      else if (kind === 'binding') {
        look(claim);
        this.entriesOf.get(key)?.forEach((id) => near.add(id));
      } else if (kind === 'entry') look(claim, `binding ${bindingOfEntry(key)}`);
    }
    if (except !== undefined) near.delete(except);
    const found: { id: Id; overlap: ClaimOverlap }[] = [];
    for (const id of near) {
      const overlap = claimOverlap(claims, this.all.get(id)!);
      if (overlap) found.push({ id, overlap });
    }
    return found;
  }

  private unindex(id: Id, claim: string): void {
    this.byClaim.get(claim)?.delete(id);
    const [kind, key] = parts(claim);
    if (kind === 'entry') this.entriesOf.get(bindingOfEntry(key))?.delete(id);
  }
}

function sameClaims(a: GrantClaims, b: GrantClaims): boolean {
  return a === b || (a.claims.length === b.claims.length && a.claims.every((claim, i) => claim === b.claims[i]));
}

function put<Id>(map: Map<string, Set<Id>>, key: string, id: Id): void {
  let ids = map.get(key);
  if (!ids) map.set(key, (ids = new Set()));
  ids.add(id);
}

/** The binding key of an entry's key (`<binding> <member>`: a member's comparison key holds no space). */
function bindingOfEntry(entryKey: string): string {
  return entryKey.slice(0, entryKey.lastIndexOf(' '));
}

/** A claim's kind and key (the rest: a binding key, `<binding> <member>`, or a member key). */
function parts(claim: string): [string, string] {
  const space = claim.indexOf(' ');
  return space < 0 ? [claim, ''] : [claim.slice(0, space), claim.slice(space + 1)];
}

function bindingShown(role: string, condition: ConditionIdentity | undefined): string {
  return `${role}${condition ? ` (condition ${JSON.stringify(condition.title ?? '')})` : ''}`;
}
