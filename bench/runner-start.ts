/**
 * Runner cold start: one complete grant (read, edit, write) by a fresh
 * `node dist/runner/runner.js apply` against the emulator, next to `node -e 0`,
 * and next to the floor under it: the same two calls in a fresh process with
 * nothing else, through google-auth-library (which the runner must use) and
 * through bare node:http.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GoogleApiEmulator } from '../lib/testing';
import { timeProcess } from './processes';
import { compareAll } from './stats';

const RUNNER = path.join(__dirname, '..', 'dist', 'runner', 'runner.js');
const ROUNDTRIP = path.join(__dirname, 'workers', 'iam-roundtrip.js');
const VENDOR = path.join(__dirname, '..', 'dist', 'vendor', 'google-auth.js');
const POLICY = 'projects/bench-project/locations/global/authorizationPolicies/runner';

export interface RunnerTimes {
  readonly node: number[];
  readonly runner: number[];
  readonly googleAuth: number[];
  readonly nodeHttp: number[];
}

export async function benchRunnerStart(runs: number): Promise<RunnerTimes> {
  const emulator = await GoogleApiEmulator.start();
  emulator.addResource(POLICY);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-bench-runner-'));
  let n = 0;
  // Every grant adds a new member, so each run reads and writes.
  const grantEnv = () => ({
    ...emulator.env(),
    CDKTF_GOOGLE_IAM_STATE_DIR: stateDir,
    CDKTF_GOOGLE_IAM_GRANT: JSON.stringify({
      mode: 'member',
      resource: { service: 'networksecurity', apiVersion: 'v1', name: POLICY },
      role: 'roles/networksecurity.authorizationPolicyViewer',
      member: `user:runner-${n++}@example.com`,
    }),
  });
  try {
    return await compareAll(runs, {
      node: () => timeProcess(process.execPath, ['-e', '0']),
      runner: () => timeProcess(process.execPath, [RUNNER, 'apply'], grantEnv()),
      googleAuth: () => timeProcess(process.execPath, [ROUNDTRIP, 'google-auth', VENDOR], grantEnv()),
      nodeHttp: () => timeProcess(process.execPath, [ROUNDTRIP, 'node-http'], grantEnv()),
    });
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
    await emulator.close();
  }
}
