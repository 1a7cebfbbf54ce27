/**
 * Every request shape Google publishes, end to end under the real `terraform`
 * against the emulator, which is as strict as Google from the same table (a
 * wrong verb is a 404, a field the schema lacks a 400): grant, change and
 * revoke on a collection of each shape, GET with the version in the query
 * (Secret Manager), POST with it in the body (Resource Manager v3, Spanner),
 * POST with it in the query and no body (Vertex AI models, IAM service
 * accounts), without `updateMask` (Pub/Sub, Spanner, Vertex AI), and with
 * `updateMask` where audit configs change (Resource Manager v3).
 */
import { TerraformStack, TerraformVariable } from 'cdktf';
import { GoogleIamBinding, GoogleIamMember, GoogleIamPolicy, type IamAuditConfigProps } from '../../../lib';
import type { Binding } from '../../../lib/iam/types';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv } from '../../support/grant-env';
import { TerraformWorkspace, workspacesOfThisFile } from '../../support/terraform';
import { historyOf } from '../../support/write-history';

jest.setTimeout(240_000);

const P = 'shapes-project';
const SECRET = { service: 'secretmanager', apiVersion: 'v1', name: `projects/${P}/secrets/api-key` };
const PROJECT = { service: 'cloudresourcemanager', apiVersion: 'v3', name: `projects/${P}` };
const SPANNER = { service: 'spanner', apiVersion: 'v1', name: `projects/${P}/instances/main` };
const MODEL = { service: 'aiplatform', apiVersion: 'v1', name: `projects/${P}/locations/us-central1/models/ranker` };
const ACCOUNT = { service: 'iam', apiVersion: 'v1', name: `projects/${P}/serviceAccounts/deployer@${P}.iam.gserviceaccount.com` };
const TOPIC = { service: 'pubsub', apiVersion: 'v1', name: `projects/${P}/topics/orders` };
const ALL = [SECRET, PROJECT, SPANNER, MODEL, ACCOUNT, TOPIC];
// The APIs that serve IAM at paths of their own (their Discovery documents' method paths).
const BUCKET = { service: 'storage', apiVersion: 'v1', name: 'b/shapes-logs' };
const INSTANCE = { service: 'compute', apiVersion: 'v1', name: `projects/${P}/zones/us-central1-a/instances/vm` };
const SUBNETWORK = { service: 'compute', apiVersion: 'v1', name: `projects/${P}/regions/us-central1/subnetworks/apps` };
const TABLE = { service: 'bigquery', apiVersion: 'v2', name: `projects/${P}/datasets/sales/tables/orders` };
const ZONE = { service: 'dns', apiVersion: 'v1', name: `projects/${P}/managedZones/internal` };
const DEPLOYMENT = { service: 'deploymentmanager', apiVersion: 'v2', name: `projects/${P}/global/deployments/base` };
const OTHER_PATHS = [BUCKET, INSTANCE, SUBNETWORK, TABLE, ZONE, DEPLOYMENT];

const FOREIGN: Binding = { role: 'roles/owner', members: ['user:owner@example.com'] };
const AUDIT: IamAuditConfigProps[] = [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }];
const u = (name: string) => `user:${name}@example.com`;

let emulator: GoogleApiEmulator;
let env: Record<string, string>;
const requests: string[] = [];
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start({ log: (line) => requests.push(line) });
  env = grantEnv(emulator, emulator.env(GoogleApiEmulator.ACCESS_TOKEN, [...new Set([...ALL, ...OTHER_PATHS].map((r) => r.service))]));
});
afterAll(async () => {
  await emulator.close();
});

async function applied(ws: TerraformWorkspace, summary: RegExp): Promise<void> {
  const result = await ws.apply(env);
  expect({ code: result.code, summary: summary.exec(result.output)?.[0] ?? result.output }).toEqual({
    code: 0,
    summary: expect.stringMatching(summary),
  });
}

/** The requests the emulator saw for one resource since the last check, as `VERB verb -> status`. */
function requestsFor(name: string): string[] {
  return requests
    .filter((line) => line.includes(`/${name}:`))
    .map((line) => line.replace(/^emulator: (\w+) \S+:(\w+) -> (.*)$/, '$1 $2 -> $3'))
    .filter((line, i, all) => all.indexOf(line) === i)
    .sort();
}

interface Step {
  readonly members: string[];
  readonly projectAudit?: IamAuditConfigProps[];
}

const KEEPER = { service: 'secretmanager', apiVersion: 'v1', name: `projects/${P}/secrets/keeper` };

/** The stack of one step; without a step only an unrelated grant stays, so the stack keeps its provider. */
const stack = (step: Step | undefined) => (s: TerraformStack) => {
  new GoogleIamMember(s, 'Keeper', { resource: KEEPER, role: 'roles/secretmanager.viewer', member: u('keeper') });
  if (!step) return;
  new GoogleIamBinding(s, 'SecretViewers', { resource: SECRET, role: 'roles/secretmanager.viewer', members: step.members });
  new GoogleIamPolicy(s, 'ProjectPolicy', {
    resource: PROJECT,
    bindings: [
      { role: FOREIGN.role, members: [...FOREIGN.members!] },
      { role: 'roles/browser', members: step.members },
    ],
    auditConfigs: step.projectAudit,
  });
  new GoogleIamPolicy(s, 'SpannerPolicy', { resource: SPANNER, bindings: [{ role: 'roles/spanner.viewer', members: step.members }] });
  step.members.forEach((m) => new GoogleIamMember(s, `ModelUser-${m}`, { resource: MODEL, role: 'roles/aiplatform.user', member: m }));
  new GoogleIamBinding(s, 'AccountUsers', { resource: ACCOUNT, role: 'roles/iam.serviceAccountUser', members: step.members });
  new GoogleIamPolicy(s, 'TopicPolicy', { resource: TOPIC, bindings: [{ role: 'roles/pubsub.publisher', members: step.members }] });
};

test('grant, change and revoke on a collection of each shape: every request is one Google accepts', async () => {
  for (const { name } of [...ALL, KEEPER]) emulator.addResource(name, { bindings: [FOREIGN] });

  // 1. grant, with audit configs on the project (the one write that sends updateMask).
  const ws = await workspace(stack({ members: [u('a')], projectAudit: AUDIT }));
  await applied(ws, /Resources: 7 added, 0 changed, 0 destroyed/);
  expect(historyOf(emulator, SECRET.name, 'roles/secretmanager.viewer')).toEqual([[u('a')]]);
  expect(historyOf(emulator, MODEL.name, 'roles/aiplatform.user')).toEqual([[u('a')]]);
  expect(historyOf(emulator, ACCOUNT.name, 'roles/iam.serviceAccountUser')).toEqual([[u('a')]]);
  expect(emulator.policy(PROJECT.name)).toMatchObject({
    bindings: [FOREIGN, { role: 'roles/browser', members: [u('a')] }],
    auditConfigs: AUDIT,
  });
  expect(emulator.policy(SPANNER.name).bindings).toEqual([{ role: 'roles/spanner.viewer', members: [u('a')] }]);
  expect(emulator.policy(TOPIC.name).bindings).toEqual([{ role: 'roles/pubsub.publisher', members: [u('a')] }]);
  expect(requestsFor(SECRET.name)).toEqual(['GET getIamPolicy -> 200', 'POST setIamPolicy -> 200']);
  expect(requestsFor(PROJECT.name)).toEqual(['POST getIamPolicy -> 200', 'POST setIamPolicy -> 200']);
  expect(requestsFor(MODEL.name)).toEqual(['POST getIamPolicy -> 200', 'POST setIamPolicy -> 200']);
  expect(requestsFor(ACCOUNT.name)).toEqual(['POST getIamPolicy -> 200', 'POST setIamPolicy -> 200']);
  expect(emulator.stats().rejected).toBe(0);

  // 2. change: members, and the project's audit configs left alone (no updateMask sent, they stay).
  emulator.clearWrites();
  ws.resynth(stack({ members: [u('a'), u('b')] }));
  await applied(ws, /Resources: 1 added, 5 changed, 0 destroyed/); // the model's new member; the rest updated in place
  expect(historyOf(emulator, SECRET.name, 'roles/secretmanager.viewer')).toEqual([[u('a'), u('b')]]);
  expect(historyOf(emulator, ACCOUNT.name, 'roles/iam.serviceAccountUser')).toEqual([[u('a'), u('b')]]);
  expect(historyOf(emulator, MODEL.name, 'roles/aiplatform.user')).toEqual([[u('a'), u('b')]]);
  expect(historyOf(emulator, SPANNER.name, 'roles/spanner.viewer')).toEqual([[u('a'), u('b')]]);
  expect(historyOf(emulator, TOPIC.name, 'roles/pubsub.publisher')).toEqual([[u('a'), u('b')]]);
  expect(emulator.policy(PROJECT.name)).toMatchObject({
    bindings: [FOREIGN, { role: 'roles/browser', members: [u('a'), u('b')] }],
    auditConfigs: AUDIT,
  });
  expect(emulator.stats().rejected).toBe(0);

  // 3. revoke: everything deleted from the code is taken back; what was there before stays.
  emulator.clearWrites();
  ws.resynth(stack(undefined));
  await applied(ws, /Resources: 0 added, 0 changed, \d+ destroyed/);
  for (const { name } of [SECRET, MODEL, ACCOUNT])
    expect({ name, bindings: emulator.policy(name).bindings }).toEqual({ name, bindings: [FOREIGN] });
  expect(emulator.policy(PROJECT.name).bindings).toBeUndefined();
  expect(emulator.policy(SPANNER.name).bindings).toBeUndefined();
  expect(emulator.policy(TOPIC.name).bindings).toBeUndefined();
  expect(emulator.stats().rejected).toBe(0);

  expect((await ws.destroy(env)).code).toBe(0);
  expect(emulator.policy(KEEPER.name).bindings).toEqual([FOREIGN]);
  expect(await ws.stateList()).toEqual([]);
});

test('a name only Terraform knows is checked at apply against the same table: one in no collection fails, nothing is sent', async () => {
  const ws = await workspace((s) => {
    const name = new TerraformVariable(s, 'secret', { type: 'string' }).stringValue;
    new GoogleIamMember(s, 'Late', { resource: { ...SECRET, name }, role: 'roles/secretmanager.viewer', member: u('late') });
  });
  emulator.resetStats();
  const failed = await ws.apply(env, ['-var', `secret=projects/${P}/topics/not-a-secret`]);
  expect(failed.code).not.toBe(0);
  // The provider's validation refuses it as the construct would have at synth, naming the field and the value.
  expect(failed.output.replace(/\s+/g, ' ')).toMatch(
    /with googleiam_iam_member\.Late, .* name: not in any IAM-enabled collection of secretmanager v1 .*\(got "projects\/shapes-project\/topics\/not-a-secret"\)/,
  );
  expect(emulator.stats().requests).toBe(0);

  emulator.addResource(`projects/${P}/secrets/late`);
  const applied = await ws.apply(env, ['-var', `secret=projects/${P}/secrets/late`]);
  expect({ code: applied.code, output: applied.code === 0 ? '' : applied.output }).toEqual({ code: 0, output: '' });
  expect(historyOf(emulator, `projects/${P}/secrets/late`, 'roles/secretmanager.viewer')).toEqual([[u('late')]]);
  expect((await ws.destroy(env, ['-var', `secret=projects/${P}/secrets/late`])).code).toBe(0);
});

/** The requests the emulator saw for one resource, as `VERB /path -> status`, the path without env()'s prefix: as sent to Google. */
function requestsAt(name: string): string[] {
  return requests
    .map((line) => /^emulator: (\w+) \/[a-z0-9]+(\/\S+) -> (.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && m[2].includes(`/${name}`))
    .map(([, verb, path, status]) => `${verb} ${path} -> ${status}`)
    .filter((line, i, all) => all.indexOf(line) === i)
    .sort();
}

test('the APIs at paths of their own (Cloud Storage, Compute Engine, BigQuery, Cloud DNS, Deployment Manager): grant, change and revoke', async () => {
  for (const { name } of [...OTHER_PATHS, KEEPER]) emulator.addResource(name, { bindings: [FOREIGN] });
  const tableViewer = 'roles/bigquery.dataViewer';
  const grants = (members: string[]) => (s: TerraformStack) => {
    new GoogleIamMember(s, 'Keeper', { resource: KEEPER, role: 'roles/secretmanager.viewer', member: u('keeper') });
    if (members.length === 0) return;
    new GoogleIamBinding(s, 'BucketViewers', { resource: BUCKET, role: 'roles/storage.objectViewer', members });
    members.forEach(
      (m) => new GoogleIamMember(s, `VmAdmin-${m}`, { resource: INSTANCE, role: 'roles/compute.instanceAdmin.v1', member: m }),
    );
    new GoogleIamBinding(s, 'SubnetUsers', { resource: SUBNETWORK, role: 'roles/compute.networkUser', members });
    new GoogleIamPolicy(s, 'TablePolicy', {
      resource: TABLE,
      bindings: [
        { role: FOREIGN.role, members: [...FOREIGN.members!] },
        { role: tableViewer, members },
      ],
    });
    new GoogleIamBinding(s, 'ZoneReaders', { resource: ZONE, role: 'roles/dns.reader', members });
    new GoogleIamBinding(s, 'DeploymentViewers', { resource: DEPLOYMENT, role: 'roles/deploymentmanager.viewer', members });
  };
  requests.length = 0;
  const ws = await workspace(grants([u('a')]));
  await applied(ws, /Resources: 7 added, 0 changed, 0 destroyed/);
  expect(historyOf(emulator, BUCKET.name, 'roles/storage.objectViewer')).toEqual([[u('a')]]);
  expect(historyOf(emulator, INSTANCE.name, 'roles/compute.instanceAdmin.v1')).toEqual([[u('a')]]);
  expect(historyOf(emulator, SUBNETWORK.name, 'roles/compute.networkUser')).toEqual([[u('a')]]);
  expect(historyOf(emulator, TABLE.name, tableViewer)).toEqual([[u('a')]]);
  expect(historyOf(emulator, ZONE.name, 'roles/dns.reader')).toEqual([[u('a')]]);
  expect(historyOf(emulator, DEPLOYMENT.name, 'roles/deploymentmanager.viewer')).toEqual([[u('a')]]);
  for (const { name } of OTHER_PATHS) expect({ name, foreign: emulator.policy(name).bindings?.[0] }).toEqual({ name, foreign: FOREIGN });
  // Each request at the path, with the verb, its API's Discovery document gives.
  expect(requestsAt(BUCKET.name)).toEqual([`GET /storage/v1/${BUCKET.name}/iam -> 200`, `PUT /storage/v1/${BUCKET.name}/iam -> 200`]);
  expect(requestsAt(INSTANCE.name)).toEqual([
    `GET /compute/v1/${INSTANCE.name}/getIamPolicy -> 200`,
    `POST /compute/v1/${INSTANCE.name}/setIamPolicy -> 200`,
  ]);
  expect(requestsAt(TABLE.name)).toEqual([
    `POST /bigquery/v2/${TABLE.name}:getIamPolicy -> 200`,
    `POST /bigquery/v2/${TABLE.name}:setIamPolicy -> 200`,
  ]);
  expect(requestsAt(ZONE.name)).toEqual([`POST /dns/v1/${ZONE.name}:getIamPolicy -> 200`, `POST /dns/v1/${ZONE.name}:setIamPolicy -> 200`]);
  expect(requestsAt(DEPLOYMENT.name)).toEqual([
    `GET /deploymentmanager/v2/${DEPLOYMENT.name}/getIamPolicy -> 200`,
    `POST /deploymentmanager/v2/${DEPLOYMENT.name}/setIamPolicy -> 200`,
  ]);
  expect(emulator.stats().rejected).toBe(0);
  const clean = await ws.plan(env, ['-detailed-exitcode']);
  expect({ code: clean.code, output: clean.code === 0 ? '' : clean.output }).toEqual({ code: 0, output: '' });

  emulator.clearWrites();
  ws.resynth(grants([u('a'), u('b')]));
  await applied(ws, /Resources: 1 added, 5 changed, 0 destroyed/);
  expect(historyOf(emulator, BUCKET.name, 'roles/storage.objectViewer')).toEqual([[u('a'), u('b')]]);
  expect(historyOf(emulator, INSTANCE.name, 'roles/compute.instanceAdmin.v1')).toEqual([[u('a'), u('b')]]);
  expect(historyOf(emulator, TABLE.name, tableViewer)).toEqual([[u('a'), u('b')]]);

  emulator.clearWrites();
  ws.resynth(grants([]));
  await applied(ws, /Resources: 0 added, 0 changed, 7 destroyed/);
  for (const { name } of OTHER_PATHS.filter((r) => r !== TABLE))
    expect({ name, bindings: emulator.policy(name).bindings }).toEqual({ name, bindings: [FOREIGN] });
  expect(emulator.policy(TABLE.name).bindings).toBeUndefined();
  expect(emulator.stats().rejected).toBe(0);
  expect((await ws.destroy(env)).code).toBe(0);
});
