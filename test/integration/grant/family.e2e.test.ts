/**
 * The whole family, end to end: member, binding and policy constructs for
 * the three resource types, and the generic grants on APIs the library does
 * not otherwise know (Secret Manager with a GET getIamPolicy, Resource
 * Manager v3 and Spanner with a POST one). One stack per step (apply, change,
 * delete from the code, destroy), checked on the emulator's write history and
 * end states; the real `terraform` runs the bundled provider synth laid out.
 */
import { TerraformStack, TerraformVariable } from 'cdktf';
import {
  AddressGroupIamBinding,
  AddressGroupIamMember,
  AddressGroupIamPolicy,
  AuthorizationPolicyIamBinding,
  AuthorizationPolicyIamPolicy,
  GoogleIamBinding,
  GoogleIamMember,
  GoogleIamPolicy,
  MigrationJobIamMember,
  MigrationJobIamPolicy,
  NetworkSecurityAuthzPolicyIamBinding,
  NetworkSecurityAuthzPolicyIamMember,
  NetworkSecurityAuthzPolicyIamPolicy,
  type IamAuditConfigProps,
  type IamCondition,
  type IamPolicyBindingProps,
} from '../../../lib';
import type { Binding } from '../../../lib/iam/types';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv } from '../../support/grant-env';
import { TerraformWorkspace, workspacesOfThisFile } from '../../support/terraform';
import { historyOf } from '../../support/write-history';

jest.setTimeout(240_000);

const P = 'family-project';
const AP1 = `projects/${P}/locations/global/authorizationPolicies/fam-1`;
const AP2 = `projects/${P}/locations/global/authorizationPolicies/fam-2`;
const AG1 = `projects/${P}/locations/global/addressGroups/fam-1`;
const AG2 = `projects/${P}/locations/global/addressGroups/fam-2`;
const MJ1 = `projects/${P}/locations/us-central1/migrationJobs/fam-1`;
const MJ2 = `projects/${P}/locations/us-central1/migrationJobs/fam-2`;
const SECRET = `projects/${P}/secrets/db-password`;
const PROJECT = `projects/${P}`;
const SPANNER = `projects/${P}/instances/main`;

const SECRETS = { service: 'secretmanager', apiVersion: 'v1', name: SECRET };
const RESOURCE_MANAGER = { service: 'cloudresourcemanager', apiVersion: 'v3', name: PROJECT };
const SPANNER_INSTANCE = { service: 'spanner', apiVersion: 'v1', name: SPANNER };

const AP_VIEWER = 'roles/networksecurity.viewer';
const AP_ADMIN = 'roles/networksecurity.admin';
const AG_USER = 'roles/compute.networkUser';
const AG_VIEWER = 'roles/compute.networkViewer';
const DMS_EDITOR = 'roles/datamigration.editor';
const DMS_ADMIN = 'roles/datamigration.admin';
const ACCESSOR = 'roles/secretmanager.secretAccessor';
const SM_VIEWER = 'roles/secretmanager.viewer';
const BROWSER = 'roles/browser';
const REVIEWER = 'roles/iam.securityReviewer';
const READER = 'roles/spanner.databaseReader';

const FOREIGN: Binding = { role: 'roles/owner', members: ['user:owner@example.com'] };
// A console edit Google takes on both policies it is made to (a migration job's and a Spanner instance's).
const CONSOLE: Binding = { role: 'roles/viewer', members: ['user:console@example.com'] };
const AUDIT_A = [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:quiet@example.com'] }] }];
const AUDIT_B: IamAuditConfigProps[] = [
  { service: 'spanner.googleapis.com', auditLogConfigs: [{ logType: 'ADMIN_READ' }, { logType: 'DATA_WRITE' }] },
];
const X: IamCondition = { title: 'until-2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
const u = (name: string) => `user:${name}@example.com`;

let emulator: GoogleApiEmulator;
let env: Record<string, string>;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  env = grantEnv(emulator, emulator.env(GoogleApiEmulator.ACCESS_TOKEN, ['secretmanager', 'cloudresourcemanager', 'spanner']));
});
afterAll(async () => {
  await emulator.close();
});

const bindingsOf = (name: string): readonly Binding[] => emulator.policy(name).bindings ?? [];

async function applied(ws: TerraformWorkspace, summary: RegExp, extra: string[] = []): Promise<string> {
  const result = await ws.apply(env, extra);
  expect({ code: result.code, summary: summary.exec(result.output)?.[0] ?? result.output }).toEqual({
    code: 0,
    summary: expect.stringMatching(summary),
  });
  return result.output;
}

interface Step {
  readonly apBinding: string[];
  readonly apPolicy: IamPolicyBindingProps[];
  readonly agMember: boolean;
  readonly agBinding: string[];
  readonly mjMembers: string[];
  readonly mjPolicy?: IamPolicyBindingProps[];
  readonly secretMember: boolean;
  readonly secretBinding: string[];
  readonly projectBinding?: string[];
  readonly spannerPolicy?: IamPolicyBindingProps[];
}

/** One stack holding every construct of the family; `step` says what each declares. */
const family = (step: Step) => (s: TerraformStack) => {
  new AuthorizationPolicyIamBinding(s, 'ApViewers', { name: AP1, role: AP_VIEWER, members: step.apBinding });
  new AuthorizationPolicyIamPolicy(s, 'ApPolicy', { name: AP2, bindings: step.apPolicy });
  if (step.agMember) new AddressGroupIamMember(s, 'AgUser', { name: AG1, role: AG_USER, member: u('a') });
  new AddressGroupIamBinding(s, 'AgViewers', { name: AG1, role: AG_VIEWER, members: step.agBinding });
  new AddressGroupIamPolicy(s, 'AgPolicy', { name: AG2, bindings: [{ role: AG_USER, members: [u('x')] }] });
  step.mjMembers.forEach((m) => new MigrationJobIamMember(s, `Mj-${m}`, { name: MJ1, role: DMS_EDITOR, member: u(m) }));
  if (step.mjPolicy) new MigrationJobIamPolicy(s, 'MjPolicy', { name: MJ2, bindings: step.mjPolicy });
  if (step.secretMember) new GoogleIamMember(s, 'SecretAccessor', { resource: SECRETS, role: ACCESSOR, member: u('a') });
  new GoogleIamBinding(s, 'SecretViewers', { resource: SECRETS, role: SM_VIEWER, members: step.secretBinding });
  new GoogleIamMember(s, 'ProjectBrowser', { resource: RESOURCE_MANAGER, role: BROWSER, member: u('a') });
  if (step.projectBinding)
    new GoogleIamBinding(s, 'ProjectReviewers', { resource: RESOURCE_MANAGER, role: REVIEWER, members: step.projectBinding });
  if (step.spannerPolicy) new GoogleIamPolicy(s, 'SpannerPolicy', { resource: SPANNER_INSTANCE, bindings: step.spannerPolicy });
};

test('every construct of the family: apply, change, delete from the code, destroy', async () => {
  for (const name of [AP1, AP2, AG1, MJ1, MJ2, SECRET, PROJECT, SPANNER]) emulator.addResource(name, { bindings: [FOREIGN] });
  emulator.addResource(AG2, { bindings: [FOREIGN], auditConfigs: AUDIT_A });

  // 1. apply
  const ws = await workspace(
    family({
      apBinding: [u('a'), u('b')],
      apPolicy: [
        { role: AP_VIEWER, members: [u('a')] },
        { role: AP_ADMIN, members: [u('admin')], condition: X },
      ],
      agMember: true,
      agBinding: [u('a'), u('b')],
      mjMembers: ['a', 'b'],
      mjPolicy: [{ role: DMS_EDITOR, members: [u('a')] }],
      secretMember: true,
      secretBinding: [u('a'), u('b')],
      projectBinding: [u('a')],
      spannerPolicy: [{ role: READER, members: [u('a')] }],
    }),
  );
  await applied(ws, /Apply complete! Resources: 13 added, 0 changed, 0 destroyed/);
  expect(bindingsOf(AP1)).toEqual([FOREIGN, { role: AP_VIEWER, members: [u('a'), u('b')] }]);
  // A policy construct removes what it does not declare (FOREIGN) and writes version 3 for the condition.
  expect(emulator.policy(AP2)).toMatchObject({
    version: 3,
    bindings: [
      { role: AP_VIEWER, members: [u('a')] },
      { role: AP_ADMIN, members: [u('admin')], condition: X },
    ],
  });
  expect(bindingsOf(AG1)).toEqual(
    expect.arrayContaining([FOREIGN, { role: AG_USER, members: [u('a')] }, { role: AG_VIEWER, members: [u('a'), u('b')] }]),
  );
  expect(bindingsOf(AG1)).toHaveLength(3);
  // Audit configs not declared are left as they are.
  expect(emulator.policy(AG2)).toMatchObject({ bindings: [{ role: AG_USER, members: [u('x')] }], auditConfigs: AUDIT_A });
  expect(bindingsOf(MJ1)).toEqual([FOREIGN, { role: DMS_EDITOR, members: expect.arrayContaining([u('a'), u('b')]) }]);
  expect(bindingsOf(MJ2)).toEqual([{ role: DMS_EDITOR, members: [u('a')] }]);
  expect(bindingsOf(SECRET)).toEqual(
    expect.arrayContaining([FOREIGN, { role: ACCESSOR, members: [u('a')] }, { role: SM_VIEWER, members: [u('a'), u('b')] }]),
  );
  // Resource Manager and Spanner answer getIamPolicy only to POST (a GET is a 404): the default table chose it.
  expect(bindingsOf(PROJECT)).toEqual(
    expect.arrayContaining([FOREIGN, { role: BROWSER, members: [u('a')] }, { role: REVIEWER, members: [u('a')] }]),
  );
  expect(bindingsOf(SPANNER)).toEqual([{ role: READER, members: [u('a')] }]);

  // 2. change members and bindings: each changed binding is rewritten in one write; unchanged grants are not touched.
  emulator.clearWrites();
  ws.resynth(
    family({
      apBinding: [u('b'), u('c')],
      apPolicy: [{ role: AP_VIEWER, members: [u('a'), u('d')] }],
      agMember: true,
      agBinding: [u('a'), u('b'), u('c')],
      mjMembers: ['a', 'b'],
      mjPolicy: [
        { role: DMS_EDITOR, members: [u('a')] },
        { role: DMS_ADMIN, members: [u('b')] },
      ],
      secretMember: true,
      secretBinding: [u('b')],
      projectBinding: [u('a'), u('b')],
      spannerPolicy: [{ role: READER, members: [u('a'), u('b')] }],
    }),
  );
  await applied(ws, /Resources: 0 added, 7 changed, 0 destroyed/); // updated in place, no replacement
  expect(historyOf(emulator, AP1, AP_VIEWER)).toEqual([[u('b'), u('c')]]);
  expect(emulator.writes(AP2).map((w) => w.policy.bindings)).toEqual([[{ role: AP_VIEWER, members: [u('a'), u('d')] }]]);
  expect(historyOf(emulator, AG1, AG_VIEWER)).toEqual([[u('a'), u('b'), u('c')]]);
  expect(emulator.writes(MJ2).map((w) => w.policy.bindings)).toEqual([
    [
      { role: DMS_EDITOR, members: [u('a')] },
      { role: DMS_ADMIN, members: [u('b')] },
    ],
  ]);
  expect(historyOf(emulator, SECRET, SM_VIEWER)).toEqual([[u('b')]]);
  expect(historyOf(emulator, PROJECT, REVIEWER)).toEqual([[u('a'), u('b')]]);
  expect(historyOf(emulator, SPANNER, READER)).toEqual([[u('a'), u('b')]]);
  expect([AG2, MJ1].flatMap((name) => emulator.writes(name))).toEqual([]);

  // Someone adds bindings in the console to the two policies that are about to be deleted from the code.
  for (const name of [MJ2, SPANNER]) emulator.addResource(name, { ...emulator.policy(name), bindings: [...bindingsOf(name), CONSOLE] });

  // 3. delete from the code: each deleted construct revokes exactly what it declared.
  emulator.clearWrites();
  ws.resynth(
    family({
      apBinding: [u('b'), u('c')],
      apPolicy: [{ role: AP_VIEWER, members: [u('a'), u('d')] }],
      agMember: false,
      agBinding: [u('a'), u('b'), u('c')],
      mjMembers: ['a'],
      secretMember: false,
      secretBinding: [u('b')],
    }),
  );
  await applied(ws, /Resources: 0 added, 0 changed, 6 destroyed/);
  expect(bindingsOf(AG1)).toEqual(expect.arrayContaining([FOREIGN, { role: AG_VIEWER, members: [u('a'), u('b'), u('c')] }]));
  expect(bindingsOf(AG1)).toHaveLength(2);
  expect(bindingsOf(MJ1)).toEqual([FOREIGN, { role: DMS_EDITOR, members: [u('a')] }]);
  // A deleted policy construct removes its declared bindings only: the console's binding stays.
  expect(bindingsOf(MJ2)).toEqual([CONSOLE]);
  expect(bindingsOf(SPANNER)).toEqual([CONSOLE]);
  expect(bindingsOf(SECRET)).toEqual([FOREIGN, { role: SM_VIEWER, members: [u('b')] }]);
  expect(bindingsOf(PROJECT)).toEqual([FOREIGN, { role: BROWSER, members: [u('a')] }]);
  expect([AP1, AP2, AG2].flatMap((name) => emulator.writes(name))).toEqual([]);

  // 4. destroy: everything the stack declared goes, nothing else.
  expect((await ws.destroy(env)).code).toBe(0);
  for (const name of [AP1, AG1, MJ1, SECRET, PROJECT]) expect({ name, bindings: bindingsOf(name) }).toEqual({ name, bindings: [FOREIGN] });
  expect(bindingsOf(AP2)).toEqual([]);
  expect(emulator.policy(AG2)).toMatchObject({ auditConfigs: AUDIT_A });
  expect(bindingsOf(AG2)).toEqual([]);
  expect(await ws.stateList()).toEqual([]);
});

// Audit configs are written with updateMask "bindings,etag,auditConfigs": Secret Manager's schema has the field
// (Spanner's has not: there a policy with auditConfigs fails synth, see request-shapes.e2e.test.ts and family.test.ts).
test("a policy's audit configs are replaced when declared, cleared by [], and left alone when not declared", async () => {
  const name = `projects/${P}/secrets/audited`;
  emulator.addResource(name, { bindings: [FOREIGN], auditConfigs: AUDIT_A });
  const policy = (auditConfigs: IamAuditConfigProps[] | undefined, members: string[]) => (s: TerraformStack) => {
    new GoogleIamPolicy(s, 'Audited', { resource: { ...SECRETS, name }, bindings: [{ role: ACCESSOR, members }], auditConfigs });
  };
  const ws = await workspace(policy(AUDIT_B, [u('a')]));
  await applied(ws, /Resources: 1 added/);
  expect(emulator.policy(name)).toMatchObject({ bindings: [{ role: ACCESSOR, members: [u('a')] }], auditConfigs: AUDIT_B });

  ws.resynth(policy(undefined, [u('b')]));
  await applied(ws, /Resources: 0 added, 1 changed, 0 destroyed/);
  expect(emulator.policy(name)).toMatchObject({ bindings: [{ role: ACCESSOR, members: [u('b')] }], auditConfigs: AUDIT_B });

  ws.resynth(policy([], [u('b')]));
  await applied(ws, /Resources: 0 added, 1 changed, 0 destroyed/);
  expect(emulator.policy(name).auditConfigs).toBeUndefined();

  expect((await ws.destroy(env)).code).toBe(0);
  expect(emulator.policy(name).bindings).toBeUndefined();
});

// Google's other authorization-policy collection, authzPolicies (what provider-google's NetworkSecurityAuthzPolicy creates).
test('the authzPolicies family: member, binding and policy apply and destroy through networksecurity v1', async () => {
  const [shared, owned] = [
    `projects/${P}/locations/us-central1/authzPolicies/lb-1`,
    `projects/${P}/locations/us-central1/authzPolicies/lb-2`,
  ];
  const ADMIN = 'roles/networksecurity.admin';
  emulator.addResource(shared, { bindings: [FOREIGN] });
  emulator.addResource(owned, { bindings: [FOREIGN] });
  const ws = await workspace((s) => {
    new NetworkSecurityAuthzPolicyIamMember(s, 'Member', { name: shared, role: ADMIN, member: u('a'), condition: X });
    new NetworkSecurityAuthzPolicyIamBinding(s, 'Binding', { name: shared, role: AP_VIEWER, members: [u('b'), u('c')] });
    new NetworkSecurityAuthzPolicyIamPolicy(s, 'Policy', { name: owned, bindings: [{ role: ADMIN, members: [u('d')] }] });
  });
  const writePaths: string[] = [];
  emulator.afterWrite = (path) => void writePaths.push(path);
  try {
    await applied(ws, /Apply complete! Resources: 3 added, 0 changed, 0 destroyed/);
  } finally {
    emulator.afterWrite = undefined;
  }
  expect(new Set(writePaths)).toEqual(new Set([`/networksecurity/v1/${shared}:setIamPolicy`, `/networksecurity/v1/${owned}:setIamPolicy`]));
  expect(emulator.policy(shared)).toMatchObject({ version: 3 });
  expect(bindingsOf(shared)).toEqual(
    expect.arrayContaining([FOREIGN, { role: ADMIN, members: [u('a')], condition: X }, { role: AP_VIEWER, members: [u('b'), u('c')] }]),
  );
  expect(bindingsOf(shared)).toHaveLength(3);
  expect(bindingsOf(owned)).toEqual([{ role: ADMIN, members: [u('d')] }]);

  expect((await ws.destroy(env)).code).toBe(0);
  expect(bindingsOf(shared)).toEqual([FOREIGN]);
  expect(bindingsOf(owned)).toEqual([]);
  expect(await ws.stateList()).toEqual([]);
});

test("the provider warns at plan of the other authorization-policy collection's name, naming the type that takes it, and the apply refuses it", async () => {
  // The name is a Terraform variable: unknown at synth, so only the provider can check it, once Terraform knows it.
  const ws = await workspace((s) => {
    const name = new TerraformVariable(s, 'authz_name', { type: 'string' }).stringValue;
    new NetworkSecurityAuthzPolicyIamMember(s, 'Member', { name, role: AP_VIEWER, member: u('a') });
  });
  const refusal =
    'wrong shape: this is an authorization policy name, which googleiam_authorization_policy_iam_member takes; ' +
    'expected the authz policy name as projects/{project}/locations/{location}/authzPolicies/{id}';
  const plan = await ws.plan(env, ['-var', `authz_name=${AP1}`]);
  const planText = plan.output.replace(/\s+/g, ' ');
  expect(plan.code).toBe(2);
  expect(planText).toContain('Warning: Invalid');
  expect(planText).toContain(refusal);
  emulator.resetStats();
  const apply = await ws.apply(env, ['-var', `authz_name=${AP1}`]);
  expect(apply.code).toBe(1);
  const applyText = apply.output.replace(/\s+/g, ' ');
  expect(applyText).toContain('Error: Invalid');
  expect(applyText).toContain(refusal);
  expect(emulator.stats().requests).toBe(0);
});
