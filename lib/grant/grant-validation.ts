import type { IConstruct } from 'constructs';
import { checkConditionAllowed, validateCondition } from '../iam/condition';
import { IamValidationError } from '../iam/errors';
import type { Grant, GrantBinding } from '../iam/grant';
import { BindingIdentity } from '../iam/identity';
import { parseGrantPrincipal } from '../iam/principal';
import { validateRole } from '../iam/role';
import type { AuditConfig, ConditionInput } from '../iam/types';
import { checkAt } from '../synth/errors';
import { holdsTokens } from '../synth/terraform-expression';
import { AuditLogType } from './audit-log-type';
import { isKnown } from '../synth/known-values';

/** The log types an audit config may name; `LOG_TYPE_UNSPECIFIED` is Google's "should never be this". */
export const AUDIT_LOG_TYPES: readonly string[] = Object.values(AuditLogType);

/**
 * Checks what is known at synth of a grant's roles, principals and
 * conditions; values that are Terraform tokens are left for Google to check
 * at apply time. Errors name the construct path and the props field.
 */
export function validateGrant(scope: IConstruct, grant: Grant): void {
  switch (grant.mode) {
    case 'member':
      validateBinding(scope, grant.role, [grant.member], grant.condition, { prefix: '', members: 'member', member: () => 'member' });
      return;
    case 'binding':
      validateBinding(scope, grant.role, grant.members, grant.condition, {
        prefix: '',
        members: 'members',
        member: (i) => `members[${i}]`,
      });
      return;
    case 'policy':
      if (!isKnown(grant.bindings)) return;
      if (!Array.isArray(grant.bindings))
        checkAt(scope, () => {
          throw new IamValidationError('bindings', grant.bindings, 'expected a list of { role, members, condition? }');
        });
      grant.bindings.forEach((binding, i) => {
        const prefix = `bindings[${i}].`;
        validateBinding(scope, binding.role, binding.members, binding.condition, {
          prefix,
          members: `${prefix}members`,
          member: (j) => `${prefix}members[${j}]`,
        });
      });
      checkAt(scope, () => checkDistinctBindings(grant.bindings));
      if (grant.auditConfigs !== undefined && isKnown(grant.auditConfigs)) checkAt(scope, () => validateAuditConfigs(grant.auditConfigs!));
      return;
  }
}

/** A policy declares each binding (role + condition) once: two would be one binding on Google, with one member list. */
function checkDistinctBindings(bindings: readonly GrantBinding[]): void {
  const first = new Map<string, number>();
  bindings.forEach((binding, i) => {
    if (holdsTokens(binding.role) || holdsTokens(binding.condition)) return;
    const key = BindingIdentity.ofBinding(binding).key;
    const earlier = first.get(key);
    if (earlier === undefined) {
      first.set(key, i);
      return;
    }
    const what = binding.condition ? `role and condition (${JSON.stringify(binding.condition.title)})` : 'role, unconditional';
    throw new IamValidationError(
      `bindings[${i}].role`,
      binding.role,
      `bindings[${earlier}] already declares this binding (same ${what}); list all its members in one binding`,
    );
  });
}

/** Audit configs: a service once each, its log types among ADMIN_READ, DATA_WRITE and DATA_READ, once each, exemptions valid principals. */
function validateAuditConfigs(configs: readonly AuditConfig[]): void {
  if (!Array.isArray(configs as unknown))
    throw new IamValidationError('auditConfigs', configs, 'expected a list of { service, auditLogConfigs }');
  const services = new Map<string, number>();
  configs.forEach((config: AuditConfig, i: number) => {
    const field = `auditConfigs[${i}]`;
    if (isKnown(config.service)) {
      if (typeof config.service !== 'string' || !/^(allServices|[a-z][a-z0-9-]*(\.[a-z0-9-]+)+)$/.test(config.service)) {
        throw new IamValidationError(
          `${field}.service`,
          config.service,
          'expected allServices or a service name such as secretmanager.googleapis.com',
        );
      }
      const earlier = services.get(config.service);
      if (earlier !== undefined)
        throw new IamValidationError(
          `${field}.service`,
          config.service,
          `auditConfigs[${earlier}] already configures this service; merge them`,
        );
      services.set(config.service, i);
    }
    if (!isKnown(config.auditLogConfigs)) return;
    const logTypes = new Map<string, number>();
    (config.auditLogConfigs ?? []).forEach((logConfig, j) => {
      const logField = `${field}.auditLogConfigs[${j}]`;
      const { logType, exemptedMembers } = logConfig;
      if (isKnown(logType)) {
        if (logType === 'LOG_TYPE_UNSPECIFIED') {
          throw new IamValidationError(
            `${logField}.logType`,
            logType,
            `Google documents it as "should never be this"; expected one of ${AUDIT_LOG_TYPES.join(', ')}`,
          );
        }
        if (!AUDIT_LOG_TYPES.includes(logType as string)) {
          throw new IamValidationError(
            `${logField}.logType`,
            logType,
            `expected one of ${AUDIT_LOG_TYPES.join(', ')} (admin writes are always logged)`,
          );
        }
        const earlier = logTypes.get(logType as string);
        if (earlier !== undefined)
          throw new IamValidationError(
            `${logField}.logType`,
            logType,
            `${field}.auditLogConfigs[${earlier}] already configures ${logType}; merge their exemptions`,
          );
        logTypes.set(logType as string, j);
      }
      if (exemptedMembers !== undefined && isKnown(exemptedMembers)) {
        exemptedMembers.forEach((member, k) => {
          if (isKnown(member)) parseGrantPrincipal(member, `${logField}.exemptedMembers[${k}]`);
        });
      }
    });
  });
}

interface Fields {
  readonly prefix: string;
  readonly members: string;
  readonly member: (index: number) => string;
}

function validateBinding(
  scope: IConstruct,
  role: string,
  members: readonly string[],
  condition: ConditionInput | undefined,
  fields: Fields,
): void {
  if (isKnown(role)) checkAt(scope, () => validateRole(role, `${fields.prefix}role`));
  if (isKnown(members)) {
    if (members.length === 0)
      checkAt(scope, () => {
        throw new IamValidationError(fields.members, members, 'must list at least one principal');
      });
    members.forEach((member, i) => {
      if (isKnown(member)) checkAt(scope, () => parseGrantPrincipal(member, fields.member(i)));
    });
  }
  if (!condition) return;
  checkAt(scope, () => validateCondition(condition, `${fields.prefix}condition`, isKnown));
  if (isKnown(role) && isKnown(members) && members.every(isKnown)) {
    checkAt(scope, () => checkConditionAllowed(role, members, `${fields.prefix}condition`));
  }
}
