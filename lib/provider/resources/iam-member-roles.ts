import type { MemberRolesGrant } from '../../iam/grant';
import { BindingIdentity } from '../../iam/identity';
import { samePrincipal } from '../../iam/principal';
import type { Policy } from '../../iam/types';
import type { ResourceType } from '../framework/resource';
import type { Block } from '../framework/schema';
import type { GoogleIamContext } from '../provider-context';
import { partial } from '../framework/cty-values';
import { grantResourceType, type GrantKind, type GrantModel } from './grant-resource';
import { conditionFrom, decodeCondition, encodeCondition, knownElements, partialCondition, type ConditionModel } from './grant-values';
import type { IamTypeDescriptor } from './iam-type-descriptor';
import { CONDITION_BLOCK, MEMBER_ATTRIBUTE, ROLE_ATTRIBUTE } from './iam-schema';
import { UNRESOLVED_RESOURCE } from './unresolved-resource';

/** One role of the principal, optionally under a condition. */
export interface RoleEntryModel {
  readonly role: string;
  readonly condition?: ConditionModel;
}

/**
 * `googleiam_<type>_iam_member_roles`: every role one principal holds on one
 * resource's policy (authoritative for that principal: a role it holds there
 * that no `grant` block lists is removed; other principals are left alone).
 */
export interface IamMemberRolesModel extends GrantModel {
  readonly member: string;
  readonly roles: readonly RoleEntryModel[];
}

/** `grant { role = … condition { … } }`, repeated: a set. */
const ROLE_BLOCK: Block = {
  name: 'grant',
  description: 'One role the principal holds, optionally under a condition. Repeat the block for each role; a role not listed is removed.',
  nesting: 'SET',
  attributes: [ROLE_ATTRIBUTE],
  blocks: [CONDITION_BLOCK],
};

const MEMBER_ROLES: GrantKind<IamMemberRolesModel> = {
  mode: 'memberRoles',

  // The model.
  decode: (fields, common) => ({
    ...common,
    member: fields.string('member'),
    roles: fields.objects('grant', (role) => ({ role: role.string('role'), condition: decodeCondition(role) })),
  }),
  encode: (model) => ({
    member: model.member,
    grant: model.roles.map((entry) => ({ role: entry.role, condition: encodeCondition(entry.condition) })),
  }),

  // The schema, and what validation checks of a configuration.
  describe: (noun) =>
    `Sets every role of one principal on a ${noun}'s IAM policy: each \`grant\` block is a role it holds; **a role it holds there that no block ` +
    'lists is removed** (authoritative for this principal, as `_iam_binding` is for a role). Other principals are left alone.',
  attributes: [MEMBER_ATTRIBUTE],
  blocks: [ROLE_BLOCK],
  partialGrant: (values) => ({
    mode: 'memberRoles',
    resource: UNRESOLVED_RESOURCE,
    member: partial(values.member),
    roles: knownElements(values.grant, (entry) => ({ role: partial(entry.role), condition: partialCondition(entry.condition) })),
  }),

  // Create and Update make these the principal's roles, Delete revokes these roles.
  grantOf: (model): MemberRolesGrant => ({
    mode: 'memberRoles',
    resource: model.resource,
    member: model.member,
    roles: model.roles.map((entry) => ({ role: entry.role, ...(entry.condition ? { condition: entry.condition } : {}) })),
  }),

  // Read: the roles Google gives the principal, each as the state spells its condition; one added by hand shows as a diff.
  refresh: (state, policy) => ({ ...state, roles: rolesOf(policy, state.member, state.roles) }),

  // ImportState: "<resource> <member>", the principal's roles as Google holds them.
  importWords: { min: 1, exact: true, format: '"<resource> <member>"' },
  imported: ([member], policy, common) => ({ ...common, member, roles: rolesOf(policy, member, []) }),
};

/** The roles (and conditions) `member` holds in `policy`, once each; a condition the state knows keeps the state's spelling. */
function rolesOf(policy: Policy, member: string, known: readonly RoleEntryModel[]): RoleEntryModel[] {
  const byKey = new Map<string, RoleEntryModel>();
  for (const binding of policy.bindings ?? []) {
    if (!(binding.members ?? []).some((m) => samePrincipal(m, member))) continue;
    const key = BindingIdentity.ofBinding(binding).key;
    if (byKey.has(key)) continue;
    const mine = known.find((k) => BindingIdentity.of(k.role, k.condition).key === key);
    const condition = mine ? mine.condition : conditionFrom(binding.condition);
    byKey.set(key, { role: binding.role, ...(condition ? { condition } : {}) });
  }
  return [...byKey.values()];
}

/** `googleiam_<type>_iam_member_roles` of `descriptor`. */
export function iamMemberRolesResource(descriptor: IamTypeDescriptor): ResourceType<GoogleIamContext> {
  return grantResourceType(descriptor, MEMBER_ROLES);
}
