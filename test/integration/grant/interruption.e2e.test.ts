/**
 * After an interrupted or failed create, Google and Terraform agree. Terraform
 * taints an instance whose create provisioner failed and never runs destroy
 * provisioners for tainted objects, so a grant whose write reached Google
 * while its create "failed" would be revoked by nothing. Each reproduction
 * of issue 23 is played with the real `terraform`, then followed by
 * `terraform destroy` and by deleting the grant from the code, and checked on
 * the emulator's full write history.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, MigrationJobIamBinding } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { ApiError } from '../../../lib/testing/emulator/api-error';
import { grantEnv, membersOf } from '../../support/grant-env';
import { startInGroup, workerReport } from '../../support/interrupted-run';
import { workspacesOfThisFile, type TerraformWorkspace } from '../../support/terraform';
import { historyOf } from '../../support/write-history';

jest.setTimeout(240_000);

const VIEWER = 'roles/networksecurity.authorizationPolicyViewer';
const DMS_VIEWER = 'roles/datamigration.viewer';
const FOREIGN = { role: 'roles/networksecurity.authorizationPolicyAdmin', members: ['user:owner@example.com'] };
const MEMBER = 'user:interrupted@example.com';

let emulator: GoogleApiEmulator;
let counter = 0;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterEach(() => {
  emulator.afterWrite = undefined;
  emulator.setFaults(undefined);
});
afterAll(() => emulator.close());

/** A fresh authorization policy (someone else's binding on it) and migration job. */
function resources(): { ap: string; mj: string } {
  counter++;
  const ap = `projects/demo-project/locations/global/authorizationPolicies/interrupt-${counter}`;
  const mj = `projects/demo-project/locations/us-central1/migrationJobs/interrupt-${counter}`;
  emulator.addResource(ap, { bindings: [FOREIGN] });
  emulator.addResource(mj);
  return { ap, mj };
}

/** The grant under test on `ap`, and another one on `mj` that keeps the stack's grants resource when it is deleted. */
const stack =
  (ap: string, mj: string, withGrant = true) =>
  (s: TerraformStack) => {
    if (withGrant) new AuthorizationPolicyIamMember(s, 'Interrupted', { name: ap, role: VIEWER, member: MEMBER });
    new MigrationJobIamBinding(s, 'Other', { name: mj, role: DMS_VIEWER, members: ['user:other@example.com'] });
  };

/** The stack with only the other grant deployed, then the grant under test added to the code: its create is the apply's only work. */
async function withGrantToCreate(ap: string, mj: string, env: Record<string, string>): Promise<TerraformWorkspace> {
  const ws = await workspace(stack(ap, mj, false));
  expect((await ws.apply(env)).code).toBe(0);
  ws.resynth(stack(ap, mj));
  emulator.clearWrites();
  return ws;
}

/** The follow-up: `destroy`, or deleting the grant from the code and applying. Either must leave the policy as it was before. */
async function followUp(
  kind: 'destroy' | 'delete from the code',
  ws: TerraformWorkspace,
  ap: string,
  mj: string,
  env: Record<string, string>,
) {
  let output: string;
  if (kind === 'destroy') {
    const destroyed = await ws.destroy(env);
    expect(destroyed.code).toBe(0);
    output = destroyed.output;
  } else {
    ws.resynth(stack(ap, mj, false));
    const applied = await ws.apply(env);
    expect(applied.code).toBe(0);
    output = applied.output;
  }
  expect(emulator.policy(ap).bindings).toEqual([FOREIGN]);
  return output;
}

describe.each(['destroy', 'delete from the code'] as const)('then %s', (kind) => {
  test('Ctrl-C while the answer to a write that took effect is on its way: the worker takes it back; nothing is left to revoke', async () => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator);
    const ws = await withGrantToCreate(ap, mj, env);

    let release!: () => void;
    const inFlight = new Promise<void>((arrived) => {
      emulator.afterWrite = (requestPath) => {
        if (!requestPath.includes(ap)) return undefined;
        emulator.afterWrite = undefined;
        arrived();
        return new Promise<void>((resolve) => (release = resolve));
      };
    });
    const run = startInGroup(ws, ['apply', '-auto-approve', '-input=false', '-no-color'], env);
    await inFlight;
    expect(membersOf(emulator, ap, VIEWER)).toEqual([MEMBER]); // the write took effect; its answer is held
    run.signal('SIGINT');
    const interrupted = await run.done;
    expect(interrupted.code).not.toBe(0);
    release();

    const report = await workerReport(env.CDKTF_GOOGLE_IAM_STATE_DIR);
    expect(report).toMatch(
      /interrupted, so Terraform counts this create as failed: the write in flight was carried out, and has been taken back \(removed user:interrupted@example\.com\)/,
    );
    expect(historyOf(emulator, ap, VIEWER)).toEqual([[MEMBER], []]);
    expect(await ws.stateList()).toEqual(expect.arrayContaining([expect.stringContaining(MEMBER)]));

    emulator.clearWrites();
    const next = await followUp(kind, ws, ap, mj, env);
    expect(emulator.writes(ap)).toEqual([]);
    // The next run of a grant (here: the other grant's removal) prints what the worker had to say.
    if (kind === 'destroy') expect(next).toMatch(/a run interrupted earlier reported:[\s\S]*has been taken back/);
  });

  test('a 503 after a write that took effect, then failing reads: the runner says the outcome is unknown and the one command that settles it', async () => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator, { CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '1000' });
    const ws = await withGrantToCreate(ap, mj, env);
    emulator.afterWrite = (requestPath) => {
      if (!requestPath.includes(ap)) return;
      emulator.afterWrite = undefined;
      emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['getIamPolicy'] });
      throw new ApiError(503, 'UNAVAILABLE', 'The service is currently unavailable (injected after the write).');
    };

    const failed = await ws.apply(env);
    expect(failed.code).not.toBe(0);
    expect(failed.output).toMatch(/The outcome is UNKNOWN: a write was sent and no answer said whether Google carried it out/);
    expect(failed.output).toMatch(/run terraform apply \(cdktf deploy\) again once Google answers/);
    expect(failed.output).not.toMatch(/left as it was/);
    expect(historyOf(emulator, ap, VIEWER)).toEqual([[MEMBER]]);

    // The one command: the next apply applies the grant again (already there: no write), and Terraform tracks it.
    emulator.setFaults(undefined);
    emulator.clearWrites();
    const settled = await ws.apply(env);
    expect(settled.code).toBe(0);
    expect(settled.output).toMatch(/user:interrupted@example\.com was already granted/);
    expect(emulator.writes(ap)).toEqual([]);

    await followUp(kind, ws, ap, mj, env);
    expect(historyOf(emulator, ap, VIEWER)).toEqual([[]]);
  });

  test('the state folder fills up while the lock holder works: the write that took effect is reported as done', async () => {
    const { ap, mj } = resources();
    const mount = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', mount]);
    try {
      const env = grantEnv(emulator, { CDKTF_GOOGLE_IAM_STATE_DIR: path.join(mount, 'state') });
      const ws = await withGrantToCreate(ap, mj, env);
      const filler = path.join(mount, 'filler');
      emulator.afterWrite = (requestPath) => {
        if (!requestPath.includes(ap)) return;
        emulator.afterWrite = undefined;
        fillUp(filler);
      };

      const applied = await ws.apply(env);
      expect(applied.code).toBe(0);
      expect(applied.output).toMatch(/added user:interrupted@example\.com/);
      expect(historyOf(emulator, ap, VIEWER)).toEqual([[MEMBER]]);

      fs.rmSync(filler);
      emulator.clearWrites();
      await followUp(kind, ws, ap, mj, env);
      expect(historyOf(emulator, ap, VIEWER)).toEqual([[]]);
    } finally {
      execFileSync('umount', [mount]);
      fs.rmSync(mount, { recursive: true, force: true });
    }
  });
});

/** Writes into `file` until the file system is full. */
function fillUp(file: string): void {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
}
