import type { GrantBinding, IamResource } from '../../iam/grant';
import { BindingIdentity } from '../../iam/identity';
import type { Binding } from '../../iam/types';
import type { CtyObject, CtyValue } from '../framework/cty';
import type { ResourceType } from '../framework/resource';
import type { GoogleIamContext } from '../provider-context';
import { isKnown, objectsOf, partial, stringsOf } from '../framework/cty-values';
import { grantResourceType, type GrantMode } from './grant-resource';
import { auditConfigsOf, auditConfigsValue, conditionOf, conditionValue, membersAsSpelled, partialCondition } from './grant-values';
import type { IamTypeDescriptor } from './iam-type-descriptor';
import { AUDIT_CONFIGS_ATTRIBUTE, BINDINGS_ATTRIBUTE } from './iam-schema';
import { UNRESOLVED_RESOURCE } from './unresolved-resource';

/** Every binding of a policy (authoritative; audit configs only when given), as `google_*_iam_policy`. */
const POLICY: GrantMode = {
  mode: 'policy',
  describe: (noun) =>
    `Sets every binding of a ${noun}'s IAM policy, and its audit configs when given (as the google provider's \`_iam_policy\`).`,
  attributes: [BINDINGS_ATTRIBUTE, AUDIT_CONFIGS_ATTRIBUTE],
  grantOf: (resource: IamResource, values) => {
    const auditConfigs = auditConfigsOf(values.audit_configs);
    return { mode: 'policy', resource, bindings: bindingsOf(values.bindings), ...(auditConfigs ? { auditConfigs } : {}) };
  },
  partialGrant: (values) => ({
    mode: 'policy',
    resource: UNRESOLVED_RESOURCE,
    bindings: knownElements(values.bindings, (b) => ({
      role: partial(b.role),
      members: partial(b.members),
      condition: partialCondition(b.condition),
    })),
    auditConfigs:
      values.audit_configs === null
        ? undefined
        : knownElements(values.audit_configs, (c) => ({
            service: partial(c.service),
            auditLogConfigs: knownElements(c.audit_log_configs, (l) => ({
              logType: partial(l.log_type),
              exemptedMembers: partial(l.exempted_members),
            })),
          })),
  }),
  // Google's actual bindings (and audit configs, when the state manages them), in the state's order.
  refresh: (state, policy) => ({
    ...state,
    bindings: bindingsValue(policy.bindings ?? [], objectsOf(state.bindings) ?? []),
    audit_configs: state.audit_configs === null ? null : auditConfigsValue(policy.auditConfigs ?? [], objectsOf(state.audit_configs) ?? []),
  }),
  // terraform-provider-google: a policy is imported by its resource alone.
  importWords: { min: 0, exact: true, format: '"<resource>"' },
  imported: (_words, policy) => ({ bindings: bindingsValue(policy.bindings ?? [], []), audit_configs: null }),
};

function bindingsOf(value: CtyValue): GrantBinding[] {
  return (objectsOf(value) ?? []).map((b) => {
    const condition = conditionOf(b.condition);
    return { role: b.role as string, members: stringsOf(b.members) ?? [], ...(condition ? { condition } : {}) };
  });
}

/**
 * Google's bindings as state holds them: one per binding identity (Google
 * may split one in two), those the state knows first and in its order, each
 * keeping the state's condition and member spellings.
 */
function bindingsValue(bindings: readonly Binding[], prior: readonly CtyObject[]): CtyObject[] {
  const priorKeys = prior.map((p) => BindingIdentity.of(p.role as string, conditionOf(p.condition)).key);
  const merged = new Map<string, { binding: Binding; members: string[] }>();
  for (const binding of bindings) {
    const key = BindingIdentity.ofBinding(binding).key;
    const entry = merged.get(key) ?? { binding, members: [] };
    entry.members.push(...(binding.members ?? []));
    merged.set(key, entry);
  }
  const rank = (key: string) => (priorKeys.includes(key) ? priorKeys.indexOf(key) : prior.length);
  return [...merged]
    .filter(([, { members }]) => members.length > 0)
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([key, { binding, members }]) => {
      const mine = prior[priorKeys.indexOf(key)];
      return {
        role: binding.role,
        members: membersAsSpelled(members, stringsOf(mine?.members) ?? []),
        condition: mine ? mine.condition : conditionValue(binding.condition),
      };
    });
}

/** The known objects of a list, mapped; the list itself when unknown (the validators skip it). */
function knownElements<T>(value: CtyValue, map: (object: CtyObject) => T): T[] {
  if (!isKnown(value)) return value as never;
  return (Array.isArray(value) ? value : []).filter((v): v is CtyObject => objectsOf([v]) !== undefined).map(map);
}

/** `googleiam_<type>_iam_policy` of `descriptor`. */
export function iamPolicyResource(descriptor: IamTypeDescriptor): ResourceType<GoogleIamContext> {
  return grantResourceType(descriptor, POLICY);
}
