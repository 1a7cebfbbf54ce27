/**
 * End to end: the real `terraform` binary applies and destroys synthesized
 * grants; the provider synth laid out talks to the emulator over HTTP with
 * the real google-auth-library client.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { AuthorizationPolicyIamMember, MigrationJobIamBinding, type IamCondition } from '../../../lib';
import { installProvider, lockEntry, writeLockEntry } from '../../../lib/install';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { emptyCliConfig, runCommand, workspacesOfThisFile } from '../../support/terraform';

jest.setTimeout(240_000);

const AP = 'projects/demo-project/locations/global/authorizationPolicies/ap';
const MJ = 'projects/demo-project/locations/us-central1/migrationJobs/mj';
const VIEWER = 'roles/networksecurity.viewer';
const ADMIN = 'roles/networksecurity.admin';
const DMS_EDITOR = 'roles/datamigration.editor';

const FOREIGN_CONDITION = { title: 'foreign', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', description: 'kept' };
const FOREIGN_POLICY = {
  version: 3,
  bindings: [
    { role: ADMIN, members: ['user:owner@example.com'] },
    { role: VIEWER, members: ['group:auditors@example.com'], condition: FOREIGN_CONDITION },
  ],
  auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:quiet@example.com'] }] }],
};

let emulator: GoogleApiEmulator;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(async () => {
  await emulator.close();
});

describe('apply, change, destroy', () => {
  const weekdays: IamCondition = { title: 'weekdays', expression: 'request.time.getDayOfWeek("Europe/Berlin") < 5' };
  const untilMay: IamCondition = {
    title: 'until-may',
    expression: 'request.time < timestamp("2031-05-01T00:00:00Z")',
    description: 'temporary',
  };
  const stack = (condition: IamCondition) => (s: TerraformStack) => {
    new AuthorizationPolicyIamMember(s, 'Alice', { name: AP, role: VIEWER, member: 'user:alice@example.com' });
    new AuthorizationPolicyIamMember(s, 'Robot', {
      name: AP,
      role: VIEWER,
      member: 'serviceAccount:robot@demo-project.iam.gserviceaccount.com',
      condition,
    });
    new MigrationJobIamBinding(s, 'Dms', { name: MJ, role: DMS_EDITOR, members: ['user:bob@example.com', 'group:dba@example.com'] });
  };

  test('grants appear, foreign bindings survive, a condition change moves the grant, destroy removes only ours', async () => {
    emulator.addResource(AP, FOREIGN_POLICY);
    emulator.addResource(MJ, { bindings: [{ role: 'roles/datamigration.admin', members: ['user:owner@example.com'] }] });
    const env = grantEnv(emulator);
    const ws = await workspace(stack(weekdays));

    const applied = await ws.apply(env);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(
      /googleiam_authorization_policy_iam_member\.ap_[\w-]*_user_alice_example_com_[0-9a-f]{8}: Creation complete/,
    );
    expect(membersOf(emulator, AP, VIEWER)).toEqual(['user:alice@example.com']);
    expect(membersOf(emulator, AP, VIEWER, 'weekdays')).toEqual(['serviceAccount:robot@demo-project.iam.gserviceaccount.com']);
    expect(membersOf(emulator, AP, VIEWER, 'foreign')).toEqual(['group:auditors@example.com']);
    expect(membersOf(emulator, AP, ADMIN)).toEqual(['user:owner@example.com']);
    expect(emulator.policy(AP).auditConfigs).toEqual(FOREIGN_POLICY.auditConfigs);
    expect(emulator.policy(AP).version).toBe(3);
    expect(membersOf(emulator, MJ, DMS_EDITOR)).toEqual(['group:dba@example.com', 'user:bob@example.com']);
    expect(membersOf(emulator, MJ, 'roles/datamigration.admin')).toEqual(['user:owner@example.com']);

    ws.resynth(stack(untilMay));
    const changed = await ws.apply(env);
    expect(changed.code).toBe(0);
    expect(membersOf(emulator, AP, VIEWER, 'weekdays')).toEqual([]);
    const moved = emulator.policy(AP).bindings?.find((b) => b.condition?.title === 'until-may');
    expect(moved?.condition).toMatchObject({ expression: untilMay.expression, description: 'temporary' });
    expect(moved?.members).toEqual(['serviceAccount:robot@demo-project.iam.gserviceaccount.com']);
    expect(membersOf(emulator, AP, VIEWER)).toEqual(['user:alice@example.com']);

    const destroyed = await ws.destroy(env);
    expect(destroyed.code).toBe(0);
    expect(destroyed.stdout).toMatch(
      /googleiam_authorization_policy_iam_member\.ap_[\w-]*_user_alice_example_com_[0-9a-f]{8}: Destruction complete/,
    );
    expect(emulator.policy(AP).bindings).toEqual(FOREIGN_POLICY.bindings);
    expect(emulator.policy(AP).auditConfigs).toEqual(FOREIGN_POLICY.auditConfigs);
    expect(emulator.policy(MJ).bindings).toEqual([{ role: 'roles/datamigration.admin', members: ['user:owner@example.com'] }]);
  });
});

test('50 member grants on one policy in one apply with -parallelism=20 all land and all leave', async () => {
  const resource = 'projects/demo-project/locations/global/authorizationPolicies/busy';
  emulator.addResource(resource, { bindings: [{ role: ADMIN, members: ['user:owner@example.com'] }] });
  const members = Array.from({ length: 50 }, (_, i) => `user:member-${i}@example.com`);
  const ws = await workspace((s) =>
    members.forEach((member, i) => new AuthorizationPolicyIamMember(s, `M${i}`, { name: resource, role: VIEWER, member })),
  );
  const env = grantEnv(emulator);
  emulator.resetStats();

  const applied = await ws.apply(env, ['-parallelism=20']);
  expect(applied.code).toBe(0);
  expect(membersOf(emulator, resource, VIEWER)).toEqual([...members].sort());
  const calls = emulator.stats().getIamPolicy + emulator.stats().setIamPolicy;
  expect(calls).toBeLessThanOrEqual(2 * members.length);

  const destroyed = await ws.destroy(env, ['-parallelism=20']);
  expect(destroyed.code).toBe(0);
  expect(emulator.policy(resource).bindings).toEqual([{ role: ADMIN, members: ['user:owner@example.com'] }]);
});

test('values known only to Terraform (a variable) reach the provider at apply and at destroy', async () => {
  const FROM_VARIABLE = 'projects/demo-project/locations/global/authorizationPolicies/from-variable';
  emulator.addResource(FROM_VARIABLE);
  const ws = await workspace((s) => {
    const member = new TerraformVariable(s, 'member', { type: 'string', default: 'user:from-variable@example.com' });
    const members = new TerraformVariable(s, 'members', { type: 'list(string)', default: ['user:a@example.com', 'group:g@example.com'] });
    new AuthorizationPolicyIamMember(s, 'FromVariable', { name: FROM_VARIABLE, role: VIEWER, member: member.stringValue });
    new MigrationJobIamBinding(s, 'ListFromVariable', {
      name: MJ.replace('/mj', '/from-variable'),
      role: DMS_EDITOR,
      members: members.listValue,
    });
  });
  emulator.addResource(MJ.replace('/mj', '/from-variable'));
  const env = grantEnv(emulator);

  const applied = await ws.apply(env);
  expect(applied.code).toBe(0);
  expect(membersOf(emulator, FROM_VARIABLE, VIEWER)).toEqual(['user:from-variable@example.com']);
  expect(membersOf(emulator, MJ.replace('/mj', '/from-variable'), DMS_EDITOR)).toEqual(['group:g@example.com', 'user:a@example.com']);

  expect((await ws.destroy(env)).code).toBe(0);
  expect(emulator.policy(FROM_VARIABLE).bindings ?? []).toEqual([]);
  expect(emulator.policy(MJ.replace('/mj', '/from-variable')).bindings ?? []).toEqual([]);
});

test('a missing resource fails the apply with NOT_FOUND and changes nothing', async () => {
  emulator.addResource(AP.replace('/ap', '/other'), FOREIGN_POLICY);
  const before = emulator.policy(AP.replace('/ap', '/other'));
  const missing = 'projects/demo-project/locations/global/authorizationPolicies/does-not-exist';
  const ws = await workspace(
    (s) => new AuthorizationPolicyIamMember(s, 'Ghost', { name: missing, role: VIEWER, member: 'user:ghost@example.com' }),
  );

  const result = await ws.apply(grantEnv(emulator));
  expect(result.code).not.toBe(0);
  expect(result.output).toMatch(/NOT_FOUND/);
  expect(result.output).toContain(missing);
  expect(result.output).toContain(VIEWER);
  expect(emulator.policy(AP.replace('/ap', '/other'))).toEqual(before);
});

test('a denied token fails the apply with PERMISSION_DENIED and changes nothing', async () => {
  const resource = 'projects/demo-project/locations/global/authorizationPolicies/locked';
  emulator.addResource(resource, FOREIGN_POLICY);
  const before = emulator.policy(resource);
  const ws = await workspace(
    (s) => new AuthorizationPolicyIamMember(s, 'Denied', { name: resource, role: VIEWER, member: 'user:eve@example.com' }),
  );

  const result = await ws.apply(grantEnv(emulator, { GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.DENIED_TOKEN }));
  expect(result.code).not.toBe(0);
  expect(result.output).toMatch(/PERMISSION_DENIED/);
  expect(emulator.policy(resource)).toEqual(before);
});

test('shell metacharacters and Terraform template sequences in a condition are stored verbatim, never executed', async () => {
  const resource = 'projects/demo-project/locations/global/authorizationPolicies/shell';
  emulator.addResource(resource);
  // Relative paths: local-exec runs in the stack directory.
  const nasty = `$(touch pwned); \`touch pwned\` ' " ;\n| & > pwned \${path.root} %{ if true }x%{ endif } $\${}`;
  const condition: IamCondition = {
    title: nasty,
    description: nasty,
    expression: `request.path == ${JSON.stringify(nasty)}`,
  };
  const ws = await workspace(
    (s) => new AuthorizationPolicyIamMember(s, 'Nasty', { name: resource, role: VIEWER, member: 'user:alice@example.com', condition }),
  );
  const env = grantEnv(emulator);

  const canary = path.join(ws.dir, 'pwned');
  const applied = await ws.apply(env);
  expect(applied.code).toBe(0);
  const binding = emulator.policy(resource).bindings?.[0];
  expect(binding?.condition).toMatchObject({ title: nasty, description: nasty, expression: condition.expression });
  expect(fs.existsSync(canary)).toBe(false);

  expect((await ws.destroy(env)).code).toBe(0);
  expect(emulator.policy(resource).bindings ?? []).toEqual([]);
  expect(fs.existsSync(canary)).toBe(false);
});

test.each(['JSON', 'HCL'])(
  'Terraform reads back exactly the grant that was synthesized, with and without tokens (%s output)',
  async (format) => {
    const nasty = `quote " backslash \\ \\" newline \n template \${path.root} %{ if true }x%{ endif } $\${} EOF`;
    const condition: IamCondition = { title: nasty, description: nasty, expression: `request.path == ${JSON.stringify(nasty)}` };
    const stack = new TerraformStack(Testing.app(), 'spec');
    const member = new TerraformVariable(stack, 'member', { type: 'string', default: 'bob@example.com' });
    new AuthorizationPolicyIamMember(stack, 'Nasty', { name: AP, role: VIEWER, member: 'user:alice@example.com', condition });
    new AuthorizationPolicyIamMember(stack, 'NastyToken', { name: AP, role: VIEWER, member: `user:${member.stringValue}`, condition });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-format-'));
    try {
      // Testing.synth writes the configuration only: the provider is laid out here as synth would.
      writeLockEntry(dir, lockEntry(installProvider(dir, { layout: 'plugins' }).package));
      fs.writeFileSync(
        path.join(dir, format === 'HCL' ? 'main.tf' : 'main.tf.json'),
        format === 'HCL' ? Testing.synthHcl(stack) : Testing.synth(stack),
      );
      const env = { ...grantEnv(emulator), ...emptyCliConfig(dir) };
      for (const args of [
        ['init', '-input=false', '-no-color'],
        ['plan', '-input=false', '-no-color', '-out=plan'],
      ]) {
        const result = await runCommand('terraform', args, dir, env);
        expect({ args, code: result.code, output: result.code === 0 ? '' : result.output }).toEqual({ args, code: 0, output: '' });
      }
      const plan = JSON.parse((await runCommand('terraform', ['show', '-json', 'plan'], dir, env)).stdout);
      const planned = (plan.resource_changes as Array<{ type: string; name: string; change: { after: Record<string, unknown> } }>)
        .filter((r) => r.type === 'googleiam_authorization_policy_iam_member')
        .map((r) => ({ member: r.change.after.member, condition: r.change.after.condition }))
        .sort((a, b) => String(a.member).localeCompare(String(b.member)));
      const asPlanned = { title: nasty, description: nasty, expression: condition.expression };
      expect(planned).toEqual([
        { member: 'user:alice@example.com', condition: asPlanned },
        { member: 'user:bob@example.com', condition: asPlanned },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  },
);
