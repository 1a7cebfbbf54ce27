import * as fs from 'fs';
import * as path from 'path';
import { GoogleIamApis } from '../../../lib/api/iam-apis';

/** The generator (a plain Node script: only it and this test load googleapis). */
const generator = require('../../../scripts/generate-iam-table.js') as {
  generateIamTable(): { text: string; doc: string; counts: Record<string, unknown> & { apisWithoutUpdateMask: string[] } };
  withDocTable(page: string, block: string): string;
  DOC_FILE: string;
  readCollections(): { api: string; url: string; sample?: string }[];
  TABLE_FILE: string;
  PROVIDER_RESOURCES: Record<string, string | undefined>;
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
  const { apis, collections, GET, POST, POST_QUERY, reachable, elsewhere, readOnly, fromResourcePath, apisWithoutUpdateMask } =
    generated.counts;
  expect({ apis, collections, GET, POST, POST_QUERY, reachable, elsewhere }).toEqual({
    apis: 73,
    collections: 527,
    GET: 271,
    POST: 86,
    POST_QUERY: 18,
    reachable: 375,
    elsewhere: 152,
  });
  expect(readOnly).toHaveLength(3);
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
    ].sort(),
  );
});

test("20 APIs' Policy has no auditConfigs: the 19 without updateMask, and logging", () => {
  const counts = generated.counts as unknown as { apisWithoutPolicyAuditConfigs: string[]; apisWithoutUpdateMask: string[] };
  expect(counts.apisWithoutPolicyAuditConfigs.sort()).toEqual([...counts.apisWithoutUpdateMask, 'logging'].sort());
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

test("every collection served elsewhere names the google provider's resource that exists, or none", () => {
  const providerLib = path.dirname(path.dirname(require.resolve('@cdktf/provider-google/lib/project-iam-member')));
  for (const resource of Object.values(generator.PROVIDER_RESOURCES)) {
    if (resource === undefined) continue;
    const folder = `${resource.replace(/^google_/, '').replace(/_/g, '-')}-member`;
    expect([resource, fs.existsSync(path.join(providerLib, folder))]).toEqual([resource, true]);
  }
  const used = new Set(GoogleIamApisElsewhereKeys());
  expect(Object.keys(generator.PROVIDER_RESOURCES).filter((key) => !used.has(key))).toEqual([]);
  expect(GoogleIamApis.elsewhere('storage').map((e) => e.providerResource)).toEqual([
    'google_storage_bucket_iam',
    'google_storage_managed_folder_iam',
    undefined,
  ]);
  expect(GoogleIamApis.elsewhere('secretmanager')).toEqual([]);
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

function GoogleIamApisElsewhereKeys(): string[] {
  return ['bigquery', 'compute', 'deploymentmanager', 'dns', 'storage'].flatMap((service) =>
    GoogleIamApis.elsewhere(service).map((e) => `${service} ${e.template}`),
  );
}
