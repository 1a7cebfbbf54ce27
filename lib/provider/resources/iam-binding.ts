import type { BindingGrant } from '../../iam/grant';
import { BindingIdentity } from '../../iam/identity';
import { ProviderErrors } from '../errors';
import type { ResourceType } from '../framework/resource';
import type { GoogleIamContext } from '../provider-context';
import { partial } from '../framework/cty-values';
import { grantResourceType, type GrantKind, type GrantModel } from './grant-resource';
import { nearMisses, nearMissHint } from './import-hints';
import { conditionFrom, decodeCondition, encodeCondition, membersAsSpelled, partialCondition, type ConditionModel } from './grant-values';
import type { IamTypeDescriptor } from './iam-type-descriptor';
import { CONDITION_BLOCK, MEMBERS_ATTRIBUTE, ROLE_ATTRIBUTE } from './iam-schema';
import { UNRESOLVED_RESOURCE } from './unresolved-resource';

/** `googleiam_<type>_iam_binding`: every principal of one role + condition (authoritative for that binding), as `google_*_iam_binding`. */
export interface IamBindingModel extends GrantModel {
  readonly role: string;
  readonly members: readonly string[];
  readonly condition?: ConditionModel;
}

const BINDING: GrantKind<IamBindingModel> = {
  mode: 'binding',

  // The model.
  decode: (fields, common) => ({
    ...common,
    role: fields.string('role'),
    members: fields.strings('members'),
    condition: decodeCondition(fields),
  }),
  encode: (model) => ({ role: model.role, members: model.members, condition: encodeCondition(model.condition) }),

  // The schema, and what validation checks of a configuration.
  describe: (noun) =>
    `Sets every principal of one role (and condition) on a ${noun}'s IAM policy; other roles are left alone (as the google provider's \`_iam_binding\`).`,
  attributes: [ROLE_ATTRIBUTE, MEMBERS_ATTRIBUTE],
  blocks: [CONDITION_BLOCK],
  partialGrant: (values) => ({
    mode: 'binding',
    resource: UNRESOLVED_RESOURCE,
    role: partial(values.role),
    members: partial(values.members),
    condition: partialCondition(values.condition),
  }),

  // Create sets the binding's members, Update sets them again (or moves the binding), Delete removes the binding.
  grantOf: (model): BindingGrant => ({
    mode: 'binding',
    resource: model.resource,
    role: model.role,
    members: model.members,
    ...(model.condition ? { condition: model.condition } : {}),
  }),

  // Read: Google's actual members (Google may split a binding in two), spelled as the state spells them; gone when none are left.
  refresh: (state, policy) => {
    const identity = BindingIdentity.of(state.role, state.condition);
    const members = (policy.bindings ?? []).filter((b) => identity.matches(b)).flatMap((b) => b.members ?? []);
    return members.length === 0 ? null : { ...state, members: membersAsSpelled(members, state.members) };
  },

  // ImportState, as terraform-provider-google google/tpgiamresource/resource_iam_binding.go, iamBindingImport: "resource_name role [condition_title]".
  importWords: { min: 1, format: '"<resource> <role>[ <condition title>]"' },
  imported: ([role, ...title], policy, common) => {
    const conditionTitle = title.join(' ');
    const matches = (policy.bindings ?? []).filter((b) => b.role === role && (b.condition?.title ?? '') === conditionTitle);
    const identities = new Set(matches.map((b) => BindingIdentity.ofBinding(b).key));
    if (identities.size === 0) {
      throw ProviderErrors.nothingToImport(
        `no binding of ${role}${conditionTitle ? ` under a condition titled ${JSON.stringify(conditionTitle)}` : ' without a condition'}` +
          nearMissHint('the policy has', nearMisses(role, conditionTitle, policy.bindings ?? [])),
      );
    }
    if (identities.size > 1)
      throw ProviderErrors.nothingToImport(`the condition title ${JSON.stringify(conditionTitle)} matches several conditions of ${role}`);
    const members = membersAsSpelled(
      matches.flatMap((b) => b.members ?? []),
      [],
    );
    return { ...common, role, members, condition: conditionFrom(matches[0].condition) };
  },
};

/** `googleiam_<type>_iam_binding` of `descriptor`. */
export function iamBindingResource(descriptor: IamTypeDescriptor): ResourceType<GoogleIamContext> {
  return grantResourceType(descriptor, BINDING);
}
