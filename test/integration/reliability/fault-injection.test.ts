/**
 * The emulator answers 20% of IAM calls with 429, 500, 503, 409 ABORTED or a
 * connection reset. 50 grants must still converge within the retry bound:
 * every one present exactly once after apply, none left after destroy.
 */
import type { TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { TerraformWorkspace } from '../../support/terraform';

jest.setTimeout(300_000);

const POLICY = 'projects/demo-project/locations/global/authorizationPolicies/flaky';
const ROLE = 'roles/networksecurity.viewer';
const FOREIGN = { bindings: [{ role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] }] };
const MEMBERS = Array.from({ length: 50 }, (_, i) => `user:flaky-${i}@example.com`);

let emulator: GoogleApiEmulator;
let ws: TerraformWorkspace;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  ws = TerraformWorkspace.synth((s: TerraformStack) =>
    MEMBERS.forEach((member, i) => new AuthorizationPolicyIamMember(s, `G${i}`, { name: POLICY, role: ROLE, member })),
  );
  await ws.init();
});
afterAll(async () => {
  ws.dispose();
  await emulator.close();
});

test('50 grants converge through 20% injected faults, nothing lost or duplicated', async () => {
  emulator.addResource(POLICY, FOREIGN);
  emulator.setFaults({ rate: 0.2, kinds: ['429', '500', '503', '409', 'reset'], seed: 20261122 });
  // Retry bound per grant: 60 s of backoff starting at 50 ms.
  const env = grantEnv(emulator, { CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '60000' });

  const applied = await ws.apply(env, ['-parallelism=20']);
  expect(applied.code).toBe(0);
  expect(emulator.stats().faultsInjected).toBeGreaterThan(0);
  // The provider retried past every injected fault: besides the faulted requests, at least one read and one write got through.
  const stats = emulator.stats();
  expect(stats.getIamPolicy + stats.setIamPolicy).toBeGreaterThanOrEqual(stats.faultsInjected + 2);
  const binding = (emulator.policy(POLICY).bindings ?? []).filter((b) => b.role === ROLE);
  expect(binding).toHaveLength(1);
  expect(binding[0].members).toHaveLength(MEMBERS.length);
  expect(membersOf(emulator, POLICY, ROLE)).toEqual([...MEMBERS].sort());

  const destroyed = await ws.destroy(env, ['-parallelism=20']);
  expect(destroyed.code).toBe(0);
  expect(emulator.policy(POLICY).bindings).toEqual(FOREIGN.bindings);
});
