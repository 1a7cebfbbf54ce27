/**
 * Deploy benchmark: 100 member grants on one policy through the real
 * `terraform apply -parallelism=10` against the emulator, next to the floor
 * of 100 `terraform_data` whose local-exec only starts `node -e 0`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DataResource, type TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember } from '../lib';
import { GoogleApiEmulator } from '../lib/testing';
import { TerraformWorkspace } from '../test/support/terraform';
import { timeProcess } from './processes';
import { median } from './stats';

const POLICY = 'projects/bench-project/locations/global/authorizationPolicies/ap';
const ROLE = 'roles/networksecurity.authorizationPolicyViewer';
const FOREIGN = { bindings: [{ role: 'roles/networksecurity.authorizationPolicyAdmin', members: ['user:owner@example.com'] }] };

export interface DeployResult {
  readonly grantMs: number[];
  readonly floorMs: number[];
  readonly callsPerGrant: number;
  readonly conflicts: number;
  readonly allPresent: boolean;
}

export async function benchDeploy(grants: number, runs: number, parallelism: number): Promise<DeployResult> {
  const emulator = await GoogleApiEmulator.start();
  const members = Array.from({ length: grants }, (_, i) => `user:member-${i}@example.com`);
  const grantsWs = TerraformWorkspace.synth((s: TerraformStack) => members.forEach((member, i) =>
    new AuthorizationPolicyIamMember(s, `M${i}`, { name: POLICY, role: ROLE, member })));
  const floorWs = TerraformWorkspace.synth((s: TerraformStack) => members.forEach((_, i) =>
    new DataResource(s, `F${i}`, {
      input: { i },
      provisioners: [{ type: 'local-exec', interpreter: ['node', '-e', '0'], command: 'floor' }],
    })));
  const result: DeployResult = { grantMs: [], floorMs: [], callsPerGrant: 0, conflicts: 0, allPresent: true };
  const calls: number[] = [];
  let conflicts = 0;
  try {
    await grantsWs.init();
    await floorWs.init();
    const apply = (ws: TerraformWorkspace, env: Record<string, string>) => {
      fs.rmSync(path.join(ws.dir, 'terraform.tfstate'), { force: true });
      return timeProcess('terraform', ['apply', '-auto-approve', '-input=false', '-no-color', `-parallelism=${parallelism}`],
        { TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...env }, ws.dir);
    };
    for (let run = 0; run <= runs; run++) {
      const floorMs = await apply(floorWs, {});
      emulator.addResource(POLICY, FOREIGN);
      emulator.resetStats();
      const grantMs = await apply(grantsWs, {
        ...emulator.env(),
        CDKTF_GOOGLE_IAM_STATE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-bench-')),
      });
      const stats = emulator.stats();
      const granted = emulator.policy(POLICY).bindings?.find((b) => b.role === ROLE && !b.condition)?.members ?? [];
      if (granted.length !== grants) (result as { allPresent: boolean }).allPresent = false;
      if (run === 0) continue; // warm-up: terraform's and the OS's caches
      result.floorMs.push(floorMs);
      result.grantMs.push(grantMs);
      calls.push((stats.getIamPolicy + stats.setIamPolicy) / grants);
      conflicts += stats.conflicts;
    }
  } finally {
    grantsWs.dispose();
    floorWs.dispose();
    await emulator.close();
  }
  return { ...result, callsPerGrant: median(calls), conflicts };
}
