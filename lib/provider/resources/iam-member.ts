import type { MemberGrant } from '../../iam/grant';
import { BindingIdentity } from '../../iam/identity';
import { samePrincipal } from '../../iam/principal';
import type { Binding } from '../../iam/types';
import { ProviderErrors } from '../errors';
import type { ResourceType } from '../framework/resource';
import type { GoogleIamContext } from '../provider-context';
import { partial } from '../framework/cty-values';
import { grantResourceType, type GrantKind, type GrantModel } from './grant-resource';
import { nearMisses, nearMissHint } from './import-hints';
import { conditionFrom, decodeCondition, encodeCondition, partialCondition, type ConditionModel } from './grant-values';
import type { IamTypeDescriptor } from './iam-type-descriptor';
import { CONDITION_BLOCK, MEMBER_ATTRIBUTE, ROLE_ATTRIBUTE } from './iam-schema';
import { UNRESOLVED_RESOURCE } from './unresolved-resource';

/** `googleiam_<type>_iam_member`: one principal granted a role (non-authoritative: the role's other members are left alone), as `google_*_iam_member`. */
export interface IamMemberModel extends GrantModel {
  readonly role: string;
  readonly member: string;
  readonly condition?: ConditionModel;
}

const MEMBER: GrantKind<IamMemberModel> = {
  mode: 'member',

  // The model.
  decode: (fields, common) => ({
    ...common,
    role: fields.string('role'),
    member: fields.string('member'),
    condition: decodeCondition(fields),
  }),
  encode: (model) => ({ role: model.role, member: model.member, condition: encodeCondition(model.condition) }),

  // The schema, and what validation checks of a configuration.
  describe: (noun) =>
    `Grants one principal a role on a ${noun}'s IAM policy, keeping the role's other members (as the google provider's \`_iam_member\`).`,
  attributes: [ROLE_ATTRIBUTE, MEMBER_ATTRIBUTE],
  blocks: [CONDITION_BLOCK],
  partialGrant: (values) => ({
    mode: 'member',
    resource: UNRESOLVED_RESOURCE,
    role: partial(values.role),
    member: partial(values.member),
    condition: partialCondition(values.condition),
  }),

  // Create adds the principal to its binding (role + condition), Update moves it, Delete removes only it.
  grantOf: (model): MemberGrant => ({
    mode: 'member',
    resource: model.resource,
    role: model.role,
    member: model.member,
    ...(model.condition ? { condition: model.condition } : {}),
  }),

  // Read: gone when the principal is not in its binding; the role's other members are never a difference.
  refresh: (state, policy) => {
    const identity = BindingIdentity.of(state.role, state.condition);
    return (policy.bindings ?? []).some((b) => identity.matches(b) && holds(b, state.member)) ? state : null;
  },

  // ImportState, as terraform-provider-google google/tpgiamresource/resource_iam_member.go, iamMemberImport: "resource_name role member [condition_title]".
  importWords: { min: 2, format: '"<resource> <role> <member>[ <condition title>]"' },
  imported: ([role, member, ...title], policy, common) => {
    const conditionTitle = title.join(' ');
    const matches = (policy.bindings ?? []).filter(
      (b) => b.role === role && (b.condition?.title ?? '') === conditionTitle && holds(b, member),
    );
    const identities = new Set(matches.map((b) => BindingIdentity.ofBinding(b).key));
    if (identities.size === 0) {
      const held = (policy.bindings ?? []).filter((b) => holds(b, member));
      throw ProviderErrors.nothingToImport(
        `${member} does not hold ${role}${conditionTitle ? ` under a condition titled ${JSON.stringify(conditionTitle)}` : ''}` +
          nearMissHint('it holds', nearMisses(role, conditionTitle, held)),
      );
    }
    if (identities.size > 1)
      throw ProviderErrors.nothingToImport(`the condition title ${JSON.stringify(conditionTitle)} matches several conditions of ${role}`);
    return { ...common, role, member, condition: conditionFrom(matches[0].condition) };
  },
};

function holds(binding: Binding, member: string): boolean {
  return (binding.members ?? []).some((m) => samePrincipal(m, member));
}

/** `googleiam_<type>_iam_member` of `descriptor`. */
export function iamMemberResource(descriptor: IamTypeDescriptor): ResourceType<GoogleIamContext> {
  return grantResourceType(descriptor, MEMBER);
}
