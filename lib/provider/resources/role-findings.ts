import type { Grant } from '../../iam/grant';
import { checkGrantRoles, EXTRA_ROLES_VARIABLE, parseExtraRoles, type RoleWarning } from '../../iam/role-check';
import { reportRoleWarning, UNKNOWN_ROLE_SUMMARY } from '../errors';
import type { CtyObject } from '../framework/cty';
import { knownValue } from '../framework/cty-values';
import type { Diagnostics } from '../framework/diagnostics';
import type { IamTypeDescriptor } from './iam-type-descriptor';

/**
 * A grant's roles against Google's catalogue (lib/iam/role-check.ts) once
 * Terraform knows them, as the constructs check them at synth: a role Google
 * does not list is one of the grant's refusals; one it takes but not on this
 * resource type, or a deprecated one, is a warning. The roles
 * `CDKTF_GOOGLE_IAM_EXTRA_ROLES` lists in Terraform's environment pass.
 */

/** Why `grant` (its known values, `values` its configuration or plan) is refused for a role, if it is. */
export function roleRefusal(
  descriptor: IamTypeDescriptor,
  grant: Grant,
  values: CtyObject,
): { summary: string; error: unknown } | undefined {
  try {
    roleWarnings(descriptor, grant, values);
    return undefined;
  } catch (error) {
    return { summary: UNKNOWN_ROLE_SUMMARY, error };
  }
}

/**
 * Reports the warnings of `grant`'s roles (a role Google does not list is roleRefusal's) inside a plan or
 * apply walk (`providerConfigured`) only: that walk sees the roles known statically and those known only at
 * plan, and Terraform would print a warning of both validations twice.
 */
export function reportRoleWarnings(
  diagnostics: Diagnostics,
  descriptor: IamTypeDescriptor,
  grant: Grant,
  values: CtyObject,
  providerConfigured: boolean,
): void {
  if (!providerConfigured) return;
  let warnings: RoleWarning[];
  try {
    warnings = roleWarnings(descriptor, grant, values);
  } catch {
    return;
  }
  for (const warning of warnings) reportRoleWarning(diagnostics, warning);
}

function roleWarnings(descriptor: IamTypeDescriptor, grant: Grant, values: CtyObject): RoleWarning[] {
  const options = { extraRoles: parseExtraRoles(process.env[EXTRA_ROLES_VARIABLE]) };
  return checkGrantRoles(grant, descriptor.roleTarget(values), knownValue, options);
}
