#!/usr/bin/env node
/**
 * Writes lib/api/iam-apis.generated.ts, the table of every IAM-enabled
 * collection Google publishes, from the Discovery-derived clients of the
 * pinned `googleapis` dev dependency (its build/src/apis/<api>/<version>.js
 * and .d.ts files: the package ships no Discovery JSON, but its generated code
 * carries what the table needs):
 * - the `getIamPolicy` URL template, HTTP method and path parameters (.js);
 * - where the policy version goes: an `'options.requestedPolicyVersion'`
 *   parameter (the query) or a `requestBody` of GetIamPolicyRequest (.d.ts);
 * - whether setIamPolicy's request schema has `updateMask` (.d.ts);
 * - the resource name pattern, from the sample call the client generator
 *   writes from Google's `pattern` (`projects/my-project/secrets/my-secret` for
 *   `^projects/[^/]+/secrets/[^/]+$`), or, for the few methods without a
 *   sample, from the client's resource path (`projects.locations.datasets`).
 *
 * `npm run generate:iam-table` writes the table; `--check` exits 1 when the
 * committed one differs. The freshness test (test/unit/api/iam-apis-table.test.ts)
 * does the same through generateIamTable(). Only this script and that test use
 * googleapis: the library reads the committed table.
 */
'use strict';
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const TABLE_FILE = path.join(ROOT, 'lib', 'api', 'iam-apis.generated.ts');
const GOOGLEAPIS = path.dirname(require.resolve('googleapis/package.json', { paths: [ROOT] }));
const APIS_DIR = path.join(GOOGLEAPIS, 'build', 'src', 'apis');

/**
 * The google provider's IAM resource for each collection Google serves
 * somewhere other than `{version}/{name}:getIamPolicy` (Discovery does not
 * name them). `undefined`: the provider (6.50) has none. Keyed by the
 * collection's name template; the test checks each resource exists in
 * @cdktf/provider-google and that every such collection is listed here.
 */
const PROVIDER_RESOURCES = {
  'bigquery projects/*/datasets/*/routines/*': undefined,
  'bigquery projects/*/datasets/*/tables/*': 'google_bigquery_table_iam',
  'bigquery projects/*/datasets/*/tables/*/rowAccessPolicies/*': undefined,
  'compute locations/global/firewallPolicies/*': undefined,
  'compute projects/*/global/backendBuckets/*': undefined,
  'compute projects/*/global/backendServices/*': undefined,
  'compute projects/*/global/firewallPolicies/*': undefined,
  'compute projects/*/global/images/*': 'google_compute_image_iam',
  'compute projects/*/global/instanceTemplates/*': 'google_compute_instance_template_iam',
  'compute projects/*/global/interconnectAttachmentGroups/*': undefined,
  'compute projects/*/global/interconnectGroups/*': undefined,
  'compute projects/*/global/interconnects/*': undefined,
  'compute projects/*/global/licenseCodes/*': undefined,
  'compute projects/*/global/licenses/*': undefined,
  'compute projects/*/global/machineImages/*': undefined,
  'compute projects/*/global/recoverableSnapshots/*': undefined,
  'compute projects/*/global/snapshotGroups/*': undefined,
  'compute projects/*/global/snapshots/*': 'google_compute_snapshot_iam',
  'compute projects/*/global/sslPolicies/*': undefined,
  'compute projects/*/regions/*/backendBuckets/*': undefined,
  'compute projects/*/regions/*/backendServices/*': undefined,
  'compute projects/*/regions/*/disks/*': 'google_compute_region_disk_iam',
  'compute projects/*/regions/*/firewallPolicies/*': undefined,
  'compute projects/*/regions/*/instantSnapshotGroups/*': undefined,
  'compute projects/*/regions/*/instantSnapshots/*': undefined,
  'compute projects/*/regions/*/interconnectAttachments/*': undefined,
  'compute projects/*/regions/*/networkAttachments/*': undefined,
  'compute projects/*/regions/*/nodeTemplates/*': undefined,
  'compute projects/*/regions/*/recoverableSnapshots/*': undefined,
  'compute projects/*/regions/*/resourcePolicies/*': undefined,
  'compute projects/*/regions/*/serviceAttachments/*': undefined,
  'compute projects/*/regions/*/snapshots/*': undefined,
  'compute projects/*/regions/*/sslPolicies/*': undefined,
  'compute projects/*/regions/*/subnetworks/*': 'google_compute_subnetwork_iam',
  'compute projects/*/zones/*/**/reservationSubBlocks/*': undefined,
  'compute projects/*/zones/*/disks/*': 'google_compute_disk_iam',
  'compute projects/*/zones/*/instances/*': 'google_compute_instance_iam',
  'compute projects/*/zones/*/instantSnapshotGroups/*': undefined,
  'compute projects/*/zones/*/instantSnapshots/*': 'google_compute_instant_snapshot_iam',
  'compute projects/*/zones/*/nodeGroups/*': undefined,
  'compute projects/*/zones/*/reservations/*': undefined,
  'compute projects/*/zones/*/reservations/*/reservationBlocks/*': undefined,
  'compute projects/*/zones/*/storagePools/*': 'google_compute_storage_pool_iam',
  'deploymentmanager projects/*/global/deployments/*': undefined,
  'dns projects/*/managedZones/*': 'google_dns_managed_zone_iam',
  'storage b/*': 'google_storage_bucket_iam',
  'storage b/*/managedFolders/*': 'google_storage_managed_folder_iam',
  'storage b/*/o/*': undefined,
};

/**
 * The 18 collections whose client has no sample call get their template from
 * the client's resource path (`projects.locations.datasets.dicomStores` ->
 * `projects/*\/locations/*\/datasets/*\/dicomStores/*`, as Discovery has it);
 * where Discovery's pattern is wider than that, it is given here, as read in
 * the Discovery document (googleapis/google-api-go-client). The test checks
 * each is still used.
 */
const RESOURCE_PATH_CORRECTIONS = {
  // sourcerepo-api.json: "pattern": "^projects/[^/]+/repos/.+$" (a repo name may hold slashes).
  'sourcerepo projects/*/repos/*': 'projects/*/repos/**',
};

/** Every `getIamPolicy` method of every API version in the package, as the client describes it. */
function readCollections(apisDir = APIS_DIR) {
  const collections = [];
  for (const api of fs.readdirSync(apisDir).sort()) {
    const dir = path.join(apisDir, api);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const file of fs.readdirSync(dir).sort()) {
      if (!file.endsWith('.js') || file === 'index.js') continue;
      const version = file.slice(0, -'.js'.length);
      const js = fs.readFileSync(path.join(dir, file), 'utf8');
      if (!js.includes('getIamPolicy(paramsOrCallback')) continue;
      const dts = fs.readFileSync(path.join(dir, `${version}.d.ts`), 'utf8');
      collections.push(...readApiVersion(api, version, js, dts));
    }
  }
  return collections;
}

function readApiVersion(api, version, js, dts) {
  const classes = splitClasses(js, /^ {4}class (\w+(?:\$\w+)*) \{/gm);
  const propertyOf = new Map();
  for (const [name, body] of classes) {
    for (const m of body.matchAll(/this\.(\w+) =\s*new (Resource\$[\w$]+)\(/g)) propertyOf.set(m[2], { parent: name, property: m[1] });
  }
  const resourcePath = (cls) => {
    const parts = [];
    for (let at = cls; propertyOf.has(at); at = propertyOf.get(at).parent) parts.unshift(propertyOf.get(at).property);
    return parts;
  };
  const out = [];
  for (const [cls, body] of classes) {
    const get = methodOf(body, 'getIamPolicy');
    if (!get) continue;
    const set = methodOf(body, 'setIamPolicy');
    const getParams = interfaceBody(dts, `Params$${cls}$Getiampolicy`);
    const setParams = set && interfaceBody(dts, `Params$${cls}$Setiampolicy`);
    const setRequest = setParams && /requestBody\?: (Schema\$\w+);/.exec(setParams)?.[1];
    const getRequest = /requestBody\?: (Schema\$\w+);/.exec(getParams)?.[1];
    out.push({
      api,
      version,
      resourcePath: resourcePath(cls),
      url: get.url,
      method: get.method,
      pathParams: get.pathParams,
      versionInQuery: /'options\.requestedPolicyVersion'\?: number;/.test(getParams),
      versionInBody: getRequest !== undefined && bodyCarriesVersion(dts, getRequest),
      queryVersionParameter: /\boptionsRequestedPolicyVersion\?: number;/.test(getParams),
      setUrl: set?.url,
      setMethod: set?.method,
      updateMask: setRequest !== undefined && /\n {8}updateMask\?: /.test(interfaceBody(dts, setRequest)),
      sample: sampleResource(dts, cls),
    });
  }
  return out;
}

function splitClasses(source, header) {
  const starts = [...source.matchAll(header)].map((m) => [m.index, m[1]]);
  return starts.map(([at, name], i) => [name, source.slice(at, i + 1 < starts.length ? starts[i + 1][0] : source.length)]);
}

function methodOf(classBody, name) {
  const at = classBody.indexOf(`\n        ${name}(paramsOrCallback`);
  if (at < 0) return undefined;
  const next = classBody.slice(at + 1).search(/\n {8}\w+\(paramsOrCallback/);
  const body = classBody.slice(at, next < 0 ? undefined : at + 1 + next);
  return {
    url: /url: \(rootUrl \+\s*'([^']*)'\)/.exec(body)[1],
    method: /method: '([A-Z]+)'/.exec(body)[1],
    pathParams: JSON.parse(/pathParams: (\[[^\]]*\])/.exec(body)[1].replace(/'/g, '"')),
  };
}

function interfaceBody(dts, name) {
  const at = dts.search(new RegExp(`export interface ${name.replace(/\$/g, '\\$')}( extends \\w+)? \\{`));
  if (at < 0) throw new Error(`no interface ${name}`);
  return dts.slice(at, dts.indexOf('\n    }', at));
}

/** GetIamPolicyRequest is `{ options?: GetPolicyOptions }` and that is `{ requestedPolicyVersion?: number }`. */
function bodyCarriesVersion(dts, requestSchema) {
  const options = /\n {8}options\?: (Schema\$\w+);/.exec(interfaceBody(dts, requestSchema))?.[1];
  return options !== undefined && /\n {8}requestedPolicyVersion\?: number/.test(interfaceBody(dts, options));
}

/** The `resource` value of the client's sample getIamPolicy call, or undefined when it has none. */
function sampleResource(dts, cls) {
  const at = dts.indexOf(`export class ${cls} {`);
  const end = dts.indexOf('\n    export ', at + 1);
  const body = dts.slice(at, end < 0 ? undefined : end).replace(/\n\s*\*( |$)/g, '\n');
  const call = body.search(/\.getIamPolicy\(/);
  if (call < 0) return undefined;
  return /\bresource:\s*'([^']*)'/.exec(body.slice(call, body.indexOf('});', call)))?.[1];
}

/**
 * The resource name template of a collection: `*` one segment (`[^/]+`),
 * `**` any rest (`.*`), anything else literal; `from` says how it was read.
 */
function nameTemplate(c) {
  if (c.url.endsWith('{+resource}:getIamPolicy')) {
    if (c.sample !== undefined) return { template: templateOfSample(c.sample), from: 'sample' };
    const template = c.resourcePath.map((p) => `${p}/*`).join('/');
    return { template: RESOURCE_PATH_CORRECTIONS[`${c.api} ${template}`] ?? template, from: 'resource path' };
  }
  // `/v1/projects/{resource}:getIamPolicy`, `/compute/v1/projects/{project}/.../{resource}/getIamPolicy`, `/storage/v1/b/{bucket}/iam`.
  const rest = c.url
    .replace(new RegExp(`^/(?:${c.api}/)?[^/]+/`), '')
    .replace(/[:/](getIamPolicy|iam)$/, '')
    .replace(/\{\+\w+\}/g, '**')
    .replace(/\{\w+\}/g, '*');
  return { template: rest, from: 'url' };
}

function templateOfSample(sample) {
  if (sample === '.*') return '**';
  return sample
    .replace(/\[\^\/\]\+/g, '*')
    .split('/')
    .map((segment) => {
      if (segment.startsWith('my-') || segment === '*') return '*';
      if (segment === '.*') return '**';
      if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(segment)) throw new Error(`cannot read the name pattern of sample ${JSON.stringify(sample)}`);
      return segment;
    })
    .join('/');
}

/**
 * How the collection's getIamPolicy takes the policy version: `GET` (query),
 * `POST` (`{"options":{"requestedPolicyVersion":N}}` body), `POST_QUERY`
 * (POST, version in the query, no body); undefined when it is not served at
 * `{version}/{name}:getIamPolicy` (a generic grant cannot reach it).
 */
function shapeOf(c) {
  // Resource Manager v1/v1beta1 also take `projects/{resource}`: the same URL as `{+resource}` = projects/{id}.
  if (!/^\/[^/]+\/(\{\+resource\}|projects\/\{resource\}):getIamPolicy$/.test(c.url)) return undefined;
  if (c.setUrl !== undefined && (c.setUrl !== c.url.replace(/getIamPolicy$/, 'setIamPolicy') || c.setMethod !== 'POST')) {
    throw new Error(`${c.api} ${c.version} ${c.url}: setIamPolicy is ${c.setMethod} ${c.setUrl}`);
  }
  if (c.method === 'GET' && c.versionInQuery && !c.versionInBody) return 'GET';
  if (c.method === 'POST' && c.versionInBody && !c.versionInQuery) return 'POST';
  if (c.method === 'POST' && c.versionInQuery && !c.versionInBody) return 'POST_QUERY';
  throw new Error(`${c.api} ${c.version} ${c.url}: ${c.method} with the version neither in the query nor in the body`);
}

/** The version in the URL, which is what a request names (cloudresourcemanager's v2beta1 client calls /v2/...). */
function urlVersion(c) {
  return new RegExp(`^/(?:${c.api}/)?([^/]+)/`).exec(c.url)[1];
}

const SHAPE_LETTER = { GET: 'G', POST: 'B', POST_QUERY: 'Q' };

/** The table's source text and what was counted, from the package's clients. */
function generateIamTable(apisDir = APIS_DIR) {
  const source = `googleapis ${JSON.parse(fs.readFileSync(path.join(GOOGLEAPIS, 'package.json'), 'utf8')).version}`;
  const collections = readCollections(apisDir);
  const apis = new Map();
  const elsewhere = new Map();
  const counts = {
    apis: new Set(),
    collections: collections.length,
    GET: 0,
    POST: 0,
    POST_QUERY: 0,
    elsewhere: 0,
    fromResourcePath: [],
    readOnly: [],
  };
  for (const c of collections) {
    counts.apis.add(c.api);
    const shape = shapeOf(c);
    const { template, from } = nameTemplate(c);
    if (shape === undefined) {
      counts.elsewhere++;
      const key = `${c.api} ${template}`;
      if (!(key in PROVIDER_RESOURCES))
        throw new Error(`no google provider resource listed for ${key} (${c.url}); add it to PROVIDER_RESOURCES`);
      const entry = elsewhere.get(key) ?? { api: c.api, template, versions: [], resource: PROVIDER_RESOURCES[key] };
      if (!entry.versions.includes(urlVersion(c))) entry.versions.push(urlVersion(c));
      elsewhere.set(key, entry);
      continue;
    }
    counts[shape]++;
    if (from === 'resource path') counts.fromResourcePath.push(`${c.api} ${c.version} ${template}`);
    const key = `${c.api} ${urlVersion(c)}`;
    const api = apis.get(key) ?? { api: c.api, version: urlVersion(c), updateMask: c.updateMask, collections: [] };
    if (api.updateMask !== c.updateMask) throw new Error(`${key}: setIamPolicy's updateMask differs between collections`);
    // A collection without setIamPolicy (its policy is read-only) is written in lowercase.
    const letter = c.setUrl === undefined ? SHAPE_LETTER[shape].toLowerCase() : SHAPE_LETTER[shape];
    if (c.setUrl === undefined) counts.readOnly.push(`${c.api} ${c.version} ${template}`);
    const entry = `${letter} ${template}`;
    const sameName = api.collections.find((known) => known.slice(2) === template);
    if (sameName && sameName !== entry) throw new Error(`${key} ${template}: two clients disagree (${sameName} / ${entry})`);
    if (!sameName) api.collections.push(entry);
    apis.set(key, api);
  }
  const apiRows = [...apis.values()].map(
    (a) =>
      `  [${JSON.stringify(a.api)}, ${JSON.stringify(a.version)}, ${a.updateMask}, [${a.collections
        .sort()
        .map((c) => JSON.stringify(c))
        .join(', ')}]],`,
  );
  const elsewhereRows = [...elsewhere.values()].map(
    (e) =>
      `  [${JSON.stringify(e.api)}, ${JSON.stringify(e.versions.join(' '))}, ${JSON.stringify(e.template)}, ${JSON.stringify(e.resource ?? '')}],`,
  );
  const text = [
    `// Generated by scripts/generate-iam-table.js (npm run generate:iam-table) from ${source}. Do not edit.`,
    '// prettier-ignore',
    `export const IAM_APIS_SOURCE = ${JSON.stringify(source)};`,
    '',
    '/**',
    ' * Every API version whose collections Google serves at `{version}/{name}:getIamPolicy` and `:setIamPolicy`:',
    " * [api, version, whether setIamPolicy's request has `updateMask`, collections], a collection being",
    ' * "<shape> <name template>": shape G = GET with the version in the query, B = POST with',
    ' * `{"options":{"requestedPolicyVersion":N}}`, Q = POST with the version in the query and no body;',
    ' * in lowercase (g, b, q) when the collection has no setIamPolicy (its policy can be read, not written);',
    ' * in a template `*` is one segment, `**` any rest, anything else literal.',
    ' */',
    '// prettier-ignore',
    'export const IAM_APIS: ReadonlyArray<readonly [string, string, boolean, readonly string[]]> = [',
    ...apiRows,
    '];',
    '',
    '/**',
    " * Collections with IAM that Google serves at other paths: [api, versions, name template, the google provider's",
    " * IAM resource prefix (`_member`, `_binding`, `_policy`), or '' when the provider has none].",
    ' */',
    '// prettier-ignore',
    'export const IAM_ELSEWHERE: ReadonlyArray<readonly [string, string, string, string]> = [',
    ...elsewhereRows,
    '];',
    '',
  ].join('\n');
  return {
    text,
    counts: {
      ...counts,
      apis: counts.apis.size,
      reachable: counts.GET + counts.POST + counts.POST_QUERY,
      apiVersionsWithoutUpdateMask: [...apis.values()].filter((a) => !a.updateMask).map((a) => `${a.api} ${a.version}`),
      apisWithoutUpdateMask: [...new Set([...apis.values()].filter((a) => !a.updateMask).map((a) => a.api))],
    },
    collections,
  };
}

module.exports = { generateIamTable, readCollections, TABLE_FILE, PROVIDER_RESOURCES, RESOURCE_PATH_CORRECTIONS };

if (require.main === module) {
  const { text, counts } = generateIamTable();
  const summary = {
    ...counts,
    apisWithoutUpdateMask: `${counts.apisWithoutUpdateMask.length}: ${counts.apisWithoutUpdateMask.join(', ')}`,
    apiVersionsWithoutUpdateMask: counts.apiVersionsWithoutUpdateMask.length,
  };
  if (process.argv.includes('--check')) {
    const current = fs.existsSync(TABLE_FILE) ? fs.readFileSync(TABLE_FILE, 'utf8') : '';
    if (current !== text) {
      console.error(
        `${path.relative(ROOT, TABLE_FILE)} is not what ${path.relative(ROOT, __filename)} generates; run npm run generate:iam-table`,
      );
      process.exit(1);
    }
  } else {
    fs.writeFileSync(TABLE_FILE, text);
  }
  console.log(JSON.stringify(summary, null, 2));
}
