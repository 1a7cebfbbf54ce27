import type { Binding } from '../../lib/iam/types';
import type { GoogleApiEmulator, PolicyWrite } from '../../lib/testing';

/** The members of role (+ condition title) in one written policy, sorted. */
export function membersIn(write: PolicyWrite, role: string, conditionTitle?: string): string[] {
  const binding = (write.policy.bindings ?? []).find(
    (b: Binding) => b.role === role && (conditionTitle === undefined ? !b.condition : b.condition?.title === conditionTitle),
  );
  return [...(binding?.members ?? [])].sort();
}

/**
 * The writes to `resource` after `since` (a write count taken before the
 * step), each as the members of role (+ condition title) it left behind.
 */
export function historyOf(emulator: GoogleApiEmulator, resource: string, role: string, conditionTitle?: string): string[][] {
  return emulator.writes(resource).map((write) => membersIn(write, role, conditionTitle));
}

/** Every write to `resource` kept every one of `principals` in role (+ condition): nobody lacked access in between. */
export function expectNoGap(
  emulator: GoogleApiEmulator,
  resource: string,
  role: string,
  principals: string[],
  conditionTitle?: string,
): void {
  const lacking = emulator
    .writes(resource)
    .map((write) => ({ seq: write.seq, missing: principals.filter((p) => !membersIn(write, role, conditionTitle).includes(p)) }))
    .filter((w) => w.missing.length > 0);
  expect(lacking).toEqual([]);
}
