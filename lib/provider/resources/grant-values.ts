import { samePrincipal } from '../../iam/principal';
import type { AuditConfig, ConditionInput, Expr } from '../../iam/types';
import type { CtyObject, CtyValue } from '../framework/cty';
import { isKnown, objectOf, objectsOf, partial, stringsOf } from '../framework/cty-values';

/**
 * Between the schema's values (snake_case cty objects, null when unset) and
 * lib/iam's (camelCase, absent when unset), both ways.
 */

/** A condition attribute's value, known or with unknown parts left in (for validation). */
export function conditionOf(value: CtyValue | undefined): ConditionInput | undefined {
  const object = objectOf(value);
  if (!object) return undefined;
  const description = object.description;
  return {
    expression: object.expression as string,
    title: object.title as string,
    ...(description === null ? {} : { description: description as string }),
  };
}

/** A condition as state holds it: description null when absent (or empty, as Google treats it). */
export function conditionValue(condition: ConditionInput | Expr | undefined): CtyObject | null {
  if (!condition) return null;
  return { expression: condition.expression, title: condition.title ?? '', description: condition.description || null };
}

/** `audit_configs` → lib/iam's audit configs; undefined when unset. */
export function auditConfigsOf(value: CtyValue | undefined): AuditConfig[] | undefined {
  const configs = objectsOf(value);
  if (!configs) return undefined;
  return configs.map((config) => ({
    service: config.service as string,
    auditLogConfigs: (objectsOf(config.audit_log_configs) ?? []).map((log) => ({
      logType: log.log_type as string,
      ...(stringsOf(log.exempted_members) ? { exemptedMembers: stringsOf(log.exempted_members) } : {}),
    })),
  }));
}

/** Google's audit configs as state holds them, in the order of `prior`'s services first; exemptions null where `prior` had none and Google has none. */
export function auditConfigsValue(configs: readonly AuditConfig[], prior: readonly CtyObject[]): CtyObject[] {
  const rank = (service: string) => {
    const index = prior.findIndex((p) => p.service === service);
    return index < 0 ? prior.length : index;
  };
  return [...configs]
    .sort((a, b) => rank(a.service) - rank(b.service))
    .map((config) => ({
      service: config.service,
      audit_log_configs: (config.auditLogConfigs ?? []).map((log) => ({
        log_type: log.logType ?? '',
        exempted_members: log.exemptedMembers?.length ? [...log.exemptedMembers] : null,
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
  if (value === null || value === undefined || !isKnown(value)) return undefined;
  const object = value as CtyObject;
  return { expression: partial(object.expression), title: partial(object.title), description: partial(object.description) };
}
