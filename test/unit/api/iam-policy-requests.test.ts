/** Each request IamPolicyApi sends is exactly what Google's schema for the collection describes. */
import type { GoogleRestClient, RestRequest } from '../../../lib/api/client';
import { GoogleApiError } from '../../../lib/api/errors';
import { IamPolicyApi, type IamPolicyService } from '../../../lib/api/iam-policy';
import type { Policy } from '../../../lib/iam/types';

const POLICY: Policy = { version: 3, etag: 'BwX', bindings: [{ role: 'roles/secretmanager.viewer', members: ['user:a@example.com'] }] };
const AUDIT = [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }];

/** A client that records each request and answers with a policy. */
function recording(): { client: GoogleRestClient; sent: RestRequest[] } {
  const sent: RestRequest[] = [];
  const client = { request: async (request: RestRequest) => (sent.push(request), { etag: 'BwY', version: 1 }) };
  return { client: client as unknown as GoogleRestClient, sent };
}

async function read(target: IamPolicyService, name: string): Promise<RestRequest> {
  const { client, sent } = recording();
  await new IamPolicyApi(client, { ...target, name: name }).getIamPolicy();
  return sent[0];
}

test.each([
  [
    'GET + query (Secret Manager)',
    { service: 'secretmanager', apiVersion: 'v1' },
    'projects/p/secrets/s',
    { query: { 'options.requestedPolicyVersion': 3 } },
  ],
  [
    'POST + body (Spanner)',
    { service: 'spanner', apiVersion: 'v1' },
    'projects/p/instances/i',
    { method: 'POST', body: { options: { requestedPolicyVersion: 3 } } },
  ],
  [
    'POST + query (Vertex AI)',
    { service: 'aiplatform', apiVersion: 'v1' },
    'projects/p/locations/l/models/m',
    { method: 'POST', query: { 'options.requestedPolicyVersion': 3 } },
  ],
  [
    'an explicit method wins (POST_QUERY on Secret Manager)',
    { service: 'secretmanager', apiVersion: 'v1', getIamPolicyMethod: 'POST_QUERY' as const },
    'projects/p/secrets/s',
    { method: 'POST', query: { 'options.requestedPolicyVersion': 3 } },
  ],
])('getIamPolicy, %s', async (_label, target, name, expected) => {
  const request = await read(target, name);
  expect(request).toEqual({ service: target.service, path: `${target.apiVersion}/${name}:getIamPolicy`, ...expected });
});

test('a name in no collection Google publishes is refused before anything is sent, unless the method is given', async () => {
  const { client, sent } = recording();
  const api = (name: string) => new IamPolicyApi(client, { service: 'secretmanager', apiVersion: 'v1', name: name });
  const error = await api('projects/p/topics/t')
    .getIamPolicy()
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(GoogleApiError);
  expect((error as Error).message).toMatch(
    /projects\/p\/topics\/t is not in any IAM-enabled collection .* secretmanager v1 .*policyReadMethod/,
  );
  expect(sent).toEqual([]);
  await new IamPolicyApi(client, {
    service: 'widgets',
    apiVersion: 'v1',
    getIamPolicyMethod: 'GET',
    name: 'projects/p/widgets/w',
  }).getIamPolicy();
  expect(sent).toHaveLength(1);
});

test.each([
  [
    'Secret Manager, bindings only: no updateMask (Google applies bindings, etag)',
    'secretmanager',
    'projects/p/secrets/s',
    false,
    undefined,
  ],
  [
    'Secret Manager, audit configs: the mask the Terraform provider sends',
    'secretmanager',
    'projects/p/secrets/s',
    true,
    'bindings,etag,auditConfigs',
  ],
  ['Pub/Sub (neither updateMask nor Policy.auditConfigs in its schema), bindings only', 'pubsub', 'projects/p/topics/t', false, undefined],
])('setIamPolicy, %s', async (_label, service, name, updateAuditConfigs, mask) => {
  const { client, sent } = recording();
  await new IamPolicyApi(client, { service, apiVersion: 'v1', name: name }).setIamPolicy(
    { ...POLICY, auditConfigs: AUDIT },
    { updateAuditConfigs },
  );
  // Pub/Sub's Policy has no auditConfigs: sending them would be a 400 (and Google never returns any there).
  const auditConfigs = service === 'pubsub' ? {} : { auditConfigs: AUDIT };
  expect(sent).toEqual([
    {
      service,
      path: `v1/${name}:setIamPolicy`,
      method: 'POST',
      body: { policy: { ...POLICY, ...auditConfigs }, ...(mask ? { updateMask: mask } : {}) },
    },
  ]);
});

test('replacing audit configs where the schema has no updateMask is refused, nothing sent (synth refuses it first)', async () => {
  const { client, sent } = recording();
  const error = await new IamPolicyApi(client, { service: 'pubsub', apiVersion: 'v1', name: 'projects/p/topics/t' })
    .setIamPolicy(POLICY, { updateAuditConfigs: true })
    .catch((e: unknown) => e);
  expect(error).toMatchObject({ status: 'INVALID_ARGUMENT', retryable: false });
  expect((error as Error).message).toMatch(/pubsub v1's setIamPolicy has no updateMask/);
  const logging = await new IamPolicyApi(client, {
    service: 'logging',
    apiVersion: 'v2',
    name: 'projects/p/locations/global/buckets/b/views/v',
  })
    .setIamPolicy(POLICY, { updateAuditConfigs: true })
    .catch((e: unknown) => e);
  expect((logging as Error).message).toMatch(/logging v2's setIamPolicy takes a Policy without auditConfigs/);
  expect(sent).toEqual([]);
});

test('writing a policy Google publishes as read-only (Data Catalog entries) is refused, nothing sent', async () => {
  const { client, sent } = recording();
  const error = await new IamPolicyApi(client, {
    service: 'datacatalog',
    apiVersion: 'v1',
    name: 'projects/p/locations/l/entryGroups/g/entries/e',
  })
    .setIamPolicy(POLICY)
    .catch((e: unknown) => e);
  expect(error).toMatchObject({ status: 'INVALID_ARGUMENT', retryable: false });
  expect((error as Error).message).toMatch(/no setIamPolicy/);
  expect(sent).toEqual([]);
});

/** Both requests of one resource: its read, then the write of what was read back. */
async function readAndWrite(service: string, apiVersion: string, name: string): Promise<RestRequest[]> {
  const { client, sent } = recording();
  const api = new IamPolicyApi(client, { service, apiVersion, name });
  await api.getIamPolicy();
  await api.setIamPolicy({ ...POLICY, auditConfigs: AUDIT });
  return sent;
}

test.each([
  [
    // storage/v1 buckets.getIamPolicy: GET b/{bucket}/iam ?optionsRequestedPolicyVersion; setIamPolicy: PUT b/{bucket}/iam, body Policy.
    'Cloud Storage bucket',
    ['storage', 'v1', 'b/logs'],
    [
      { service: 'storage', path: 'storage/v1/b/logs/iam', query: { optionsRequestedPolicyVersion: 3 } },
      // Its Policy has no auditConfigs, and the body is the Policy itself.
      { service: 'storage', path: 'storage/v1/b/logs/iam', method: 'PUT', body: POLICY },
    ],
  ],
  [
    "Cloud Storage bucket by Google's full resource name",
    ['storage', 'v1', 'projects/_/buckets/logs'],
    [
      { service: 'storage', path: 'storage/v1/b/logs/iam', query: { optionsRequestedPolicyVersion: 3 } },
      { service: 'storage', path: 'storage/v1/b/logs/iam', method: 'PUT', body: POLICY },
    ],
  ],
  [
    // storage/v1 objects.getIamPolicy takes no policy version.
    'Cloud Storage object',
    ['storage', 'v1', 'b/logs/o/today.txt'],
    [
      { service: 'storage', path: 'storage/v1/b/logs/o/today.txt/iam' },
      { service: 'storage', path: 'storage/v1/b/logs/o/today.txt/iam', method: 'PUT', body: POLICY },
    ],
  ],
  [
    // compute/v1 instances.getIamPolicy: GET …/instances/{resource}/getIamPolicy ?optionsRequestedPolicyVersion; ZoneSetPolicyRequest { policy }.
    'Compute Engine instance',
    ['compute', 'v1', 'projects/p/zones/us-central1-a/instances/vm'],
    [
      {
        service: 'compute',
        path: 'compute/v1/projects/p/zones/us-central1-a/instances/vm/getIamPolicy',
        query: { optionsRequestedPolicyVersion: 3 },
      },
      // Compute's Policy has auditConfigs (written back as read); its request has no updateMask.
      {
        service: 'compute',
        path: 'compute/v1/projects/p/zones/us-central1-a/instances/vm/setIamPolicy',
        method: 'POST',
        body: { policy: { ...POLICY, auditConfigs: AUDIT } },
      },
    ],
  ],
  [
    'BigQuery table',
    ['bigquery', 'v2', 'projects/p/datasets/d/tables/t'],
    [
      {
        service: 'bigquery',
        path: 'bigquery/v2/projects/p/datasets/d/tables/t:getIamPolicy',
        method: 'POST',
        body: { options: { requestedPolicyVersion: 3 } },
      },
      {
        service: 'bigquery',
        path: 'bigquery/v2/projects/p/datasets/d/tables/t:setIamPolicy',
        method: 'POST',
        body: { policy: { ...POLICY, auditConfigs: AUDIT } },
      },
    ],
  ],
  [
    'Cloud DNS managed zone',
    ['dns', 'v1', 'projects/p/managedZones/z'],
    [
      {
        service: 'dns',
        path: 'dns/v1/projects/p/managedZones/z:getIamPolicy',
        method: 'POST',
        body: { options: { requestedPolicyVersion: 3 } },
      },
      {
        service: 'dns',
        path: 'dns/v1/projects/p/managedZones/z:setIamPolicy',
        method: 'POST',
        body: { policy: { ...POLICY, auditConfigs: AUDIT } },
      },
    ],
  ],
  [
    'Deployment Manager deployment',
    ['deploymentmanager', 'v2', 'projects/p/global/deployments/d'],
    [
      {
        service: 'deploymentmanager',
        path: 'deploymentmanager/v2/projects/p/global/deployments/d/getIamPolicy',
        query: { optionsRequestedPolicyVersion: 3 },
      },
      {
        service: 'deploymentmanager',
        path: 'deploymentmanager/v2/projects/p/global/deployments/d/setIamPolicy',
        method: 'POST',
        body: { policy: { ...POLICY, auditConfigs: AUDIT } },
      },
    ],
  ],
])('%s: the paths, verbs and bodies its Discovery document gives', async (_label, [service, apiVersion, name], expected) => {
  expect(await readAndWrite(service, apiVersion, name)).toEqual(expected);
});

test('a Cloud Storage policy grant cannot replace audit configs (its Policy has none), nothing sent', async () => {
  const { client, sent } = recording();
  const error = await new IamPolicyApi(client, { service: 'storage', apiVersion: 'v1', name: 'b/logs' })
    .setIamPolicy(POLICY, { updateAuditConfigs: true })
    .catch((e: unknown) => e);
  expect((error as Error).message).toMatch(/storage v1's setIamPolicy has no updateMask/);
  expect(sent).toEqual([]);
});
