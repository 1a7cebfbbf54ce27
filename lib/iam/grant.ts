import { BindingIdentity, PolicyIdentity, type ConditionIdentity, type PolicyAddress } from './identity';
import type { PolicyEdit } from './policy-edit';
import { comparisonKey } from './principal';
import type { AuditConfig, ConditionInput } from './types';

/**
 * Where an IAM policy lives: a resource of a Google REST API that has
 * `:getIamPolicy` and `:setIamPolicy` methods, e.g.
 * `{ service: 'networksecurity', apiVersion: 'v1', name: 'projects/p/locations/global/authorizationPolicies/ap' }`.
 */
export interface IamResource extends PolicyAddress {
  /**
   * How the API's getIamPolicy is called: `GET` with the version in the query, `POST` with it in the body,
   * or `POST_QUERY` (POST, version in the query, no body); when absent, what Google publishes for the name's collection.
   */
  readonly getIamPolicyMethod?: 'GET' | 'POST' | 'POST_QUERY';
}

/** One binding as a policy grant declares it. */
export interface GrantBinding {
  readonly role: string;
  readonly members: readonly string[];
  readonly condition?: ConditionInput;
}

/** One principal granted a role (non-authoritative: other members of the role are left alone). */
export interface MemberGrant {
  readonly mode: 'member';
  readonly resource: IamResource;
  readonly role: string;
  readonly member: string;
  readonly condition?: ConditionInput;
}

/** The whole member list of one role + condition (authoritative for that binding). */
export interface BindingGrant {
  readonly mode: 'binding';
  readonly resource: IamResource;
  readonly role: string;
  readonly members: readonly string[];
  readonly condition?: ConditionInput;
}

/** Every binding of a policy (authoritative for the policy's bindings; audit configs only when given). */
export interface PolicyGrant {
  readonly mode: 'policy';
  readonly resource: IamResource;
  readonly bindings: readonly GrantBinding[];
  readonly auditConfigs?: readonly AuditConfig[];
}

/** One entry of a bulk grant: a principal, a role, and optionally a condition. */
export interface MemberEntry {
  readonly role: string;
  readonly member: string;
  readonly condition?: ConditionInput;
}

/**
 * Many principals granted roles on one resource, each entry as a member grant
 * (non-authoritative: what the entries do not name is left alone).
 */
export interface MembersGrant {
  readonly mode: 'members';
  readonly resource: IamResource;
  readonly grants: readonly MemberEntry[];
}

/** One role of a principal, optionally under a condition. */
export interface RoleEntry {
  readonly role: string;
  readonly condition?: ConditionInput;
}

/**
 * Every role of one principal on a resource (authoritative for that
 * principal: it holds exactly these roles there; other principals are left alone).
 */
export interface MemberRolesGrant {
  readonly mode: 'memberRoles';
  readonly resource: IamResource;
  readonly member: string;
  readonly roles: readonly RoleEntry[];
}

/** A grant: what one grant resource declares and the provider carries out. */
export type Grant = MemberGrant | BindingGrant | PolicyGrant | MembersGrant | MemberRolesGrant;

/** `member`, `binding`, `policy`, `members` or `memberRoles`. */
export type GrantMode = Grant['mode'];

/** Whether a grant of this mode takes away what it does not declare (a binding's other members, a policy's other bindings, a principal's other roles). */
export function isAuthoritative(mode: GrantMode): boolean {
  return mode === 'binding' || mode === 'policy' || mode === 'memberRoles';
}

/** `apply` makes the grant hold; `remove` revokes it. */
export type GrantAction = 'apply' | 'remove';

/** The policy edits that carry out `action` for `grant`. */
export function grantEdits(grant: Grant, action: GrantAction): PolicyEdit[] {
  switch (grant.mode) {
    case 'member':
      return [
        { kind: action === 'apply' ? 'addMember' : 'removeMember', role: grant.role, member: grant.member, condition: grant.condition },
      ];
    case 'binding':
      return [
        action === 'apply'
          ? { kind: 'setBinding', role: grant.role, members: grant.members, condition: grant.condition }
          : { kind: 'removeBinding', role: grant.role, condition: grant.condition },
      ];
    case 'policy':
      if (action === 'remove') return grant.bindings.map((b) => ({ kind: 'removeBinding', role: b.role, condition: b.condition }));
      return [
        { kind: 'replaceBindings', bindings: grant.bindings },
        ...(grant.auditConfigs === undefined ? [] : [{ kind: 'replaceAuditConfigs' as const, auditConfigs: grant.auditConfigs }]),
      ];
    case 'members':
      return grant.grants.map((entry) => ({ kind: action === 'apply' ? 'addMember' : 'removeMember', ...entry }));
    case 'memberRoles':
      if (action === 'apply') return [{ kind: 'setMemberRoles', member: grant.member, roles: grant.roles }];
      return grant.roles.map((entry) => ({ kind: 'removeMember', member: grant.member, ...entry }));
  }
}

/**
 * The policy edits of one change of a grant resource: a create grants
 * `after`, a delete revokes `before`, an update grants `after` and, when it
 * is another grant (another member, role or condition), revokes `before` in
 * the same edits (one write, no gap for principals that stay).
 */
export function changeEdits(before: Grant | undefined, after: Grant | undefined): PolicyEdit[] {
  if (after === undefined) return before === undefined ? [] : grantEdits(before, 'remove');
  if (before === undefined) return grantEdits(after, 'apply');
  // Bulk grants: the entries that left are revoked, the others granted (again: a lagging read decides nothing).
  if (
    before.mode === 'members' &&
    after.mode === 'members' &&
    PolicyIdentity.of(before.resource).key === PolicyIdentity.of(after.resource).key
  ) {
    const kept = new Set(after.grants.map(entryKey));
    const left = before.grants.filter((entry) => !kept.has(entryKey(entry)));
    return [...grantEdits({ ...before, grants: left }, 'remove'), ...grantEdits(after, 'apply')];
  }
  if (grantKey(before) === grantKey(after)) return grantEdits(after, 'apply');
  return [...grantEdits(before, 'remove'), ...grantEdits(after, 'apply')];
}

/** What one entry of a bulk grant is: its binding (role and condition) and its principal, as Google compares them. */
export function entryKey(entry: { readonly role: string; readonly member: string; readonly condition?: ConditionIdentity }): string {
  const binding = BindingIdentity.of(entry.role, entry.condition);
  return `${binding.role}|${comparisonKey(entry.member)}${binding.conditionTag}`;
}

/** The member grant one entry of a bulk grant stands for. */
export function entryGrant(grant: MembersGrant, entry: MemberEntry): MemberGrant {
  return {
    mode: 'member',
    resource: grant.resource,
    role: entry.role,
    member: entry.member,
    ...(entry.condition ? { condition: entry.condition } : {}),
  };
}

/**
 * Terraform-style id, as terraform-provider-google builds it:
 * member `{resource}/{role}/{member}`, binding `{resource}/{role}`, policy `{resource}`,
 * member and binding followed by `/{title}/{description}/{expression}` when conditional.
 */
export function grantId(grant: Grant): string {
  if (grant.mode === 'policy' || grant.mode === 'members') return grant.resource.name;
  if (grant.mode === 'memberRoles') return `${grant.resource.name}/${grant.member}`;
  const parts = [grant.resource.name, grant.role];
  if (grant.mode === 'member') parts.push(grant.member);
  if (grant.condition) parts.push(grant.condition.title, grant.condition.description ?? '', grant.condition.expression);
  return parts.join('/');
}

/**
 * What a grant is, independent of where it is declared (persisted: see
 * lib/grant/grant-address.ts; test/unit/iam/identity.test.ts pins it): the policy, the role, the
 * condition and, for a member grant, the principal, with emails compared
 * case-insensitively as Google does. Two grants with the same key hold the
 * same thing; a binding's key leaves its members out, so changing them keeps
 * the key; a policy grant is one per policy; a principal's roles are one per
 * principal; a bulk grant is its entries.
 */
export function grantKey(grant: Grant): string {
  const policy = PolicyIdentity.of(grant.resource).key;
  if (grant.mode === 'policy') return `${policy}|policy`;
  if (grant.mode === 'memberRoles') return `${policy}|roles-of|${comparisonKey(grant.member)}`;
  if (grant.mode === 'members') return `${policy}|members|${[...new Set(grant.grants.map(entryKey))].sort().join(',')}`;
  const binding = BindingIdentity.of(grant.role, grant.condition);
  const member = grant.mode === 'member' ? `|${comparisonKey(grant.member)}` : '';
  return `${policy}|${binding.role}${member}${binding.conditionTag}`;
}

/** One line for logs and errors: `roles/x (condition "title") on projects/.../ap`. */
export function describeGrant(grant: Grant): string {
  if (grant.mode === 'policy') return `the IAM policy of ${grant.resource.name}`;
  if (grant.mode === 'members')
    return `${grant.grants.length === 1 ? 'a grant' : `${grant.grants.length} grants`} on ${grant.resource.name}`;
  if (grant.mode === 'memberRoles') return `the roles of ${grant.member} on ${grant.resource.name}`;
  const condition = grant.condition ? ` (condition ${JSON.stringify(grant.condition.title)})` : '';
  return `${grant.role}${condition} on ${grant.resource.name}`;
}

/** One binding a grant gives: a role, the principals it names, and optionally a condition. */
export interface GrantedBinding {
  readonly role: string;
  readonly members: readonly string[];
  readonly condition?: ConditionInput;
}

/**
 * What a grant gives, of every kind, as bindings (role, principals,
 * condition): what the checks that judge each role given to each principal
 * read (security rules, reports), whatever the grant's kind.
 */
export function grantedBindings(grant: Grant): GrantedBinding[] {
  const binding = (role: string, members: readonly string[], condition?: ConditionInput): GrantedBinding =>
    condition ? { role, members, condition } : { role, members };
  switch (grant.mode) {
    case 'member':
      return [binding(grant.role, [grant.member], grant.condition)];
    case 'binding':
      return [binding(grant.role, grant.members, grant.condition)];
    case 'policy':
      return grant.bindings.map((b) => binding(b.role, b.members, b.condition));
    case 'members':
      return grant.grants.map((entry) => binding(entry.role, [entry.member], entry.condition));
    case 'memberRoles':
      return grant.roles.map((entry) => binding(entry.role, [grant.member], entry.condition));
  }
}

/**
 * Whether `after` (undefined: nothing) leaves out a principal that `before`
 * gives in some binding (role + condition, principals compared as Google
 * compares them): what a refresh must not do on a read it cannot trust.
 */
export function takesAway(before: Grant, after: Grant | undefined): boolean {
  const pairs = (grant: Grant) =>
    grantedBindings(grant).flatMap((b) => b.members.map((m) => `${BindingIdentity.of(b.role, b.condition).key}\n${comparisonKey(m)}`));
  const kept = new Set(after ? pairs(after) : []);
  return pairs(before).some((pair) => !kept.has(pair));
}

/** The principals a grant names, for messages. */
export function grantMembers(grant: Grant): readonly string[] {
  switch (grant.mode) {
    case 'member':
      return [grant.member];
    case 'binding':
      return grant.members;
    case 'policy':
      return grant.bindings.flatMap((b) => b.members);
    case 'members':
      return grant.grants.map((entry) => entry.member);
    case 'memberRoles':
      // Each binding the principal is in counts toward Google's limits.
      return grant.roles.map(() => grant.member);
  }
}
