import { EXTRA_ROLES_VARIABLE, parseExtraRoles, type RoleCheckOptions } from '../iam/role-check';

/**
 * The role checks' options at synth: the roles `CDKTF_GOOGLE_IAM_EXTRA_ROLES`
 * lists (roles Google added after the catalogue's date), read from the same
 * environment the provider reads at plan, so one setting serves both.
 */
export function roleCheckOptionsAtSynth(env: NodeJS.ProcessEnv = process.env): RoleCheckOptions {
  return { extraRoles: parseExtraRoles(env[EXTRA_ROLES_VARIABLE]) };
}
