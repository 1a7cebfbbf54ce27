import { AuditLogType } from './audit-log-type';
import { checkConditionAllowed, validateCondition } from './condition';
import { IamValidationError } from './errors';
import type { Grant, GrantBinding } from './grant';
import { BindingIdentity } from './identity';
import { comparisonKey, parseGrantPrincipal } from './principal';
import { validateRole } from './role';
import type { AuditConfig, ConditionInput, IsKnown } from './types';

const always: IsKnown = () => true;

/** The log types an audit config may name; `LOG_TYPE_UNSPECIFIED` is Google's "should never be this". */
export const AUDIT_LOG_TYPES: readonly string[] = Object.values(AuditLogType);

/**
 * Runs one independent check of a grant's values: `throwFirst` lets its error out (a construct stops at its first
 * mistake), `grantValueErrors` collects it and goes on with the next check.
 */
type Check = (run: () => void) => void;
const throwFirst: Check = (run) => run();

/**
 * Checks a grant's roles, principals, conditions and audit configs, the same
 * way on both sides: the constructs check what is known at synth (values
 * that are Terraform tokens are left out), the provider checks every value at
 * plan, Terraform's values resolved. Errors name the field; this throws the first.
 */
export function validateGrantValues(grant: Grant, isKnown: IsKnown = always): void {
  checkGrantValues(grant, isKnown, throwFirst);
}

/**
 * Every error `validateGrantValues` would find, not only the first: the role, the principals and the condition of
 * each binding or entry are independent checks (an HCL resource hears all of its mistakes in one plan).
 */
export function grantValueErrors(grant: Grant, isKnown: IsKnown = always): IamValidationError[] {
  const errors: IamValidationError[] = [];
  const collect: Check = (run) => {
    try {
      run();
    } catch (error) {
      if (!(error instanceof IamValidationError)) throw error;
      errors.push(error);
    }
  };
  collect(() => checkGrantValues(grant, isKnown, collect));
  return errors;
}

function checkGrantValues(grant: Grant, isKnown: IsKnown, check: Check): void {
  switch (grant.mode) {
    case 'member':
      validateBinding(
        grant.role,
        [grant.member],
        grant.condition,
        { prefix: '', members: 'member', member: () => 'member' },
        isKnown,
        check,
      );
      return;
    case 'binding':
      validateBinding(
        grant.role,
        grant.members,
        grant.condition,
        { prefix: '', members: 'members', member: (i) => `members[${i}]` },
        isKnown,
        check,
      );
      return;
    case 'policy':
      if (!isKnown(grant.bindings)) return;
      if (!Array.isArray(grant.bindings))
        throw new IamValidationError('bindings', grant.bindings, 'expected a list of { role, members, condition? }');
      grant.bindings.forEach((binding, i) => {
        const prefix = `bindings[${i}].`;
        validateBinding(
          binding.role,
          binding.members,
          binding.condition,
          { prefix, members: `${prefix}members`, member: (j) => `${prefix}members[${j}]` },
          isKnown,
          check,
        );
      });
      checkDistinctBindings(grant.bindings, isKnown);
      if (grant.auditConfigs !== undefined && isKnown(grant.auditConfigs)) validateAuditConfigs(grant.auditConfigs, isKnown);
      return;
    case 'members':
      validateEntries(grant.grants, 'grants', isKnown, check, (entry, prefix, inEntry) =>
        validateBinding(
          entry.role,
          [entry.member],
          entry.condition,
          { prefix, members: `${prefix}member`, member: () => `${prefix}member` },
          isKnown,
          inEntry,
        ),
      );
      return;
    case 'memberRoles':
      if (isKnown(grant.member)) parseGrantPrincipal(grant.member, 'member');
      validateEntries(grant.roles, 'roles', isKnown, check, (entry, prefix, inEntry) =>
        validateBinding(
          entry.role,
          [grant.member],
          entry.condition,
          { prefix, members: 'member', member: () => 'member' },
          isKnown,
          inEntry,
        ),
      );
      return;
  }
}

/**
 * The entries of a bulk grant or of a principal's roles: each validated as
 * its own grant, an error naming the entry by index and by what it grants;
 * an entry listed twice is refused (Google holds it once).
 */
function validateEntries<Entry extends { readonly role: string; readonly member?: string; readonly condition?: ConditionInput }>(
  entries: readonly Entry[],
  field: string,
  isKnown: IsKnown,
  check: Check,
  validate: (entry: Entry, prefix: string, inEntry: Check) => void,
): void {
  if (!isKnown(entries)) return;
  if (!Array.isArray(entries)) throw new IamValidationError(field, entries, 'expected a list');
  const first = new Map<string, number>();
  entries.forEach((entry, i) => {
    if (!isKnown(entry)) return;
    const prefix = `${field}[${i}].`;
    // Each check of the entry, its error saying which entry it is.
    let entryValid = true;
    const inEntry: Check = (run) => {
      entryValid =
        passes(check, () => {
          try {
            run();
          } catch (error) {
            if (!(error instanceof IamValidationError)) throw error;
            throw new IamValidationError(error.field, error.value, `${error.reason} (in ${describeEntry(entry)})`);
          }
        }) && entryValid;
    };
    validate(entry, prefix, inEntry);
    if (!entryValid || !knownThroughout(entry, isKnown)) return;
    const binding = BindingIdentity.of(entry.role, entry.condition);
    const key = `${binding.key}\n${entry.member === undefined ? '' : comparisonKey(entry.member)}`;
    const earlier = first.get(key);
    if (earlier !== undefined) {
      throw new IamValidationError(
        `${prefix}role`,
        entry.role,
        `${field}[${earlier}] already lists ${describeEntry(entry)}; list each once`,
      );
    }
    first.set(key, i);
  });
}

/** An entry as messages name it: `roles/x for user:a@example.com (condition "title")`. */
function describeEntry(entry: { readonly role: string; readonly member?: string; readonly condition?: ConditionInput }): string {
  const condition = entry.condition ? ` under the condition ${JSON.stringify(entry.condition.title)}` : '';
  return `${entry.role}${entry.member === undefined ? '' : ` for ${entry.member}`}${condition}`;
}

/** A policy declares each binding (role + condition) once: two would be one binding on Google, with one member list. */
function checkDistinctBindings(bindings: readonly GrantBinding[], isKnown: IsKnown): void {
  const first = new Map<string, number>();
  bindings.forEach((binding, i) => {
    if (!knownThroughout(binding.role, isKnown) || !knownThroughout(binding.condition, isKnown)) return;
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
function validateAuditConfigs(configs: readonly AuditConfig[], isKnown: IsKnown): void {
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
  role: string,
  members: readonly string[],
  condition: ConditionInput | undefined,
  fields: Fields,
  isKnown: IsKnown,
  check: Check,
): void {
  const roleValid = !isKnown(role) || passes(check, () => validateRole(role, `${fields.prefix}role`));
  let membersValid = true;
  if (isKnown(members)) {
    if (members.length === 0) {
      membersValid = passes(check, () => {
        throw new IamValidationError(fields.members, members, 'must list at least one principal');
      });
    }
    members.forEach((member, i) => {
      if (isKnown(member)) membersValid = passes(check, () => parseGrantPrincipal(member, fields.member(i))) && membersValid;
    });
  }
  if (!condition) return;
  const conditionValid = passes(check, () => validateCondition(condition, `${fields.prefix}condition`, isKnown));
  // Whether a condition is allowed depends on a valid role and valid principals.
  if (conditionValid && roleValid && membersValid && isKnown(role) && isKnown(members) && members.every(isKnown)) {
    check(() => checkConditionAllowed(role, members, `${fields.prefix}condition`));
  }
}

/** Runs `run` as one check; whether it passed (a failure `check` collected returns false). */
function passes(check: Check, run: () => void): boolean {
  let passed = false;
  check(() => {
    run();
    passed = true;
  });
  return passed;
}

/** Whether `value` and everything in it is known. */
function knownThroughout(value: unknown, isKnown: IsKnown): boolean {
  if (!isKnown(value)) return false;
  if (Array.isArray(value)) return value.every((item) => knownThroughout(item, isKnown));
  if (typeof value === 'object' && value !== null) return Object.values(value).every((item) => knownThroughout(item, isKnown));
  return true;
}
