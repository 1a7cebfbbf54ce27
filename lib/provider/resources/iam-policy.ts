import type { GrantBinding, PolicyGrant } from '../../iam/grant';
import type { ResourceType } from '../framework/resource';
import type { GoogleIamContext } from '../provider-context';
import { partial } from '../framework/cty-values';
import { grantResourceType, type GrantKind, type GrantModel } from './grant-resource';
import {
  auditConfigsFrom,
  bindingsFrom,
  decodeAuditConfigs,
  decodeCondition,
  encodeAuditConfigs,
  encodeCondition,
  knownElements,
  partialCondition,
  type AuditConfigModel,
} from './grant-values';
import type { IamTypeDescriptor } from './iam-type-descriptor';
import { AUDIT_CONFIGS_ATTRIBUTE, BINDINGS_ATTRIBUTE } from './iam-schema';
import { UNRESOLVED_RESOURCE } from './unresolved-resource';

/** `googleiam_<type>_iam_policy`: every binding of a policy (authoritative; audit configs only when given), as `google_*_iam_policy`. */
export interface IamPolicyModel extends GrantModel {
  readonly bindings: readonly GrantBinding[];
  /** Absent (null): the policy's audit configs are left as they are. */
  readonly auditConfigs?: readonly AuditConfigModel[];
}

const POLICY: GrantKind<IamPolicyModel> = {
  mode: 'policy',

  // The model.
  decode: (fields, common) => ({
    ...common,
    bindings: fields.objects('bindings', (binding) => {
      const condition = decodeCondition(binding);
      return { role: binding.string('role'), members: binding.strings('members'), ...(condition ? { condition } : {}) };
    }),
    auditConfigs: decodeAuditConfigs(fields),
  }),
  encode: (model) => ({
    bindings: model.bindings.map((b) => ({ role: b.role, members: b.members, condition: encodeCondition(b.condition) })),
    audit_configs: encodeAuditConfigs(model.auditConfigs),
  }),

  // The schema, and what validation checks of a configuration.
  describe: (noun) =>
    `Sets every binding of a ${noun}'s IAM policy, and its audit configs when given (as the google provider's \`_iam_policy\`).`,
  attributes: [BINDINGS_ATTRIBUTE, AUDIT_CONFIGS_ATTRIBUTE],
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

  // Create and Update make the policy's bindings these (and its audit configs, when given); Delete removes these bindings.
  grantOf: (model): PolicyGrant => ({
    mode: 'policy',
    resource: model.resource,
    bindings: model.bindings,
    ...(model.auditConfigs ? { auditConfigs: model.auditConfigs } : {}),
  }),

  // Read: Google's actual bindings (and audit configs, when the state manages them), in the state's order.
  refresh: (state, policy) => ({
    ...state,
    bindings: bindingsFrom(policy.bindings ?? [], state.bindings),
    auditConfigs: state.auditConfigs && auditConfigsFrom(policy.auditConfigs ?? [], state.auditConfigs),
  }),

  // ImportState: as terraform-provider-google, a policy is imported by its resource alone.
  importWords: { min: 0, exact: true, format: '"<resource>"' },
  imported: (_words, policy, common) => ({ ...common, bindings: bindingsFrom(policy.bindings ?? [], []) }),
};

/** `googleiam_<type>_iam_policy` of `descriptor`. */
export function iamPolicyResource(descriptor: IamTypeDescriptor): ResourceType<GoogleIamContext> {
  return grantResourceType(descriptor, POLICY);
}
