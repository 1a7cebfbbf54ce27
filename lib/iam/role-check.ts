import { IamValidationError } from './errors';
import { formatCount } from './format';
import type { Grant } from './grant';
import type { IsKnown } from './types';
import { isPredefinedRoleName } from './role';
import { grantability, type RoleTarget } from './role-grantability';
import { misspellingOf, nearest } from './role-suggestions';
import { predefinedRole, roleTable } from './role-table';

/**
 * A grant's predefined roles against Google's catalogue (role-table.ts), the
 * same way at synth, in the provider and in the emulator, with every message
 * worded here:
 * - a `roles/…` Google does not list is an error naming the nearest roles
 *   that can be granted on the resource's type (a misspelling: "did you mean");
 * - a role that cannot be granted on the resource's type (Google answers "Role
 *   roles/X is not supported for this resource.") is a warning naming roles that can;
 * - a DEPRECATED role is a warning.
 * Custom roles (`projects/{p}/roles/{id}`, `organizations/{o}/roles/{id}`) pass
 * as they are, and so do the roles the user lists in EXTRA_ROLES_VARIABLE
 * (roles Google added after the catalogue's date).
 */

/** The environment variable that lists roles to accept beyond the catalogue, separated by commas or spaces. */
export const EXTRA_ROLES_VARIABLE = 'CDKTF_GOOGLE_IAM_EXTRA_ROLES';

/** How the role checks are set up. */
export interface RoleCheckOptions {
  /** Roles to accept although the catalogue does not list them (EXTRA_ROLES_VARIABLE). */
  readonly extraRoles?: ReadonlySet<string>;
}

/** A role that Google takes but that deserves a word: not grantable on the resource's type, or deprecated. */
export interface RoleWarning {
  /** Why: Google refuses the role on the resource's type, or lists it as deprecated. */
  readonly kind: 'not grantable' | 'deprecated';
  /** The field that holds the role: `role`, `bindings[2].role`. */
  readonly field: string;
  readonly role: string;
  /** What is wrong, and what to do. */
  readonly reason: string;
}

/** The roles EXTRA_ROLES_VARIABLE's value lists (commas or white space between them). */
export function parseExtraRoles(value: string | undefined): ReadonlySet<string> {
  return new Set((value ?? '').split(/[\s,]+/).filter((role) => role.length > 0));
}

/**
 * Checks every known predefined role of `grant` on `target` (undefined: a type
 * the checks cannot tell). Throws an IamValidationError for a role Google does
 * not list; returns the warnings.
 */
export function checkGrantRoles(
  grant: Grant,
  target: RoleTarget | undefined,
  isKnown: IsKnown = () => true,
  options: RoleCheckOptions = {},
): RoleWarning[] {
  if (grant.mode === 'member' || grant.mode === 'binding') return isKnown(grant.role) ? checkRole(grant.role, target, 'role', options) : [];
  const [list, field] =
    grant.mode === 'policy' ? [grant.bindings, 'bindings'] : grant.mode === 'members' ? [grant.grants, 'grants'] : [grant.roles, 'roles'];
  if (!isKnown(list) || !Array.isArray(list)) return [];
  return (list as readonly { readonly role: string }[]).flatMap((entry, i) =>
    entry !== null && typeof entry === 'object' && isKnown(entry) && isKnown(entry.role)
      ? checkRole(entry.role, target, `${field}[${i}].role`, options)
      : [],
  );
}

/** Checks one role named in `field`; throws for a `roles/…` Google does not list, returns the warnings. */
export function checkRole(role: unknown, target: RoleTarget | undefined, field: string, options: RoleCheckOptions = {}): RoleWarning[] {
  // Anything but a well-formed `roles/…` is the shape check's (role.ts), or a custom role, taken as it is.
  if (typeof role !== 'string' || !isPredefinedRoleName(role) || options.extraRoles?.has(role)) return [];
  const predefined = predefinedRole(role);
  if (!predefined) throw new IamValidationError(field, role, unknownRoleReason(role, target));
  const warnings: RoleWarning[] = [];
  if (grantability(role, target) === 'not grantable') {
    warnings.push({ kind: 'not grantable', field, role, reason: notGrantableReason(role, target!) });
  }
  if (predefined.stage === 'DEPRECATED') warnings.push({ kind: 'deprecated', field, role, reason: deprecatedReason(role, target) });
  return warnings;
}

/**
 * Whether Google's setIamPolicy takes `role` on `target`, as the emulator
 * decides it: a custom role, one the options list, or a predefined role Google
 * lists that is not refused on the target's type (see Grantability).
 */
export function isRoleAccepted(role: string, target: RoleTarget | undefined, options: RoleCheckOptions = {}): boolean {
  if (!isPredefinedRoleName(role) || options.extraRoles?.has(role)) return true;
  return predefinedRole(role) !== undefined && grantability(role, target) !== 'not grantable';
}

/** Google's own answer to a setIamPolicy that holds a role it does not take on the resource. */
export function notSupportedMessage(role: string): string {
  return `Role ${role} is not supported for this resource.`;
}

/** The role a `notSupportedMessage` (Google's wording) names, if `message` holds one. */
export function roleNotSupported(message: string): string | undefined {
  return /Role (\S+) is not supported for this resource/.exec(message)?.[1];
}

/** What the catalogue says the user can do about a role it does not list. */
function howToGoOn(date: string): string {
  return (
    `A custom role is named projects/{project}/roles/{id} or organizations/{organization}/roles/{id}; ` +
    `a role Google added after ${date} is accepted once listed in the environment variable ${EXTRA_ROLES_VARIABLE}`
  );
}

function unknownRoleReason(role: string, target: RoleTarget | undefined): string {
  const { date, roles } = roleTable();
  const what = `not one of Google's basic and predefined roles (${formatCount(roles.size)}, as IAM listed them on ${date})`;
  const misspelt = misspellingOf(role, target);
  const hint =
    misspelt.length > 0
      ? `did you mean ${listed(misspelt, 'or')}?`
      : `the nearest ${target ? `that can be granted on ${target.label}` : 'real roles'}: ${listed(nearest(role, target), 'and')}.`;
  return `${what}; ${hint} ${howToGoOn(date)}`;
}

function notGrantableReason(role: string, target: RoleTarget): string {
  return (
    `${role} cannot be granted on ${target.label}: it holds no permission on ${target.service}.${target.collection} or on what lies under them, ` +
    `and Google answers setIamPolicy with 400 INVALID_ARGUMENT "${notSupportedMessage(role)}" ` +
    `Roles that can be granted there include ${listed(nearest(role, target), 'and')}`
  );
}

function deprecatedReason(role: string, target: RoleTarget | undefined): string {
  const { date } = roleTable();
  const instead = nearest(role, target, true);
  const such = instead.length > 0 ? `, such as ${listed(instead, 'or')}` : '';
  return `Google lists ${role} as DEPRECATED (roles as IAM listed them on ${date}): it may stop working; grant a current role instead${such}`;
}

/** `a`, `a or b`, `a, b or c`. */
function listed(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}
