/**
 * Drift, end to end: `terraform plan` compares the stack's grants with the
 * emulator (through the runner and the stand-in external provider) and warns
 * about every difference the code owns, naming the repair command; that
 * command, run through a shell exactly as printed, repairs it and the next
 * plan is clean. With `failPlanOnDrift` the same report fails the plan.
 */
import { TerraformResource, TerraformStack, Token } from 'cdktf';
import { AuthorizationPolicyIamMember, GoogleIamGrants, MigrationJobIamBinding, type IamCondition } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { driftReports, repairAsPrinted } from '../../support/drift-output';
import { TerraformWorkspace, workspacesOfThisFile } from '../../support/terraform';

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

  const repaired = await repairAsPrinted(ws, drifted, env);
  expect({ code: repaired.code, output: repaired.code === 0 ? '' : repaired.output }).toEqual({ code: 0, output: '' });
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

  expect((await repairAsPrinted(ws, drifted, env)).code).toBe(0);
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

test('a plan with grant changes pending warns about nothing: no "known after apply", no report for grants not yet applied', async () => {
  const { ap, mj } = resources();
  const env = grantEnv(emulator);
  const ws = await deployed(stack(ap, mj), env);

  // A new grant and a changed binding, both pending: nothing to compare yet.
  ws.resynth((s) => {
    stack(ap, mj)(s);
    new AuthorizationPolicyIamMember(s, 'Carol', { name: ap, role: VIEWER, member: 'user:carol@example.com' });
    new MigrationJobIamBinding(s, 'Viewers2', { name: mj, role: 'roles/datamigration.admin', members: ['user:c@example.com'] });
  });
  const pending = await ws.plan(env);
  expect({ code: pending.code, warning: pending.output.includes('Warning') ? pending.output : '' }).toEqual({ code: 2, warning: '' });

  // Drift of an applied grant is still reported while another grant of the same policy is pending.
  emulator.addResource(ap, { ...emulator.policy(ap), bindings: emulator.policy(ap).bindings?.filter((b) => !b.condition) });
  const drifted = await ws.plan(env);
  expect(drifted.code).toBe(2);
  expect(driftReports(drifted)).toEqual([expect.stringContaining('grants/Bob: ')]);
  expect(drifted.output).not.toContain('Check block assertion known after apply');

  // Applying the pending change grants carol; the repair then restores bob.
  expect((await ws.apply(env)).code).toBe(0);
  expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:alice@example.com', 'user:carol@example.com']);
  expect((await repairAsPrinted(ws, await ws.plan(env), env)).code).toBe(0);
  const clean = await ws.plan(env);
  expect({ code: clean.code, warning: clean.output.includes('Warning') }).toEqual({ code: 0, warning: false });
});

describe('failPlanOnDrift', () => {
  test('drift fails terraform plan (-detailed-exitcode exits 1) naming the construct, role, principals and the repair, which works as printed', async () => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator);
    const ws = await deployed((s) => {
      stack(ap, mj)(s);
      GoogleIamGrants.of(s).failPlanOnDrift = true;
    }, env);
    const clean = await ws.plan(env);
    expect({ code: clean.code, output: clean.code === 0 ? '' : clean.output }).toEqual({ code: 0, output: '' });

    emulator.addResource(mj, {
      bindings: [{ role: DMS_VIEWER, members: ['user:a@example.com', 'user:stranger@example.com'] }],
    });
    const failed = await ws.plan(env);
    expect(failed.code).toBe(1);
    expect(failed.output).toContain('Error: Resource postcondition failed');
    expect(failed.output).not.toContain('Warning');
    expect(failed.output.replace(/\s*\n\s*/g, ' ')).toContain(
      `MigrationJobIamBinding grants/Viewers: ${DMS_VIEWER} on ${mj}: user:b@example.com is missing; user:stranger@example.com was added outside this code.`,
    );

    // The repair is not blocked by the check it repairs: its reads wait for the re-applied grants.
    const repaired = await repairAsPrinted(ws, failed, env);
    expect({ code: repaired.code, output: repaired.code === 0 ? '' : repaired.output }).toEqual({ code: 0, output: '' });
    expect(membersOf(emulator, mj, DMS_VIEWER)).toEqual(['user:a@example.com', 'user:b@example.com']);
    expect((await ws.plan(env)).code).toBe(0);
  });

  test("per grant: only that grant's drift fails the plan; other grants still only warn; pending changes are silent", async () => {
    const { ap, mj } = resources();
    const env = grantEnv(emulator);
    const build = (extra?: (s: TerraformStack) => void) => (s: TerraformStack) => {
      new AuthorizationPolicyIamMember(s, 'Alice', { name: ap, role: VIEWER, member: 'user:alice@example.com', failPlanOnDrift: true });
      new MigrationJobIamBinding(s, 'Viewers', { name: mj, role: DMS_VIEWER, members: ['user:a@example.com'] });
      extra?.(s);
    };
    const ws = await deployed(build(), env);

    emulator.addResource(mj, {});
    const warned = await ws.plan(env);
    expect({ code: warned.code, failed: warned.output.includes('Error') }).toEqual({ code: 0, failed: false });
    expect(driftReports(warned)).toEqual([expect.stringContaining('grants/Viewers: ')]);

    emulator.addResource(ap, { bindings: [] });
    const failed = await ws.plan(env);
    expect(failed.code).toBe(1);
    expect(failed.output.replace(/\s*\n\s*/g, ' ')).toContain(
      `AuthorizationPolicyIamMember grants/Alice: ${VIEWER} on ${ap}: user:alice@example.com is missing.`,
    );
    expect((await repairAsPrinted(ws, failed, env)).code).toBe(0);

    ws.resynth(
      build(
        (s) =>
          new AuthorizationPolicyIamMember(s, 'Dave', { name: ap, role: VIEWER, member: 'user:dave@example.com', failPlanOnDrift: true }),
      ),
    );
    const pending = await ws.plan(env);
    expect({ code: pending.code, warning: pending.output.includes('Warning'), error: pending.output.includes('Error') }).toEqual({
      code: 2,
      warning: false,
      error: false,
    });
    expect((await ws.apply(env)).code).toBe(0);
    expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:alice@example.com', 'user:dave@example.com']);
  });
});

test('a policy whose name Terraform knows only after apply: the first plan warns about nothing, later plans check what was applied', async () => {
  const { ap } = resources();
  const env = grantEnv(emulator);
  const ws = await workspace((s) => {
    // Stands for a resource created in the same apply: its output is unknown until then.
    const created = new TerraformResource(s, 'Created', {
      terraformResourceType: 'terraform_data',
      terraformGeneratorMetadata: { providerName: 'terraform' },
    });
    created.addOverride('input', ap);
    new AuthorizationPolicyIamMember(s, 'Alice', {
      name: Token.asString(created.getAnyMapAttribute('output')),
      role: VIEWER,
      member: 'user:alice@example.com',
    });
  });
  const first = await ws.plan(env);
  expect(first.code).toBe(2);
  expect(first.output).not.toContain('Check block assertion known after apply');
  expect(first.output).not.toContain('Warning');
  expect((await ws.apply(env)).code).toBe(0);
  expect(membersOf(emulator, ap, VIEWER)).toEqual(['user:alice@example.com']);

  const clean = await ws.plan(env);
  expect({ code: clean.code, warning: clean.output.includes('Warning') }).toEqual({ code: 0, warning: false });
  emulator.addResource(ap, { bindings: [] });
  expect(driftReports(await ws.plan(env))).toEqual([expect.stringContaining('grants/Alice: ')]);
});
