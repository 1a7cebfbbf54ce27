/**
 * Drift, end to end: `terraform plan` compares the stack's grants with the
 * emulator (through the runner and the stand-in external provider) and warns
 * about every difference the code owns, naming the repair command; running
 * that command repairs it and the next plan is clean.
 */
import { TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, GoogleIamGrants, MigrationJobIamBinding, type IamCondition } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { TerraformWorkspace, workspacesOfThisFile, type CommandResult } from '../../support/terraform';

jest.setTimeout(240_000);

const VIEWER = 'roles/networksecurity.authorizationPolicyViewer';
const ADMIN = 'roles/networksecurity.authorizationPolicyAdmin';
const DMS_VIEWER = 'roles/datamigration.viewer';
const TEMPORARY: IamCondition = { title: 'temporary', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };

let emulator: GoogleApiEmulator;
let counter = 0;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(async () => {
  await emulator.close();
});

function resources(): { ap: string; mj: string } {
  counter++;
  const ap = `projects/demo-project/locations/global/authorizationPolicies/drift-${counter}`;
  const mj = `projects/demo-project/locations/us-central1/migrationJobs/drift-${counter}`;
  emulator.addResource(ap, { bindings: [{ role: ADMIN, members: ['user:owner@example.com'] }] });
  emulator.addResource(mj);
  return { ap, mj };
}

async function deployed(build: (stack: TerraformStack) => void, env: Record<string, string>): Promise<TerraformWorkspace> {
  const ws = await workspace(build);
  const applied = await ws.apply(env);
  expect({ code: applied.code, output: applied.code === 0 ? '' : applied.output }).toEqual({ code: 0, output: '' });
  return ws;
}

/**
 * The drift reports of a plan (the checks' messages), one per drifted grant.
 * Terraform prints each twice: as the value it checked (quotes escaped) and as
 * the message; the message is kept.
 */
function driftReports(plan: CommandResult): string[] {
  const text = plan.output.replace(/\s*\n\s*/g, ' ');
  return [
    ...text.matchAll(/(?:AuthorizationPolicyIamMember|MigrationJobIamBinding) grants\/\S+: .*?Repair: terraform apply -replace='[^']+'/g),
  ]
    .map((m) => m[0])
    .filter((report) => !report.includes('\\"'));
}

/** The `-replace=...` arguments the reports name. */
function repairArguments(plan: CommandResult): string[] {
  return driftReports(plan)
    .map((report) => /Repair: terraform apply -replace='([^']+)'/.exec(report)![1])
    .map((address) => `-replace=${address}`);
}

const stack = (ap: string, mj: string) => (s: TerraformStack) => {
  new AuthorizationPolicyIamMember(s, 'Alice', { name: ap, role: VIEWER, member: 'user:alice@example.com' });
  new AuthorizationPolicyIamMember(s, 'Bob', { name: ap, role: VIEWER, member: 'user:bob@example.com', condition: TEMPORARY });
  new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_VIEWER, members: ['user:a@example.com', 'user:b@example.com'] });
};

test('a member removed in the console is reported by plan; the printed command repairs it and the next plan is clean', async () => {
  const { ap, mj } = resources();
  const env = grantEnv(emulator);
  const ws = await deployed(stack(ap, mj), env);

  const clean = await ws.plan(env);
  expect(clean.code).toBe(0);
  expect(clean.output).toContain('No changes');
  expect(clean.output).not.toContain('Warning');

  // Someone removes bob (conditional) in the console.
  emulator.addResource(ap, { ...emulator.policy(ap), bindings: emulator.policy(ap).bindings?.filter((b) => !b.condition) });
  const drifted = await ws.plan(env);
  expect(drifted.code).toBe(0); // a warning, not an error: the plan itself has no changes
  expect(drifted.output).toContain('Check block assertion failed');
  const reports = driftReports(drifted);
  expect(reports).toEqual([
    expect.stringContaining(`grants/Bob: ${VIEWER} (condition "temporary") on ${ap}: user:bob@example.com is missing.`),
  ]);
  expect(reports[0]).toContain('AuthorizationPolicyIamMember grants/Bob');

  const repaired = await ws.apply(env, repairArguments(drifted));
  expect(repaired.code).toBe(0);
  expect(membersOf(emulator, ap, VIEWER, 'temporary')).toEqual(['user:bob@example.com']);
  const after = await ws.plan(env);
  expect({ code: after.code, warning: after.output.includes('Warning') }).toEqual({ code: 0, warning: false });
});

test('a stranger added to an owned binding is reported, the repair removes them, the next plan is clean', async () => {
  const { ap, mj } = resources();
  const env = grantEnv(emulator);
  const ws = await deployed(stack(ap, mj), env);

  emulator.addResource(mj, {
    bindings: [{ role: DMS_VIEWER, members: ['user:a@example.com', 'user:b@example.com', 'user:stranger@example.com'] }],
  });
  const drifted = await ws.plan(env);
  expect(driftReports(drifted)).toEqual([
    expect.stringContaining(
      `MigrationJobIamBinding grants/Viewers: ${DMS_VIEWER} on ${mj}: user:stranger@example.com was added outside this code.`,
    ),
  ]);

  expect((await ws.apply(env, repairArguments(drifted))).code).toBe(0);
  expect(membersOf(emulator, mj, DMS_VIEWER)).toEqual(['user:a@example.com', 'user:b@example.com']);
  expect((await ws.plan(env)).output).not.toContain('Warning');
});

test('a binding that disappeared, and a resource deleted outside Terraform, are reported clearly', async () => {
  const { ap, mj } = resources();
  const env = grantEnv(emulator);
  const ws = await deployed(stack(ap, mj), env);

  emulator.addResource(mj, {});
  const gone = await ws.plan(env);
  expect(driftReports(gone)).toEqual([
    expect.stringContaining('the binding is gone (it should hold user:a@example.com, user:b@example.com)'),
  ]);

  emulator.addResource(mj, { bindings: [{ role: DMS_VIEWER, members: ['user:a@example.com', 'user:b@example.com'] }] });
  emulator.removeResource(ap);
  const missing = await ws.plan(env);
  expect(missing.output.replace(/\s+/g, ' ')).toMatch(
    /NOT_FOUND \(HTTP 404\): Resource 'projects\/demo-project\/locations\/global\/authorizationPolicies\/drift-\d+' was not found/,
  );
});

test("changes the code does not own are not drift: other roles, other members of a member grant's role, other conditions, audit configs", async () => {
  const { ap, mj } = resources();
  const env = grantEnv(emulator);
  const ws = await deployed(stack(ap, mj), env);

  const policy = emulator.policy(ap);
  emulator.addResource(ap, {
    ...policy,
    bindings: [
      ...(policy.bindings ?? []).map((b) =>
        b.role === VIEWER && !b.condition ? { ...b, members: [...(b.members ?? []), 'user:someone-else@example.com'] } : b,
      ),
      { role: 'roles/networksecurity.authorizationPolicyEditor', members: ['group:others@example.com'] },
      { role: VIEWER, members: ['user:carol@example.com'], condition: { title: 'theirs', expression: 'true' } },
    ],
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }],
  });
  const plan = await ws.plan(env);
  expect({ code: plan.code, warning: plan.output.includes('Warning') }).toEqual({ code: 0, warning: false });
});

test('one read per policy per plan; a grant or a whole stack can leave the check out', async () => {
  const { ap, mj } = resources();
  const env = grantEnv(emulator);
  const ws = await deployed(stack(ap, mj), env);
  emulator.resetStats();
  expect((await ws.plan(env)).code).toBe(0);
  expect(emulator.stats().getIamPolicy).toBe(2);

  ws.resynth((s) => {
    new AuthorizationPolicyIamMember(s, 'Alice', { name: ap, role: VIEWER, member: 'user:alice@example.com', detectDrift: false });
    new AuthorizationPolicyIamMember(s, 'Bob', {
      name: ap,
      role: VIEWER,
      member: 'user:bob@example.com',
      condition: TEMPORARY,
      detectDrift: false,
    });
    new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_VIEWER, members: ['user:a@example.com', 'user:b@example.com'] });
  });
  emulator.addResource(ap, { bindings: [] });
  emulator.resetStats();
  const perGrant = await ws.plan(env);
  expect({ reads: emulator.stats().getIamPolicy, warning: perGrant.output.includes('Warning') }).toEqual({ reads: 1, warning: false });

  ws.resynth((s) => {
    stack(ap, mj)(s);
    GoogleIamGrants.of(s).detectDrift = false;
  });
  emulator.resetStats();
  const perStack = await ws.plan(env);
  expect({ reads: emulator.stats().getIamPolicy, warning: perStack.output.includes('Warning') }).toEqual({ reads: 0, warning: false });
});
