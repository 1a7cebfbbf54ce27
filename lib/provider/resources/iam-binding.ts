import type { IamResource } from '../../iam/grant';
import { BindingIdentity } from '../../iam/identity';
import { ProviderErrors } from '../errors';
import type { ResourceType } from '../framework/resource';
import type { GoogleIamContext } from '../provider-context';
import { partial, stringsOf } from '../framework/cty-values';
import { grantResourceType, type GrantMode } from './grant-resource';
import { nearMisses, nearMissHint } from './import-hints';
import { conditionOf, conditionValue, membersAsSpelled, partialCondition } from './grant-values';
import type { IamTypeDescriptor } from './iam-type-descriptor';
import { CONDITION_BLOCK, MEMBERS_ATTRIBUTE, ROLE_ATTRIBUTE } from './iam-schema';
import { UNRESOLVED_RESOURCE } from './unresolved-resource';

/** Every principal of one role + condition (authoritative for that binding), as `google_*_iam_binding`. */
const BINDING: GrantMode = {
  mode: 'binding',
  describe: (noun) =>
    `Sets every principal of one role (and condition) on a ${noun}'s IAM policy; other roles are left alone (as the google provider's \`_iam_binding\`).`,
  attributes: [ROLE_ATTRIBUTE, MEMBERS_ATTRIBUTE],
  blocks: [CONDITION_BLOCK],
  grantOf: (resource: IamResource, values) => {
    const condition = conditionOf(values.condition);
    return {
      mode: 'binding',
      resource,
      role: values.role as string,
      members: stringsOf(values.members) ?? [],
      ...(condition ? { condition } : {}),
    };
  },
  partialGrant: (values) => ({
    mode: 'binding',
    resource: UNRESOLVED_RESOURCE,
    role: partial(values.role),
    members: partial(values.members),
    condition: partialCondition(values.condition),
  }),
  // Google's actual members (Google may split a binding in two), spelled as the state spells them; gone when none are left.
  refresh: (state, policy) => {
    const identity = BindingIdentity.of(state.role as string, conditionOf(state.condition));
    const members = (policy.bindings ?? []).filter((b) => identity.matches(b)).flatMap((b) => b.members ?? []);
    if (members.length === 0) return null;
    return { ...state, members: membersAsSpelled(members, stringsOf(state.members) ?? []) };
  },
  // terraform-provider-google google/tpgiamresource/resource_iam_binding.go, iamBindingImport: "resource_name role [condition_title]".
  importWords: { min: 1, format: '"<resource> <role>[ <condition title>]"' },
  imported: ([role, ...title], policy) => {
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
    return {
      role,
      members: membersAsSpelled(
        matches.flatMap((b) => b.members ?? []),
        [],
      ),
      condition: conditionValue(matches[0].condition),
    };
  },
};

/** `googleiam_<type>_iam_binding` of `descriptor`. */
export function iamBindingResource(descriptor: IamTypeDescriptor): ResourceType<GoogleIamContext> {
  return grantResourceType(descriptor, BINDING);
}
