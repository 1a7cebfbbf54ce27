/**
 * The runner as Terraform starts it (a supervisor and its worker), signalled
 * while the answer to its write is in flight: the exit status tells the truth,
 * and the write history shows the grant taken back or finished.
 */
import { spawn } from 'child_process';
import * as path from 'path';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { historyOf } from '../../support/write-history';

jest.setTimeout(60_000);

const RUNNER = path.join(__dirname, '..', '..', '..', 'dist', 'runner', 'runner.js');
const VIEWER = 'roles/networksecurity.authorizationPolicyViewer';
const MEMBER = 'user:signalled@example.com';
let counter = 0;

let emulator: GoogleApiEmulator;
beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterEach(() => {
  emulator.afterWrite = undefined;
});
afterAll(() => emulator.close());

const grant = (ap: string) =>
  JSON.stringify({ mode: 'member', resource: { service: 'networksecurity', apiVersion: 'v1', name: ap }, role: VIEWER, member: MEMBER });

/** Runs the runner, holds the answer to its write, sends `signal` to the runner's process alone, then lets the answer go. */
async function signalledWhileWriting(action: 'apply' | 'remove', ap: string, signal: NodeJS.Signals) {
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => {
    emulator.afterWrite = () => {
      emulator.afterWrite = undefined;
      resolve();
      return new Promise<void>((r) => (release = r));
    };
  });
  const child = spawn(process.execPath, [RUNNER, action], {
    env: { ...process.env, ...grantEnv(emulator), CDKTF_GOOGLE_IAM_GRANT: grant(ap), CDKTF_GOOGLE_IAM_LABEL: 'Test' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await arrived;
  child.kill(signal);
  release();
  return { code: await exited, output };
}

test.each(['SIGINT', 'SIGTERM'] as const)(
  '%s during a create: the write in flight is taken back and the runner exits 1',
  async (signal) => {
    const ap = `projects/demo-project/locations/global/authorizationPolicies/signal-${++counter}`;
    emulator.addResource(ap);
    emulator.clearWrites();
    const { code, output } = await signalledWhileWriting('apply', ap, signal);
    expect(code).toBe(1);
    expect(output).toContain(`${signal}: the grant in progress is finished by its worker`);
    expect(output).toMatch(/the write in flight was carried out, and has been taken back \(removed user:signalled@example\.com\)/);
    expect(historyOf(emulator, ap, VIEWER)).toEqual([[MEMBER], []]);
  },
);

test('SIGTERM during a removal: the removal in flight is finished and the runner exits 0', async () => {
  const ap = `projects/demo-project/locations/global/authorizationPolicies/signal-${++counter}`;
  emulator.addResource(ap, { bindings: [{ role: VIEWER, members: [MEMBER] }] });
  emulator.clearWrites();
  const { code, output } = await signalledWhileWriting('remove', ap, 'SIGTERM');
  expect(code).toBe(0);
  expect(output).toContain('removed user:signalled@example.com');
  expect(historyOf(emulator, ap, VIEWER)).toEqual([[]]);
  expect(membersOf(emulator, ap, VIEWER)).toEqual([]);
});
