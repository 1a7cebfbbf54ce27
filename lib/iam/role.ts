import { IamValidationError } from './errors';
import { PROJECT_ID_SOURCE } from './resource-name';

/** The basic (primitive) roles: they may not carry a condition. */
const BASIC_ROLES: ReadonlySet<string> = new Set(['roles/owner', 'roles/editor', 'roles/viewer']);

const EXPECTED_ROLE =
  'expected roles/{name} (e.g. roles/networksecurity.admin), projects/{project}/roles/{id} or organizations/{organization}/roles/{id}';

/**
 * One pattern per accepted form. Predefined role names are dotted identifiers
 * (`roles/datamigration.admin`, `roles/owner`); custom role IDs are 3–64 of
 * letters, digits, `_` and `.` (Google's rule for `roleId`).
 */
const PREDEFINED_ROLE = /^roles\/[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z0-9_]+)*$/;
const ROLE_PATTERNS: readonly RegExp[] = [
  PREDEFINED_ROLE,
  new RegExp(`^projects/${PROJECT_ID_SOURCE}/roles/[a-zA-Z0-9_.]{3,64}$`),
  /^organizations\/[0-9]+\/roles\/[a-zA-Z0-9_.]{3,64}$/,
];

/** Returns the role unchanged when it has one of the three accepted forms. */
export function validateRole(role: string, field = 'role'): string {
  if (typeof role !== 'string' || role.length === 0) {
    throw new IamValidationError(field, role, `a role is required; ${EXPECTED_ROLE}`);
  }
  if (!ROLE_PATTERNS.some((pattern) => pattern.test(role))) {
    throw new IamValidationError(field, role, `not a role name; ${EXPECTED_ROLE}`);
  }
  return role;
}

/** `roles/owner`, `roles/editor` and `roles/viewer`. */
export function isBasicRole(role: string): boolean {
  return BASIC_ROLES.has(role);
}

/** Whether `role` has the form of a basic or predefined role, `roles/{name}` (not whether Google lists it: role-check.ts). */
export function isPredefinedRoleName(role: string): boolean {
  return PREDEFINED_ROLE.test(role);
}
