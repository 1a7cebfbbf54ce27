/**
 * The IAM checks of a cdktf stack under the real `terraform` (and, as every
 * e2e test here, with CDK Terrain too): the GoogleIamChecks aspect hands its
 * settings and suppressions to the provider, which judges what synth could
 * not (a member that is a Terraform variable: a warning at plan, refused by
 * the apply before anything is written); a finding suppressed at synth stays
 * suppressed in the provider; without the aspect the provider warns at plan.
 */
import { Aspects, TerraformVariable, type TerraformStack } from 'cdktf';
import * as fs from 'fs';
import * as path from 'path';
import { AuthorizationPolicyIamMember, GoogleIamChecks, IamSuppressions } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { workspacesOfThisFile } from '../../support/terraform';

jest.setTimeout(240_000);

const AP = 'projects/demo-project/locations/global/authorizationPolicies/checked';
const VIEWER = 'roles/networksecurity.viewer';
/** Terraform's output with its wrapping undone (it wraps a diagnostic's detail at spaces). */
const unwrapped = (output: string) => output.replace(/\s+/g, ' ');

let emulator: GoogleApiEmulator;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(async () => {
  await emulator.close();
});
beforeEach(() => {
  emulator.addResource(AP, { bindings: [] });
  emulator.clearWrites();
});

test('a member known only at plan: synth says "known at apply", the plan warns, the apply refuses it before writing', async () => {
  const ws = await workspace((s: TerraformStack) => {
    Aspects.of(s).add(new GoogleIamChecks());
    const who = new TerraformVariable(s, 'who', { type: 'string' });
    new AuthorizationPolicyIamMember(s, 'Readers', { name: AP, role: VIEWER, member: who.stringValue });
  });
  const report = JSON.parse(fs.readFileSync(path.join(ws.dir, 'iam-report.json'), 'utf8'));
  expect(report.grants[0]).toMatchObject({ member: 'known at apply', findings: [] });
  const env = grantEnv(emulator);
  const plan = await ws.plan(env, ['-var', 'who=allUsers']);
  expect(plan.code).toBe(2);
  expect(unwrapped(plan.output)).toContain(
    'Warning: GoogleIam-Public: Public principal with googleiam_authorization_policy_iam_member.Readers',
  );
  expect(unwrapped(plan.output)).toContain('With iam_checks = "enforce", terraform apply refuses it before sending anything to Google');
  const apply = await ws.apply(env, ['-var', 'who=allUsers']);
  expect(apply.code).toBe(1);
  expect(unwrapped(apply.output)).toContain('Error: GoogleIam-Public: Public principal');
  expect(emulator.writes()).toEqual([]);
  // Another member passes.
  expect((await ws.apply(env, ['-var', 'who=group:readers@example.com'])).code).toBe(0);
  expect(membersOf(emulator, AP, VIEWER)).toEqual(['group:readers@example.com']);
});

test('a finding suppressed at synth stays suppressed at plan and apply', async () => {
  const ws = await workspace((s: TerraformStack) => {
    Aspects.of(s).add(new GoogleIamChecks());
    const statusPage = new AuthorizationPolicyIamMember(s, 'StatusPage', { name: AP, role: VIEWER, member: 'allUsers' });
    IamSuppressions.addSuppressions(statusPage, [{ id: 'GoogleIam-Public', reason: 'the status page is public by design' }]);
  });
  const env = grantEnv(emulator);
  const apply = await ws.apply(env);
  expect({ code: apply.code, warnings: apply.output.includes('Warning:') }).toEqual({ code: 0, warnings: false });
  expect(membersOf(emulator, AP, VIEWER)).toEqual(['allUsers']);
  // The suppressions are kept in the state: the next plan has nothing to change.
  const plan = await ws.plan(env);
  expect({ code: plan.code, warnings: plan.output.includes('Warning:') }).toEqual({ code: 0, warnings: false });
});

test('without the aspect, the provider warns at plan (iam_checks defaults to warn) and the apply goes ahead', async () => {
  const ws = await workspace((s: TerraformStack) => {
    new AuthorizationPolicyIamMember(s, 'Auditors', { name: AP, role: 'roles/viewer', member: 'group:auditors@example.com' });
  });
  const env = grantEnv(emulator);
  const plan = await ws.plan(env);
  expect(plan.code).toBe(2);
  expect(unwrapped(plan.output)).toContain('Warning: GoogleIam-BasicRole: Basic role with googleiam_authorization_policy_iam_member.');
  expect((await ws.apply(env)).code).toBe(0);
  expect(membersOf(emulator, AP, 'roles/viewer')).toEqual(['group:auditors@example.com']);
});
