import type { GrantBinding } from '../../iam/grant';
import { BindingIdentity } from '../../iam/identity';
import { samePrincipal } from '../../iam/principal';
import type { AuditConfig, Binding, ConditionInput, Expr } from '../../iam/types';
import type { CtyObject, CtyValue } from '../framework/cty';
import { isKnown, objectOf, partial } from '../framework/cty-values';
import type { ModelObject, ModelReader } from '../framework/model';

/**
 * The parts of the grant models the kinds share, between the schema's values
 * (snake_case, null when unset) and the models (lib/iam's shapes: camelCase,
 * absent when unset), both ways.
 */

/** A condition, as lib/iam takes it: description absent when unset. */
export type ConditionModel = ConditionInput;

/** Audit logging of one service, as lib/iam takes it (type aliases, which lib/iam's open shapes accept). */
export type AuditConfigModel = {
  readonly service: string;
  readonly auditLogConfigs: readonly AuditLogConfigModel[];
};

/** Audit logging of one permission type. */
export type AuditLogConfigModel = {
  readonly logType: string;
  /** Absent when the state holds none (null). */
  readonly exemptedMembers?: readonly string[];
};

/** The `condition` (block or nested attribute) of `fields`, undefined when unset. */
export function decodeCondition(fields: ModelReader): ConditionModel | undefined {
  return fields.optionalObject('condition', (condition) => {
    const description = condition.optionalString('description');
    return {
      expression: condition.string('expression'),
      title: condition.string('title'),
      ...(description === undefined ? {} : { description }),
    };
  });
}

/** A condition's attributes; undefined (null) when there is none. */
export function encodeCondition(condition: ConditionModel | undefined): ModelObject | undefined {
  return condition && { expression: condition.expression, title: condition.title, description: condition.description };
}

/** Google's condition as state holds it: description absent when absent (or empty, as Google treats it). */
export function conditionFrom(condition: ConditionInput | Expr | undefined): ConditionModel | undefined {
  if (!condition) return undefined;
  return {
    expression: condition.expression,
    title: condition.title ?? '',
    ...(condition.description ? { description: condition.description } : {}),
  };
}

/** `audit_configs`, undefined when unset. */
export function decodeAuditConfigs(fields: ModelReader): AuditConfigModel[] | undefined {
  return fields.optionalObjects('audit_configs', (config) => ({
    service: config.string('service'),
    auditLogConfigs: config.objects('audit_log_configs', (log) => {
      const exemptedMembers = log.optionalStrings('exempted_members');
      return { logType: log.string('log_type'), ...(exemptedMembers ? { exemptedMembers } : {}) };
    }),
  }));
}

/** Audit configs' attributes; undefined (null) when the model leaves them unset. */
export function encodeAuditConfigs(configs: readonly AuditConfigModel[] | undefined): ModelObject[] | undefined {
  return configs?.map((config) => ({
    service: config.service,
    audit_log_configs: config.auditLogConfigs.map((log) => ({ log_type: log.logType, exempted_members: log.exemptedMembers })),
  }));
}

/** Google's audit configs as state holds them, in the order of `prior`'s services first; exemptions absent where Google has none. */
export function auditConfigsFrom(configs: readonly AuditConfig[], prior: readonly AuditConfigModel[]): AuditConfigModel[] {
  const rank = (service: string) => {
    const index = prior.findIndex((p) => p.service === service);
    return index < 0 ? prior.length : index;
  };
  return [...configs]
    .sort((a, b) => rank(a.service) - rank(b.service))
    .map((config) => ({
      service: config.service,
      auditLogConfigs: (config.auditLogConfigs ?? []).map((log) => ({
        logType: log.logType ?? '',
        ...(log.exemptedMembers?.length ? { exemptedMembers: [...log.exemptedMembers] } : {}),
      })),
    }));
}

/** Google's members, each spelled as `spelled` spells it when it names the same principal (emails compare case-insensitively). */
export function membersAsSpelled(members: readonly string[], spelled: readonly string[]): string[] {
  const out: string[] = [];
  for (const member of members) {
    const mine = spelled.find((m) => samePrincipal(m, member)) ?? member;
    if (!out.some((m) => samePrincipal(m, mine))) out.push(mine);
  }
  return out;
}

/** A condition for the validators: a wholly unknown one is left out (its parts are checked once known). */
export function partialCondition(value: CtyValue | undefined): ConditionInput | undefined {
  const object = objectOf(value);
  if (!object) return undefined;
  return { expression: partial(object.expression), title: partial(object.title), description: partial(object.description) };
}

/** The known objects of a list, mapped; the list itself when unknown (the validators skip it). */
export function knownElements<T>(value: CtyValue, map: (object: CtyObject) => T): T[] {
  if (!isKnown(value)) return value as never;
  return (Array.isArray(value) ? value : []).flatMap((v) => {
    const object = objectOf(v);
    return object ? [map(object)] : [];
  });
}

/**
 * Google's bindings as state holds them: one per binding identity (Google
 * may split one in two), those the state knows first and in its order, each
 * keeping the state's condition and member spellings.
 */
export function bindingsFrom(bindings: readonly Binding[], prior: readonly GrantBinding[]): GrantBinding[] {
  const priorKeys = prior.map((p) => BindingIdentity.of(p.role, p.condition).key);
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
      const condition = mine ? mine.condition : conditionFrom(binding.condition);
      return { role: binding.role, members: membersAsSpelled(members, mine?.members ?? []), ...(condition ? { condition } : {}) };
    });
}
