import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GoogleApiEmulator } from '../../lib/testing';

/**
 * Environment for `terraform apply` against the emulator: endpoint overrides,
 * an access token, a private lock/queue directory, and retries short enough
 * for tests.
 */
export function grantEnv(emulator: GoogleApiEmulator, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...emulator.env(),
    CDKTF_GOOGLE_IAM_STATE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-locks-')),
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
