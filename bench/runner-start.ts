/**
 * Runner cold start: one complete grant (read, edit, write) by a fresh
 * `node dist/runner/runner.js apply` against the emulator, next to `node -e 0`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AUTHORIZATION_POLICY_TYPE } from '../lib/grant/resource-type';
import { GoogleApiEmulator } from '../test/emulator';
import { timeProcess } from './processes';
import { compare, type Comparison } from './stats';

const RUNNER = path.join(__dirname, '..', 'dist', 'runner', 'runner.js');
const POLICY = 'projects/bench-project/locations/global/authorizationPolicies/runner';

export async function benchRunnerStart(runs: number): Promise<Comparison> {
  const emulator = await GoogleApiEmulator.start();
  emulator.addResource(POLICY);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-bench-runner-'));
  let n = 0;
  try {
    return await compare(
      runs,
      () => timeProcess(process.execPath, [RUNNER, 'apply'], {
        ...emulator.env(),
        CDKTF_GOOGLE_IAM_STATE_DIR: stateDir,
        CDKTF_GOOGLE_IAM_GRANT: JSON.stringify({
          type: AUTHORIZATION_POLICY_TYPE.key, mode: 'member', resource: POLICY,
          role: 'roles/networksecurity.authorizationPolicyViewer', members: [`user:runner-${n++}@example.com`],
        }),
      }),
      () => timeProcess(process.execPath, ['-e', '0']),
    );
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
    await emulator.close();
  }
}
