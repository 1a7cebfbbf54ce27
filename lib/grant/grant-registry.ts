import { Annotations, TerraformStack } from 'cdktf';
import type { IConstruct } from 'constructs';
import { entryGrant, entryKey, grantKey, grantMembers, type Grant } from '../iam/grant';
import { BindingIdentity, PolicyIdentity, type BindingLike } from '../iam/identity';
import { MAX_GROUP_PRINCIPALS, MAX_PRINCIPALS } from '../iam/limits';
import { comparisonKey, parsePrincipal } from '../iam/principal';
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
 * - one owner per binding (resource + role + condition) and per policy;
 * - no member grant on a binding that a binding or policy construct owns,
 *   and no policy construct beside member or binding grants on its resource:
 *   each apply of one would undo the other;
 * - the principal limits per policy, summed over the app;
 * - one declaration per member grant in a stack (each is a resource of the
 *   provider: deleting either would revoke what the other declares), and a
 *   warning when two stacks grant the same member: deleting it from either
 *   stack revokes it for both.
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
  /** The first grant that owns each binding identity (policy + role + condition), or a whole policy. */
  private readonly owners = new Map<string, RegisteredGrant>();
  private readonly policyOwners = new Map<string, RegisteredGrant>();
  /** The first grant of each member entry (member grants and bulk entries): policy + binding + principal. */
  private readonly firstByEntry = new Map<string, RegisteredGrant>();
  /** The first grant that owns each principal's roles on a policy (memberRoles): policy + principal. */
  private readonly principalOwners = new Map<string, RegisteredGrant>();
  private tallies?: Map<string, PolicyTally>;

  private constructor() {}

  /** Registers `grant` and attaches its app-wide checks to its construct. */
  public register(entry: RegisteredGrant): void {
    this.grants.push(entry);
    this.tallies = undefined;
    if (holdsTokens(entry.grant)) return;
    const { grant } = entry;
    for (const key of memberEntryKeys(grant)) if (!this.firstByEntry.has(key)) this.firstByEntry.set(key, entry);
    if (grant.mode === 'memberRoles') {
      const key = principalKey(grant, grant.member);
      if (!this.principalOwners.has(key)) this.principalOwners.set(key, entry);
    }
    if (grant.mode === 'policy') {
      const policy = PolicyIdentity.of(grant.resource).key;
      if (!this.policyOwners.has(policy)) this.policyOwners.set(policy, entry);
      for (const binding of grant.bindings) this.claim(ownedBinding(grant, binding), entry);
    } else if (grant.mode === 'binding') {
      this.claim(ownedBinding(grant, grant), entry);
    }
    entry.construct.node.addValidation({ validate: () => this.validate(entry) });
  }

  private claim(identity: string, entry: RegisteredGrant): void {
    if (!this.owners.has(identity)) this.owners.set(identity, entry);
  }

  private validate(entry: RegisteredGrant): string[] {
    return [...this.duplicates(entry), ...this.conflicts(entry), ...this.principalConflicts(entry), ...this.limits(entry)];
  }

  /**
   * A principal's roles (memberRoles) owns every binding of that principal on
   * the policy: any other grant naming it there (a member grant, a bulk entry,
   * a binding's or a policy's member, another memberRoles) would be undone by
   * each apply of the other.
   */
  private principalConflicts(entry: RegisteredGrant): string[] {
    const { grant, construct } = entry;
    for (const member of new Set(grant.mode === 'memberRoles' ? [grant.member] : grantMembers(grant))) {
      const owner = this.principalOwners.get(principalKey(grant, member));
      if (!owner || owner === entry) continue;
      return [
        validationMessage(
          construct,
          grant.mode === 'memberRoles' ? 'member' : memberField(grant),
          member,
          `${owner.construct.node.path} (${owner.typeName}) owns every role of this principal on ${grant.resource.name}, so each apply of one would undo the other; list the role there instead`,
        ),
      ];
    }
    return [];
  }

  private conflicts(entry: RegisteredGrant): string[] {
    const { grant, construct } = entry;
    const policy = this.policyOwners.get(PolicyIdentity.of(grant.resource).key);
    if (grant.mode === 'policy') {
      return policy && policy !== entry
        ? [
            validationMessage(
              construct,
              'name',
              grant.resource.name,
              `only one IAM policy construct may own a resource's policy; ${policy.construct.node.path} already owns it`,
            ),
          ]
        : [];
    }
    if (policy) {
      return [
        validationMessage(
          construct,
          'name',
          grant.resource.name,
          `${policy.construct.node.path} (${policy.typeName}) owns the whole policy of this resource, so each apply of one would undo the other; declare the binding in the policy instead`,
        ),
      ];
    }
    if (grant.mode === 'memberRoles') return [];
    if (grant.mode === 'members') {
      for (const [i, granted] of grant.grants.entries()) {
        const owner = this.owners.get(ownedBinding(grant, granted));
        if (!owner) continue;
        return [
          validationMessage(
            construct,
            `grants[${i}].role`,
            granted.role,
            `${owner.construct.node.path} (${owner.typeName}) owns this role's whole member list on ${grant.resource.name}, so each apply of one would undo the other; add the member to the binding instead`,
          ),
        ];
      }
      return [];
    }
    const owner = this.owners.get(ownedBinding(grant, grant));
    if (!owner || owner === entry) return [];
    if (grant.mode === 'binding') {
      return [
        validationMessage(
          construct,
          'role',
          grant.role,
          `only one binding construct may own a role on a resource (with the same condition); ${owner.construct.node.path} already owns it on ${grant.resource.name}`,
        ),
      ];
    }
    return [
      validationMessage(
        construct,
        'role',
        grant.role,
        `${owner.construct.node.path} (${owner.typeName}) owns this role's whole member list on ${grant.resource.name}, so each apply of one would undo the other; add the member to the binding instead`,
      ),
    ];
  }

  /**
   * The same member entry twice (a member grant, or an entry of a bulk grant): in one stack an error (two
   * resources of the provider would each revoke it on delete); in two stacks allowed (each stack holds it),
   * with a warning that deleting it in either revokes it.
   */
  private duplicates(entry: RegisteredGrant): string[] {
    const { grant } = entry;
    const entries = grant.mode === 'member' ? [grant] : grant.mode === 'members' ? grant.grants.map((e) => entryGrant(grant, e)) : [];
    for (const [i, member] of entries.entries()) {
      const first = this.firstByEntry.get(memberEntryKeys(member)[0]);
      if (!first || first === entry) continue;
      const field = grant.mode === 'members' ? `grants[${i}].member` : 'member';
      if (TerraformStack.of(first.construct) === TerraformStack.of(entry.construct)) {
        return [
          validationMessage(
            entry.construct,
            field,
            member.member,
            `${first.construct.node.path} grants the same member, role and condition on ${grant.resource.name}; declare it once (deleting either would revoke it)`,
          ),
        ];
      }
      Annotations.of(entry.construct).addWarning(
        `${first.construct.node.path} grants the same member, role and condition in another stack (${member.role} for ${member.member}); ` +
          'deleting the grant from either stack revokes it for both. Declare it in one stack.',
      );
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

/** The field that lists a grant's principals, for messages. */
function memberField(grant: Grant): string {
  return { member: 'member', binding: 'members', policy: 'bindings', members: 'grants', memberRoles: 'member' }[grant.mode];
}

/** The member entries a grant declares (a member grant's one, a bulk grant's), each keyed by policy, binding and principal. */
function memberEntryKeys(grant: Grant): string[] {
  const policy = PolicyIdentity.of(grant.resource).key;
  if (grant.mode === 'member') return [`${policy}|${entryKey(grant)}`];
  if (grant.mode === 'members') return grant.grants.map((e) => `${policy}|${entryKey(e)}`);
  return [];
}

/** A principal on a grant's policy: what a memberRoles grant owns. */
function principalKey(grant: Grant, member: string): string {
  return `${PolicyIdentity.of(grant.resource).key}|${comparisonKey(member)}`;
}

/** The key of `binding` (one of `grant`'s, or the grant itself) on the grant's policy: one owner each. */
function ownedBinding(grant: Grant, binding: BindingLike): string {
  return PolicyIdentity.of(grant.resource).bindingKey(BindingIdentity.ofBinding(binding));
}

function countsAsGroup(member: string): boolean {
  try {
    return parsePrincipal(member).countsAsGroup;
  } catch {
    return false;
  }
}
