import { isBasicRole } from './role';
import { predefinedRole, prefixNumbersOf, resourceTypeRow, roleTable, type PredefinedRole } from './role-table';

/** The resource type a role is granted on, as the role checks take it. */
export interface RoleTarget {
  /** The API that serves its policy, e.g. `networksecurity`. */
  readonly service: string;
  /** The last literal segment of its name template, e.g. `authorizationPolicies` (`projects/*\/locations/*\/authorizationPolicies/*`). */
  readonly collection: string;
  /** How messages name it, after "on": `an authorization policy`, `projects/*\/secrets/* (secretmanager)`. */
  readonly label: string;
}

/**
 * Whether Google accepts a role in a resource's policy. Google refuses a role
 * that holds no permission on the resource's type or on what lies under it
 * ("Role roles/X is not supported for this resource."):
 * - `grantable`: it holds one (or it is a basic role, which Google takes wherever it takes a role);
 * - `perhaps`: it holds only permissions the catalogue cannot place, so it is not refused here;
 * - `not grantable`: it holds none;
 * - `unchecked`: the type is not in the catalogue (a project, folder or organization, which take every
 *   role, or a collection whose permissions are named otherwise): nothing is said.
 */
export type Grantability = 'grantable' | 'perhaps' | 'not grantable' | 'unchecked';

const grantableByType = new Map<string, readonly PredefinedRole[]>();

/** Whether `role` can be granted on `target` (see Grantability); a role not in the catalogue is `unchecked`. */
export function grantability(role: string, target: RoleTarget | undefined): Grantability {
  const type = target && resourceTypeRow(target.service, target.collection);
  const predefined = predefinedRole(role);
  if (!type || !predefined) return 'unchecked';
  if (isBasicRole(role)) return 'grantable';
  const held = prefixNumbersOf(predefined);
  if ([...type.sure].some((n) => held.has(n))) return 'grantable';
  if ([...type.maybe].some((n) => held.has(n))) return 'perhaps';
  return 'not grantable';
}

/**
 * The roles that can be granted on `target` for sure, by name; every role of
 * the catalogue when the type is not in it.
 */
export function rolesGrantableOn(target: RoleTarget | undefined): readonly PredefinedRole[] {
  const type = target && resourceTypeRow(target.service, target.collection);
  const key = type ? `${type.service} ${type.collection}` : '';
  let roles = grantableByType.get(key);
  if (!roles) {
    const all = [...roleTable().roles.values()];
    roles = type ? all.filter((role) => grantability(role.name, target) === 'grantable') : all;
    grantableByType.set(key, roles);
  }
  return roles;
}

/** Whether the catalogue knows `target`'s type, so that a role's grantability on it is checked. */
export function isCheckedType(target: RoleTarget | undefined): boolean {
  return target !== undefined && resourceTypeRow(target.service, target.collection) !== undefined;
}
