/**
 * Two teams, two stacks, two `terraform` processes at the same moment, 100
 * member grants each on the same policy. Each apply has its own lock
 * directory (different machines share no lock), so only the etag
 * read-modify-write keeps either from losing the other's grants.
 */
import type { TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { TerraformWorkspace, workspacesOfThisFile } from '../../support/terraform';

jest.setTimeout(300_000);

const POLICY = 'projects/demo-project/locations/global/authorizationPolicies/shared';
const ROLE = 'roles/networksecurity.viewer';
const FOREIGN = {
  version: 3,
  bindings: [
    { role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] },
    {
      role: ROLE,
      members: ['group:auditors@example.com'],
      condition: { title: 'foreign', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' },
    },
  ],
  auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'ADMIN_READ' }] }],
};
const PER_STACK = 100;

let emulator: GoogleApiEmulator;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(async () => {
  await emulator.close();
});

function teamMembers(team: string): string[] {
  return Array.from({ length: PER_STACK }, (_, i) => `user:${team}-${i}@example.com`);
}

async function teamStack(team: string): Promise<TerraformWorkspace> {
  const ws = await workspace(
    (s: TerraformStack) =>
      teamMembers(team).forEach((member, i) => new AuthorizationPolicyIamMember(s, `G${i}`, { name: POLICY, role: ROLE, member })),
    team,
  );
  return ws;
}

test('two stacks applied and destroyed at the same moment lose nothing', async () => {
  emulator.addResource(POLICY, FOREIGN);
  const [red, blue] = await Promise.all([teamStack('red'), teamStack('blue')]);
  const redEnv = grantEnv(emulator);
  const blueEnv = grantEnv(emulator);

  const applied = await Promise.all([red.apply(redEnv, ['-parallelism=10']), blue.apply(blueEnv, ['-parallelism=10'])]);
  applied.forEach((result) => expect(result.code).toBe(0));
  const granted = membersOf(emulator, POLICY, ROLE);
  expect(granted).toEqual([...teamMembers('red'), ...teamMembers('blue')].sort());
  expect(new Set(granted).size).toBe(2 * PER_STACK);

  const destroyed = await Promise.all([red.destroy(redEnv, ['-parallelism=10']), blue.destroy(blueEnv, ['-parallelism=10'])]);
  destroyed.forEach((result) => expect(result.code).toBe(0));
  expect(emulator.policy(POLICY).bindings).toEqual(FOREIGN.bindings);
  expect(emulator.policy(POLICY).auditConfigs).toEqual(FOREIGN.auditConfigs);
});
