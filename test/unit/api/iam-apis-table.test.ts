import * as fs from 'fs';
import * as path from 'path';
import { GoogleIamApis, USUAL_IAM_PATHS } from '../../../lib/api/iam-apis';

/** The generator (a plain Node script: only it and this test load googleapis). */
const generator = require('../../../scripts/generate-iam-table.js') as {
  generateIamTable(): { text: string; doc: string; counts: Record<string, unknown> & { apisWithoutUpdateMask: string[] } };
  withDocTable(page: string, block: string): string;
  DOC_FILE: string;
  readCollections(): { api: string; url: string; sample?: string }[];
  TABLE_FILE: string;
  RESOURCE_PATH_CORRECTIONS: Record<string, string>;
};

const generated = generator.generateIamTable();

test('the committed table is exactly what the pinned googleapis package generates (npm run generate:iam-table)', () => {
  expect(fs.readFileSync(generator.TABLE_FILE, 'utf8')).toBe(generated.text);
});

test("docs/generic-resources.md's table of APIs is generated from the same data", () => {
  expect(path.relative(path.join(__dirname, '..', '..', '..'), generator.DOC_FILE)).toBe(path.join('docs', 'generic-resources.md'));
  const page = fs.readFileSync(generator.DOC_FILE, 'utf8');
  expect(generator.withDocTable(page, generated.doc)).toBe(page);
  expect(generated.doc).toContain(
    '| pubsub | v1 (GET ×4; no updateMask, no auditConfigs), v1beta2 (GET ×2; no updateMask, no auditConfigs) |',
  );
});

test("the table covers Google's whole IAM surface in the pinned Discovery documents", () => {
  expect(GoogleIamApis.SOURCE).toBe('googleapis 188.0.0');
  const { apis, collections, GET, POST, POST_QUERY, otherPaths, unversioned, readOnly, fromResourcePath, apisWithoutUpdateMask } =
    generated.counts as typeof generated.counts & Record<string, unknown>;
  // Every getIamPolicy method of every client: 527, all of them reachable (375 at {version}/{name}:getIamPolicy, 152 elsewhere).
  expect({ apis, collections, GET, POST, POST_QUERY, otherPaths, unversioned }).toEqual({
    apis: 73,
    collections: 527,
    GET: 418,
    POST: 91,
    POST_QUERY: 18,
    // Distinct collections of the five APIs at other paths (compute's 3 versions × ~36 and the others).
    otherPaths: 119,
    unversioned: ['storage v1 b/*/o/*'],
  });
  expect(readOnly).toHaveLength(4);
  expect(fromResourcePath).toHaveLength(18);
  expect(apisWithoutUpdateMask.sort()).toEqual(
    [
      'pubsub',
      'artifactregistry',
      'spanner',
      'cloudtasks',
      'iap',
      'datacatalog',
      'dataproc',
      'servicedirectory',
      'binaryauthorization',
      'containeranalysis',
      'aiplatform',
      'apigeeregistry',
      'dataform',
      'discoveryengine',
      'gkeonprem',
      'managedidentities',
      'notebooks',
      'runtimeconfig',
      'cloudiot',
      'compute',
      'storage',
    ].sort(),
  );
  expect((generated.counts as unknown as { apisAtOtherPaths: string[] }).apisAtOtherPaths).toEqual([
    'bigquery',
    'compute',
    'deploymentmanager',
    'dns',
    'storage',
  ]);
});

test("21 APIs' Policy has no auditConfigs: those without updateMask but Compute Engine, and logging", () => {
  const counts = generated.counts as unknown as { apisWithoutPolicyAuditConfigs: string[]; apisWithoutUpdateMask: string[] };
  expect(counts.apisWithoutPolicyAuditConfigs.sort()).toEqual(
    [...counts.apisWithoutUpdateMask.filter((api) => api !== 'compute'), 'logging'].sort(),
  );
  expect(GoogleIamApis.apiVersion('compute', 'v1')).toMatchObject({ updateMask: false, auditConfigs: true });
  expect(GoogleIamApis.apiVersion('logging', 'v2')).toMatchObject({ updateMask: true, auditConfigs: false });
  expect(GoogleIamApis.apiVersion('secretmanager', 'v1')).toMatchObject({ updateMask: true, auditConfigs: true });
});

test.each([
  // [service, version, name, shape, updateMask]: the cases the issue names, as Google publishes them.
  ['secretmanager', 'v1', 'projects/p/secrets/s', 'GET', true],
  ['cloudresourcemanager', 'v3', 'projects/p', 'POST', true],
  ['cloudresourcemanager', 'v1', 'projects/p', 'POST', true],
  ['iam', 'v1', 'projects/p/serviceAccounts/sa@p.iam.gserviceaccount.com', 'POST_QUERY', true],
  ['iam', 'v1', 'projects/p/locations/global/workloadIdentityPools/pool', 'POST', true],
  ['aiplatform', 'v1', 'projects/p/locations/us-central1/models/m', 'POST_QUERY', false],
  ['dataproc', 'v1', 'projects/p/regions/r/autoscalingPolicies/a', 'POST', false],
  ['dataproc', 'v1beta2', 'projects/p/regions/r/autoscalingPolicies/a', 'GET', false],
  ['pubsub', 'v1', 'projects/p/topics/t', 'GET', false],
  ['spanner', 'v1', 'projects/p/instances/i/databases/d', 'POST', false],
  ['logging', 'v2', 'projects/p/locations/global/buckets/b/views/v', 'POST', true],
  ['iap', 'v1', 'projects/123/iap_web/compute/services/s', 'POST', false],
  ['sourcerepo', 'v1', 'projects/p/repos/team/repo', 'GET', true],
  ['networksecurity', 'v1', 'projects/p/locations/global/authorizationPolicies/ap', 'GET', true],
  ['datamigration', 'v1', 'projects/p/locations/l/migrationJobs/j', 'GET', true],
])('%s %s %s: getIamPolicy is %s, updateMask %s', (service, version, name, shape, updateMask) => {
  expect(GoogleIamApis.collection(service, version, name)?.shape).toBe(shape);
  expect(GoogleIamApis.apiVersion(service, version)?.updateMask).toBe(updateMask);
});

test('names are matched against the patterns Google publishes, segment by segment', () => {
  expect(GoogleIamApis.collection('secretmanager', 'v1', 'projects/p/secrets/s/versions/1')).toBeUndefined();
  expect(GoogleIamApis.collection('secretmanager', 'v1', 'projects/p/topics/t')).toBeUndefined();
  // A literal segment of Google's pattern is literal: `locations/global` only.
  expect(GoogleIamApis.collection('managedidentities', 'v1', 'projects/p/locations/global/domains/d')).toBeDefined();
  expect(GoogleIamApis.collection('managedidentities', 'v1', 'projects/p/locations/us-east1/domains/d')).toBeUndefined();
  // logging's `^[^/]+/[^/]+/locations/...` (any parent kind).
  expect(GoogleIamApis.collection('logging', 'v2', 'billingAccounts/b/locations/global/buckets/x/views/v')?.shape).toBe('POST');
});

test.each([
  // [service, version, name, shape, the paths as each API's Discovery document gives getIamPolicy and setIamPolicy]
  [
    'storage',
    'v1',
    'b/logs',
    'GET',
    // storage/v1: GET b/{bucket}/iam (optionsRequestedPolicyVersion), PUT b/{bucket}/iam with a Policy body.
    {
      servicePath: 'storage/',
      getSuffix: '/iam',
      setVerb: 'PUT',
      setSuffix: '/iam',
      versionParameter: 'optionsRequestedPolicyVersion',
      policyBody: true,
    },
  ],
  [
    'compute',
    'v1',
    'projects/p/zones/us-central1-a/instances/vm',
    'GET',
    // compute/v1: GET projects/{project}/zones/{zone}/instances/{resource}/getIamPolicy, POST …/setIamPolicy (ZoneSetPolicyRequest).
    {
      servicePath: 'compute/',
      getSuffix: '/getIamPolicy',
      setVerb: 'POST',
      setSuffix: '/setIamPolicy',
      versionParameter: 'optionsRequestedPolicyVersion',
      policyBody: false,
    },
  ],
  [
    'bigquery',
    'v2',
    'projects/p/datasets/d/tables/t',
    'POST',
    // bigquery/v2: POST bigquery/v2/{+resource}:getIamPolicy with GetIamPolicyRequest, POST …:setIamPolicy.
    {
      servicePath: 'bigquery/',
      getSuffix: ':getIamPolicy',
      setVerb: 'POST',
      setSuffix: ':setIamPolicy',
      versionParameter: 'options.requestedPolicyVersion',
      policyBody: false,
    },
  ],
  [
    'dns',
    'v1',
    'projects/p/managedZones/z',
    'POST',
    {
      servicePath: 'dns/',
      getSuffix: ':getIamPolicy',
      setVerb: 'POST',
      setSuffix: ':setIamPolicy',
      versionParameter: 'options.requestedPolicyVersion',
      policyBody: false,
    },
  ],
  [
    'deploymentmanager',
    'v2',
    'projects/p/global/deployments/d',
    'GET',
    {
      servicePath: 'deploymentmanager/',
      getSuffix: '/getIamPolicy',
      setVerb: 'POST',
      setSuffix: '/setIamPolicy',
      versionParameter: 'optionsRequestedPolicyVersion',
      policyBody: false,
    },
  ],
])('%s %s %s: getIamPolicy is %s at the paths Discovery gives', (service, version, name, shape, paths) => {
  expect(GoogleIamApis.collection(service, version, name)).toMatchObject({ shape, writable: true, versioned: true });
  expect(GoogleIamApis.apiVersion(service, version)?.paths).toEqual(paths);
});

test("the five APIs' paths are read from each client's own URLs (every compute version, every method)", () => {
  for (const c of generator.readCollections() as { api: string; version: string; url: string; setUrl?: string; sample?: string }[]) {
    if (!['storage', 'compute', 'bigquery', 'dns', 'deploymentmanager'].includes(c.api)) continue;
    const version = new RegExp(`^/${c.api}/([^/]+)/`).exec(c.url)![1];
    const paths = GoogleIamApis.apiVersion(c.api, version)!.paths;
    expect(c.url.startsWith(`/${paths.servicePath}${version}/`) && c.url.endsWith(paths.getSuffix)).toBe(true);
    if (c.setUrl) expect(c.setUrl.endsWith(paths.setSuffix)).toBe(true);
  }
  // Secret Manager and the others: the usual paths.
  const secrets = GoogleIamApis.apiVersion('secretmanager', 'v1')!.paths;
  expect(secrets).toBe(USUAL_IAM_PATHS);
  expect([secrets.servicePath, secrets.getSuffix, secrets.setVerb, secrets.setSuffix, secrets.policyBody]).toEqual([
    '',
    ':getIamPolicy',
    'POST',
    ':setIamPolicy',
    false,
  ]);
  expect(secrets.versionParameter).toBe('options.requestedPolicyVersion');
});

test("a bucket is named b/<bucket> (the JSON API's and the google provider's form), or by Google's full resource name", () => {
  expect(GoogleIamApis.pathName('storage', 'projects/_/buckets/logs')).toBe('b/logs');
  expect(GoogleIamApis.pathName('storage', 'projects/_/buckets/logs/managedFolders/team/')).toBe('b/logs/managedFolders/team/');
  expect(GoogleIamApis.pathName('storage', 'projects/_/buckets/logs/objects/a.txt')).toBe('b/logs/o/a.txt');
  expect(GoogleIamApis.pathName('storage', 'b/logs')).toBe('b/logs');
  expect(GoogleIamApis.pathName('pubsub', 'projects/_/buckets/logs')).toBe('projects/_/buckets/logs');
  expect(GoogleIamApis.collection('storage', 'v1', 'projects/_/buckets/logs')?.template).toBe('b/*');
  expect(GoogleIamApis.collection('storage', 'v1', 'b/logs/o/a.txt')).toMatchObject({ versioned: false, shape: 'GET' });
  expect(GoogleIamApis.collection('storage', 'v1', 'projects/p/buckets/logs')).toBeUndefined();
});

test('each correction of a resource-path template is still needed and is what Discovery publishes', () => {
  const table = generated.text;
  for (const [derived, corrected] of Object.entries(generator.RESOURCE_PATH_CORRECTIONS)) {
    const [api, template] = derived.split(' ');
    expect(generator.readCollections().some((c) => c.api === api && c.sample === undefined)).toBe(true);
    expect(table).toContain(`"G ${corrected}"`);
    expect(table).not.toContain(`"G ${template}"`);
  }
  // sourcerepo-api.json: "^projects/[^/]+/repos/.+$"
  expect(GoogleIamApis.matches('projects/*/repos/**', 'projects/p/repos/a/b')).toBe(true);
});
