import { Annotations } from 'cdktf';
import type { IConstruct } from 'constructs';
import { conditionKey } from '../iam/condition';
import { MAX_GROUP_PRINCIPALS, MAX_PRINCIPALS } from '../iam/limits';
import { parsePrincipal } from '../iam/principal';
import type { ConditionInput } from '../iam/types';
import { validationMessage } from './errors';
import { isKnown } from './known-values';

/** What the app-wide checks need to know about one grant. */
export interface RegisteredGrant {
  readonly construct: IConstruct;
  readonly typeName: string;
  readonly mode: 'member' | 'binding';
  readonly resource: string;
  readonly role: string;
  readonly members: readonly string[];
  readonly condition?: ConditionInput;
}

interface ResourceTally {
  principals: number;
  groups: number;
  principalsCrossedBy?: RegisteredGrant;
  groupsCrossedBy?: RegisteredGrant;
}

const registries = new WeakMap<IConstruct, GrantRegistry>();

/**
 * All grants of one app, for the checks no single grant can make: one binding
 * per resource + role + condition, the principal limits summed over the app,
 * and a warning when a member grant and a binding fight over the same role.
 * Values that are still tokens at synth are left out of every check.
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
  /** The first binding registered per resource + role + condition: who owns it. */
  private readonly bindingOwners = new Map<string, RegisteredGrant>();
  private readonly warned = new WeakSet<IConstruct>();
  private tallies?: Map<string, ResourceTally>;

  private constructor() {}

  /** Registers `grant` and attaches its app-wide checks to its construct. */
  public register(grant: RegisteredGrant): void {
    this.grants.push(grant);
    this.tallies = undefined;
    const key = bindingKey(grant);
    if (grant.mode === 'binding' && key !== undefined && !this.bindingOwners.has(key)) this.bindingOwners.set(key, grant);
    grant.construct.node.addValidation({ validate: () => this.validate(grant) });
  }

  private validate(grant: RegisteredGrant): string[] {
    if (![grant.resource, grant.role].every(isKnown)) return [];
    this.warnAboutFights(grant);
    return [...this.duplicateBinding(grant), ...this.limits(grant)];
  }

  private duplicateBinding(grant: RegisteredGrant): string[] {
    if (grant.mode !== 'binding') return [];
    const owner = this.bindingOwnerOf(grant);
    if (!owner || owner === grant) return [];
    return [
      validationMessage(grant.construct, 'role', grant.role,
        `only one ${grant.typeName} may own a role on a resource (with the same condition); ${owner.construct.node.path} already owns it on ${grant.resource}`),
    ];
  }

  /** Reported once per resource, on the grant that crosses the limit. */
  private limits(grant: RegisteredGrant): string[] {
    const tally = this.tallyOf(grant.resource);
    const field = grant.mode === 'member' ? 'member' : 'members';
    const errors: string[] = [];
    if (tally.principalsCrossedBy === grant) {
      errors.push(validationMessage(grant.construct, field, grant.members,
        `the grants in this app would put ${tally.principals.toLocaleString('en-US')} principals on ${grant.resource}; Google allows at most ${MAX_PRINCIPALS.toLocaleString('en-US')}`));
    }
    if (tally.groupsCrossedBy === grant) {
      errors.push(validationMessage(grant.construct, field, grant.members,
        `the grants in this app would put ${tally.groups} groups and domains on ${grant.resource}; Google allows at most ${MAX_GROUP_PRINCIPALS}`));
    }
    return errors;
  }

  /** Principal counts per resource, computed once per validation pass (validation runs per grant). */
  private tallyOf(resource: string): ResourceTally {
    if (!this.tallies) {
      this.tallies = new Map();
      for (const g of this.grants) {
        const tally = this.tallies.get(g.resource) ?? { principals: 0, groups: 0 };
        const known = g.members.filter(isKnown);
        tally.principals += known.length;
        tally.groups += known.filter(countsAsGroup).length;
        if (tally.principals > MAX_PRINCIPALS) tally.principalsCrossedBy ??= g;
        if (tally.groups > MAX_GROUP_PRINCIPALS) tally.groupsCrossedBy ??= g;
        this.tallies.set(g.resource, tally);
      }
    }
    return this.tallies.get(resource) ?? { principals: 0, groups: 0 };
  }

  private bindingOwnerOf(grant: RegisteredGrant): RegisteredGrant | undefined {
    const key = bindingKey(grant);
    return key === undefined ? undefined : this.bindingOwners.get(key);
  }

  private warnAboutFights(grant: RegisteredGrant): void {
    if (grant.mode !== 'member' || this.warned.has(grant.construct)) return;
    const binding = this.bindingOwnerOf(grant);
    if (!binding) return;
    this.warned.add(grant.construct);
    Annotations.of(grant.construct).addWarning(
      `${grant.typeName} grants ${grant.role} on ${grant.resource}, which ${binding.construct.node.path} owns as a whole binding: ` +
      'each apply of one undoes the other. Add the member to the binding instead.',
    );
  }
}

/** A binding's identity (resource, role, condition), or undefined while any part is a token. */
function bindingKey(grant: RegisteredGrant): string | undefined {
  if (![grant.resource, grant.role].every(isKnown) || !conditionIsKnown(grant.condition)) return undefined;
  return JSON.stringify([grant.resource, grant.role, conditionKey(grant.condition)]);
}

function conditionIsKnown(condition: ConditionInput | undefined): boolean {
  return !condition || [condition.expression, condition.title, condition.description].every(isKnown);
}

function countsAsGroup(member: string): boolean {
  try {
    return parsePrincipal(member).countsAsGroup;
  } catch {
    return false;
  }
}
