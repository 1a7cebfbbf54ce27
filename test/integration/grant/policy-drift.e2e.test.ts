/**
 * Drift of the policy constructs and the generic grants, end to end:
 * `terraform plan` reads each policy once (POST for the APIs whose
 * getIamPolicy is a POST) and warns about a binding added in the console;
 * the printed command, run as printed, repairs it and the next plan is clean.
 */
import { TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamPolicy, GoogleIamMember, GoogleIamPolicy } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv } from '../../support/grant-env';
import { driftReports, repairAsPrinted } from '../../support/drift-output';
import { workspacesOfThisFile } from '../../support/terraform';

jest.setTimeout(240_000);

const AP = 'projects/drift-project/locations/global/authorizationPolicies/policy-drift';
const SECRET = 'projects/drift-project/secrets/api-key';
const PROJECT = 'projects/drift-project';
const VIEWER = 'roles/networksecurity.authorizationPolicyViewer';
const ACCESSOR = 'roles/secretmanager.secretAccessor';

let emulator: GoogleApiEmulator;
let env: Record<string, string>;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  env = grantEnv(emulator, emulator.env(GoogleApiEmulator.ACCESS_TOKEN, ['secretmanager', 'cloudresourcemanager']));
});
afterAll(async () => {
  await emulator.close();
});

const stack = (s: TerraformStack) => {
  new AuthorizationPolicyIamPolicy(s, 'ApPolicy', { name: AP, bindings: [{ role: VIEWER, members: ['user:alice@example.com'] }] });
  new GoogleIamPolicy(s, 'SecretPolicy', {
    resource: { service: 'secretmanager', apiVersion: 'v1', name: SECRET },
    bindings: [{ role: ACCESSOR, members: ['serviceAccount:app@drift-project.iam.gserviceaccount.com'] }],
  });
  new GoogleIamMember(s, 'Browser', {
    resource: { service: 'cloudresourcemanager', apiVersion: 'v3', name: PROJECT },
    role: 'roles/browser',
    member: 'user:alice@example.com',
  });
};

test('a binding added in the console beside a policy construct is reported by plan; the printed command removes it', async () => {
  emulator.addResource(AP);
  emulator.addResource(SECRET);
  emulator.addResource(PROJECT, { bindings: [{ role: 'roles/owner', members: ['user:owner@example.com'] }] });
  const ws = await workspace(stack);
  expect((await ws.apply(env)).code).toBe(0);

  // One read per policy, each with the method its API takes (a GET to Resource Manager would be a 404, reported as drift).
  emulator.resetStats();
  const clean = await ws.plan(env);
  expect({ code: clean.code, warning: clean.output.includes('Warning'), reads: emulator.stats().getIamPolicy }).toEqual({
    code: 0,
    warning: false,
    reads: 3,
  });

  emulator.addResource(AP, {
    ...emulator.policy(AP),
    bindings: [
      ...emulator.policy(AP).bindings!,
      { role: 'roles/networksecurity.authorizationPolicyAdmin', members: ['user:mallory@example.com'] },
    ],
  });
  emulator.addResource(SECRET, {
    ...emulator.policy(SECRET),
    bindings: [{ role: ACCESSOR, members: ['serviceAccount:app@drift-project.iam.gserviceaccount.com', 'user:mallory@example.com'] }],
  });
  const drifted = await ws.plan(env);
  expect(drifted.code).toBe(0);
  const reports = driftReports(drifted).sort();
  expect(reports).toEqual([
    expect.stringContaining(
      `AuthorizationPolicyIamPolicy grants/ApPolicy: the IAM policy of ${AP}: binding roles/networksecurity.authorizationPolicyAdmin is not declared (members: user:mallory@example.com).`,
    ),
    expect.stringContaining(
      `GoogleIamPolicy grants/SecretPolicy: the IAM policy of ${SECRET}: binding ${ACCESSOR}: user:mallory@example.com was added outside this code.`,
    ),
  ]);

  expect((await repairAsPrinted(ws, drifted, env)).code).toBe(0);
  expect(emulator.policy(AP).bindings).toEqual([{ role: VIEWER, members: ['user:alice@example.com'] }]);
  expect(emulator.policy(SECRET).bindings).toEqual([
    { role: ACCESSOR, members: ['serviceAccount:app@drift-project.iam.gserviceaccount.com'] },
  ]);
  const after = await ws.plan(env);
  expect({ code: after.code, warning: after.output.includes('Warning') }).toEqual({ code: 0, warning: false });
});
