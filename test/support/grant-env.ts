import { GoogleApiEmulator } from '../../lib/testing';

/**
 * Environment for `terraform plan`/`apply` against the emulator: the
 * provider's endpoint overrides, an access token, and retries short enough
 * for tests.
 */
export function grantEnv(emulator: GoogleApiEmulator, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...emulator.env(),
    CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '50',
    CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '20000',
    ...overrides,
  };
}

/** Sorted members of the binding for role (+ condition title), or [] if absent. */
export function membersOf(emulator: GoogleApiEmulator, resource: string, role: string, conditionTitle?: string): string[] {
  const binding = (emulator.policy(resource).bindings ?? []).find(
    (b) => b.role === role && (conditionTitle === undefined ? !b.condition : b.condition?.title === conditionTitle),
  );
  return [...(binding?.members ?? [])].sort();
}
