import { Annotations, TerraformStack } from 'cdktf';
import type { IConstruct } from 'constructs';
import { entryGrant, grantKey, grantMembers, type Grant } from '../iam/grant';
import { ClaimIndex, claimsOf } from '../iam/grant-claims';
import { PolicyIdentity } from '../iam/identity';
import { MAX_GROUP_PRINCIPALS, MAX_PRINCIPALS } from '../iam/limits';
import { parsePrincipal } from '../iam/principal';
import { validationMessage } from '../synth/errors';
import { holdsTokens } from '../synth/known-values';

/** What the app-wide checks need to know about one grant. */
export interface RegisteredGrant {
  readonly construct: IConstruct;
  readonly typeName: string;
  readonly grant: Grant;
}

interface PolicyTally {
  principals: number;
  groups: number;
  principalsCrossedBy?: RegisteredGrant;
  groupsCrossedBy?: RegisteredGrant;
}

const registries = new WeakMap<IConstruct, GrantRegistry>();

/**
 * All grants of one app, for the checks no single grant can make:
 * - which grants can stand together on one policy (lib/iam grant-claims.ts,
 *   the rule the provider's plan applies too): a policy grant owns its
 *   policy, a binding grant its binding's member list, a principal's roles
 *   every binding of that principal, so no other grant may claim what one of
 *   them owns (each apply of one would undo the other); one declaration per
 *   member entry in a stack (each is a resource of the provider: deleting
 *   either would revoke what the other declares), and a warning when two
 *   stacks grant the same entry: deleting it from either revokes it for both;
 * - the principal limits per policy, summed over the app.
 * Grants holding values that are still tokens at synth are left out.
 */
export class GrantRegistry {
  public static of(scope: IConstruct): GrantRegistry {
    const root = scope.node.root;
    let registry = registries.get(root);
    if (!registry) {
      registry = new GrantRegistry();
      registries.set(root, registry);
    }
    return registry;
  }

  private readonly grants: RegisteredGrant[] = [];
  /** What each grant claims (lib/iam grant-claims.ts), by policy: the one rule of which grants can stand together. */
  private readonly claims = new Map<string, ClaimIndex<RegisteredGrant>>();
  /** When each grant was registered: of two that claim one thing as owners (or one entry twice), the later is told. */
  private readonly order = new Map<RegisteredGrant, number>();
  private tallies?: Map<string, PolicyTally>;

  private constructor() {}

  /** Registers `grant` and attaches its app-wide checks to its construct. */
  public register(entry: RegisteredGrant): void {
    this.grants.push(entry);
    this.tallies = undefined;
    if (holdsTokens(entry.grant)) return;
    const policy = PolicyIdentity.of(entry.grant.resource).key;
    let index = this.claims.get(policy);
    if (!index) this.claims.set(policy, (index = new ClaimIndex()));
    index.add(entry, claimsOf(entry.grant));
    this.order.set(entry, this.order.size);
    entry.construct.node.addValidation({ validate: () => this.validate(entry) });
  }

  private validate(entry: RegisteredGrant): string[] {
    return [...this.overlaps(entry), ...this.limits(entry)];
  }

  /**
   * What `entry` claims that another grant of the app contradicts: each
   * apply of one would undo the other (a grant the other owns), or deleting
   * either would revoke it (the same member entry twice). Told to the grant
   * that does not own what they share, or the later of two owners; the same
   * entry in two stacks is a warning on the later (each stack holds it).
   */
  private overlaps(entry: RegisteredGrant): string[] {
    const { grant, construct } = entry;
    const policy = PolicyIdentity.of(grant.resource).key;
    const later = (other: RegisteredGrant) => this.order.get(entry)! > this.order.get(other)!;
    const found = this.claims
      .get(policy)!
      .overlapping(claimsOf(grant), entry)
      .filter(({ id, overlap }) => overlap.owner === 'theirs' || (overlap.owner === 'both' && later(id)));
    for (const { id: other, overlap } of found) {
      const by = `${other.construct.node.path} (${other.typeName})`;
      const on = grant.resource.name;
      const undo = 'so each apply of one would undo the other';
      if (overlap.about === 'entry') {
        const field = entryField(grant, overlap.claim);
        if (TerraformStack.of(other.construct) !== TerraformStack.of(construct)) {
          Annotations.of(construct).addWarning(
            `${other.construct.node.path} grants the same member, role and condition in another stack (${overlap.grant}); ` +
              'deleting the grant from either stack revokes it for both. Declare it in one stack.',
          );
          continue;
        }
        return [
          validationMessage(
            construct,
            field.name,
            field.value,
            `${other.construct.node.path} grants the same member, role and condition on ${on}; declare it once (deleting either would revoke it)`,
          ),
        ];
      }
      if (overlap.about === 'policy') {
        return [
          validationMessage(
            construct,
            'name',
            on,
            overlap.owner === 'both'
              ? `only one IAM policy construct may own a resource's policy; ${other.construct.node.path} already owns it`
              : `${by} owns the whole policy of this resource, ${undo}; declare the binding in the policy instead`,
          ),
        ];
      }
      if (overlap.about === 'principal') {
        const member = overlap.grant;
        return [
          validationMessage(
            construct,
            grant.mode === 'memberRoles' ? 'member' : memberField(grant),
            member,
            `${by} owns every role of this principal on ${on}, ${undo}; list the role there instead`,
          ),
        ];
      }
      if (overlap.owner === 'both') {
        return [
          validationMessage(
            construct,
            'role',
            (grant as { readonly role: string }).role,
            `only one binding construct may own a role on a resource (with the same condition); ${other.construct.node.path} already owns it on ${on}`,
          ),
        ];
      }
      const field = entryField(grant, overlap.claim);
      return [
        validationMessage(
          construct,
          field.role,
          field.roleValue,
          `${by} owns this role's whole member list on ${on}, ${undo}; add the member to the binding instead`,
        ),
      ];
    }
    return [];
  }

  /** Reported once per policy, on the grant that crosses the limit. */
  private limits(entry: RegisteredGrant): string[] {
    const tally = this.tallyOf(PolicyIdentity.of(entry.grant.resource).key);
    const field = memberField(entry.grant);
    const errors: string[] = [];
    if (tally.principalsCrossedBy === entry) {
      errors.push(
        validationMessage(
          entry.construct,
          field,
          grantMembers(entry.grant),
          `the grants in this app would put ${tally.principals.toLocaleString('en-US')} principals on ${entry.grant.resource.name}; Google allows at most ${MAX_PRINCIPALS.toLocaleString('en-US')}`,
        ),
      );
    }
    if (tally.groupsCrossedBy === entry) {
      errors.push(
        validationMessage(
          entry.construct,
          field,
          grantMembers(entry.grant),
          `the grants in this app would put ${tally.groups} groups and domains on ${entry.grant.resource.name}; Google allows at most ${MAX_GROUP_PRINCIPALS}`,
        ),
      );
    }
    return errors;
  }

  /** Principal counts per policy, computed once per validation pass (validation runs per grant); one grant declared twice counts once. */
  private tallyOf(policy: string): PolicyTally {
    if (!this.tallies) {
      this.tallies = new Map();
      const counted = new Set<string>();
      for (const entry of this.grants) {
        if (holdsTokens(entry.grant)) continue;
        const key = grantKey(entry.grant);
        if (counted.has(key)) continue;
        counted.add(key);
        const policy = PolicyIdentity.of(entry.grant.resource).key;
        const tally = this.tallies.get(policy) ?? { principals: 0, groups: 0 };
        const members = grantMembers(entry.grant);
        tally.principals += members.length;
        tally.groups += members.filter(countsAsGroup).length;
        if (tally.principals > MAX_PRINCIPALS) tally.principalsCrossedBy ??= entry;
        if (tally.groups > MAX_GROUP_PRINCIPALS) tally.groupsCrossedBy ??= entry;
        this.tallies.set(policy, tally);
      }
    }
    return this.tallies.get(policy) ?? { principals: 0, groups: 0 };
  }
}

/**
 * The fields of `grant` that hold the member entry `claim` names (its own, for a member grant; one of its
 * entries, by index, for a bulk grant; its member, for a principal's roles), with their values.
 */
function entryField(grant: Grant, claim: string): { name: string; value: string; role: string; roleValue: string } {
  if (grant.mode === 'members') {
    const i = grant.grants.findIndex((e) => claimsOf(entryGrant(grant, e)).claims.includes(claim));
    const at = Math.max(i, 0);
    return { name: `grants[${at}].member`, value: grant.grants[at].member, role: `grants[${at}].role`, roleValue: grant.grants[at].role };
  }
  if (grant.mode === 'member') return { name: 'member', value: grant.member, role: 'role', roleValue: grant.role };
  const member = grant.mode === 'memberRoles' ? grant.member : String(grantMembers(grant)[0] ?? '');
  return { name: 'member', value: member, role: 'member', roleValue: member };
}

/** The field that lists a grant's principals, for messages. */
function memberField(grant: Grant): string {
  return { member: 'member', binding: 'members', policy: 'bindings', members: 'grants', memberRoles: 'member' }[grant.mode];
}

function countsAsGroup(member: string): boolean {
  try {
    return parsePrincipal(member).countsAsGroup;
  } catch {
    return false;
  }
}
