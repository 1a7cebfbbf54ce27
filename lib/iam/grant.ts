import { BindingIdentity, PolicyIdentity, type PolicyAddress } from './identity';
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

/** A grant: what one grant resource declares and the provider carries out. */
export type Grant = MemberGrant | BindingGrant | PolicyGrant;

/** `member`, `binding` or `policy`. */
export type GrantMode = Grant['mode'];

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
  if (before === undefined || grantKey(before) === grantKey(after)) return grantEdits(after, 'apply');
  return [...grantEdits(before, 'remove'), ...grantEdits(after, 'apply')];
}

/**
 * Terraform-style id, as terraform-provider-google builds it:
 * member `{resource}/{role}/{member}`, binding `{resource}/{role}`, policy `{resource}`,
 * member and binding followed by `/{title}/{description}/{expression}` when conditional.
 */
export function grantId(grant: Grant): string {
  if (grant.mode === 'policy') return grant.resource.name;
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
 * the key; a policy grant is one per policy.
 */
export function grantKey(grant: Grant): string {
  const policy = PolicyIdentity.of(grant.resource).key;
  if (grant.mode === 'policy') return `${policy}|policy`;
  const binding = BindingIdentity.of(grant.role, grant.condition);
  const member = grant.mode === 'member' ? `|${comparisonKey(grant.member)}` : '';
  return `${policy}|${binding.role}${member}${binding.conditionTag}`;
}

/** One line for logs and errors: `roles/x (condition "title") on projects/.../ap`. */
export function describeGrant(grant: Grant): string {
  if (grant.mode === 'policy') return `the IAM policy of ${grant.resource.name}`;
  const condition = grant.condition ? ` (condition ${JSON.stringify(grant.condition.title)})` : '';
  return `${grant.role}${condition} on ${grant.resource.name}`;
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
  }
}
