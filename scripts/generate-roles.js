#!/usr/bin/env node
/**
 * Writes lib/iam/roles.generated.json and permission-prefixes.generated.json, Google's catalogue of basic and
 * predefined roles as the library needs it, from a dump of IAM's `roles.list`
 * (data/google-roles.json.gz; data/README.md says where it comes from):
 * - every role's name, launch stage and what it can do beyond its resource
 *   (CAPABILITIES: act as or mint credentials for service accounts, change IAM
 *   policies), for the checks of a grant;
 * - the permission prefixes (`service.collection`, e.g.
 *   `networksecurity.authorizationPolicies`) each role holds;
 * - for each IAM-enabled collection Google publishes (lib/api/iam-apis.generated.ts),
 *   the prefixes that make a role grantable on it: Google refuses a role that
 *   holds no permission on the resource's type or on what lies under it ("Role
 *   roles/X is not supported for this resource."). What lies under it is read
 *   from the Discovery-derived clients of the pinned `googleapis` dev dependency
 *   (`projects.secrets.versions` puts `secretmanager.versions` under a secret).
 *
 * `npm run generate:roles` writes the table; `npm run generate:roles -- <newer dump>`
 * first copies a newer dump (same shape) over data/google-roles.json.gz. `--check`
 * writes nothing and exits 1 when the committed table is stale
 * (test/unit/iam/role-table.test.ts runs generateRoleTable() the same way).
 *
 * The table is two data files, each a few lists of text lines, compressed
 * (brotli, base64) beside its source and date, so that it costs the package
 * little (it ships twice: in lib/ and in the provider's bundle) and loading it
 * costs nothing until a role is checked (lib/iam/role-table.ts, which
 * describes the format, reads it on first use). The names of the permission
 * prefixes are a file of their own (lib/iam/role-permissions.ts reads it): the
 * checks of a grant's roles need only their numbers, so the provider's bundle
 * goes without them. `--print` prints the tables uncompressed.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const ts = require('typescript');

const ROOT = path.join(__dirname, '..');
const DUMP_FILE = path.join(ROOT, 'data', 'google-roles.json.gz');
const TABLE_FILE = path.join(ROOT, 'lib', 'iam', 'roles.generated.json');
const PREFIXES_FILE = path.join(ROOT, 'lib', 'iam', 'permission-prefixes.generated.json');
const IAM_APIS_FILE = path.join(ROOT, 'lib', 'api', 'iam-apis.generated.ts');

/**
 * What a role can do beyond its resource type, for the security checks: a
 * capability is held when the role holds any of its permissions (`*.verb`:
 * that verb on any collection). A bit each, in this order.
 */
const CAPABILITIES = [
  ['actAsServiceAccounts', ['iam.serviceAccounts.actAs']],
  [
    'mintServiceAccountTokens',
    [
      'iam.serviceAccounts.getAccessToken',
      'iam.serviceAccounts.getOpenIdToken',
      'iam.serviceAccounts.implicitDelegation',
      'iam.serviceAccounts.signBlob',
      'iam.serviceAccounts.signJwt',
    ],
  ],
  ['createServiceAccountKeys', ['iam.serviceAccountKeys.create']],
  ['setIamPolicy', ['*.setIamPolicy']],
];

/**
 * Collections that hold every resource type of a service rather than lie under
 * one (a location, a long-running operation, the project): a permission on them
 * makes a role grantable on none of the service's resource types.
 */
const CONTAINER_COLLECTIONS = ['folders', 'locations', 'operations', 'organizations', 'projects'];

/**
 * Permissions Google checks on a resource type although Discovery does not put
 * their collection under it, keyed by the type (`service collection`). The test
 * checks each is still a type and a prefix of the dump.
 */
const PLACEMENTS = {
  // Cloud Run's Knative surface: a route is its service's traffic (run.invoker holds run.routes.invoke only).
  'run services': ['run.routes'],
  // Cloud Storage: a bucket's policy applies to its objects and managed folders, and to uploads into it
  // (https://cloud.google.com/storage/docs/access-control/iam: "roles granted at the bucket level apply to … objects").
  'storage buckets': ['storage.objects', 'storage.managedFolders', 'storage.multipartUploads'],
};

/** The characters of the numbers in the table: a digit 0-31 ends a number, 32-63 is a digit with more to come. */
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** `n` as the table writes numbers: base 32, most significant digit first, every digit but the last + 32. */
function number(n) {
  const digits = [];
  do {
    digits.unshift(n % 32);
    n = Math.floor(n / 32);
  } while (n > 0);
  return digits.map((d, i) => DIGITS[i < digits.length - 1 ? d + 32 : d]).join('');
}

/** A set of prefix numbers as runs: per run, the gap since the previous run's end and the run's length less one. */
function runs(indices) {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  let text = '';
  let previous = -1;
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    text += number(sorted[i] - previous - 1) + number(j - i);
    previous = sorted[j];
    i = j + 1;
  }
  return text;
}

/** `service.collection` of a permission: everything before its verb. */
const prefixOf = (permission) => permission.slice(0, permission.lastIndexOf('.'));
const serviceOf = (prefix) => prefix.split('.')[0];
const collectionOf = (prefix) => prefix.slice(serviceOf(prefix).length + 1);
/** The literal segments of a name template, the collections: `projects/*\/secrets/*` → projects, secrets. */
const literalSegments = (template) => template.split('/').filter((s) => s !== '*' && s !== '**');

/** The dump: `{ source, roles: { "roles/<id>": { title, stage, permissions } } }`. */
function readDump(file = DUMP_FILE) {
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8'));
}

/** Every IAM-enabled collection of lib/api/iam-apis.generated.ts (plain data: transpiled and evaluated as it is). */
function readIamCollections(file = IAM_APIS_FILE) {
  const { outputText } = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020 },
  });
  const module = { exports: {} };
  new Function('module', 'exports', outputText)(module, module.exports);
  // A segment that abbreviates its collection (storage's `b`) is read as the collection it names (`buckets`).
  const names = module.exports.IAM_PATH_ABBREVIATIONS;
  const expanded = (service, template) =>
    template
      .split('/')
      .map((segment) => names[`${service} ${segment}`] ?? segment)
      .join('/');
  return module.exports.IAM_APIS.flatMap(([service, , , , collections]) =>
    collections.map((entry) => ({ service, template: expanded(service, entry.slice(2)) })),
  );
}

/**
 * Every resource path of every version of the services' clients in the pinned
 * googleapis (`Resource$Projects$Secrets$Versions` → `projects/secrets/versions`), lower case.
 */
function readDiscoveryPaths(services) {
  const apis = path.join(path.dirname(require.resolve('googleapis/package.json', { paths: [ROOT] })), 'build', 'src', 'apis');
  const paths = new Map();
  for (const service of services) {
    const dir = path.join(apis, service);
    const found = new Set();
    if (fs.existsSync(dir)) {
      for (const file of fs.readdirSync(dir).sort()) {
        if (!file.endsWith('.js') || file === 'index.js') continue;
        for (const m of fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/class Resource\$([A-Za-z$]+) \{/g)) {
          found.add(m[1].toLowerCase().split('$').join('/'));
        }
      }
    }
    paths.set(service, [...found].sort());
  }
  return paths;
}

/**
 * The resource types a role can be granted on: for each collection's
 * `service collection` (its last literal segment) whose own prefix some role
 * holds, the prefixes that make a role grantable there for sure (its own, those
 * under it in Discovery, PLACEMENTS), and those that may (the service's prefixes
 * that Discovery does not place anywhere: the data cannot tell where they apply).
 */
function resourceTypes(collections, discovery, prefixes, placements) {
  const byLowerCase = new Map();
  for (const prefix of prefixes) byLowerCase.set(prefix.toLowerCase(), [...(byLowerCase.get(prefix.toLowerCase()) ?? []), prefix]);
  const named = (service, collection) => byLowerCase.get(`${service}.${collection}`.toLowerCase()) ?? [];
  const types = new Map();
  for (const { service, template } of collections) {
    const segments = literalSegments(template);
    const collection = segments.at(-1);
    if (collection === undefined || named(service, collection).length === 0) continue;
    const key = `${service} ${collection}`;
    const type = types.get(key.toLowerCase()) ?? { service, collection, sure: new Set() };
    named(service, collection).forEach((p) => type.sure.add(p));
    const base = segments.map((s) => s.toLowerCase()).join('/');
    for (const resourcePath of discovery.get(service) ?? []) {
      if (!resourcePath.startsWith(`${base}/`)) continue;
      for (const below of resourcePath.slice(base.length + 1).split('/')) named(service, below).forEach((p) => type.sure.add(p));
    }
    for (const prefix of placements[`${service} ${collection}`.toLowerCase()] ?? []) type.sure.add(prefix);
    types.set(key.toLowerCase(), type);
  }
  const placedSomewhere = new Set([...types.values()].flatMap((t) => [...t.sure]));
  for (const type of types.values()) {
    const known = new Set((discovery.get(type.service) ?? []).flatMap((p) => p.split('/')));
    type.maybe = new Set(
      prefixes.filter(
        (prefix) =>
          serviceOf(prefix) === type.service &&
          !placedSomewhere.has(prefix) &&
          !CONTAINER_COLLECTIONS.includes(collectionOf(prefix)) &&
          !known.has(collectionOf(prefix).toLowerCase()),
      ),
    );
  }
  return [...types.values()].sort((a, b) => `${a.service} ${a.collection}`.localeCompare(`${b.service} ${b.collection}`));
}

/** The capabilities `permissions` give, as bits of CAPABILITIES. */
function capabilityBits(permissions) {
  let bits = 0;
  CAPABILITIES.forEach(([, granting], bit) => {
    const holds = granting.some((p) =>
      p.startsWith('*.') ? permissions.some((held) => held.endsWith(p.slice(1))) : permissions.includes(p),
    );
    if (holds) bits |= 1 << bit;
  });
  return bits;
}

/** The date in the dump's source, `... 2026-08-22)`. */
function dateOf(source) {
  const date = /\b(\d{4}-\d{2}-\d{2})\b/.exec(source)?.[1];
  if (!date) throw new Error(`the dump's source does not say when Google listed the roles: ${JSON.stringify(source)}`);
  return date;
}

/**
 * The table's text and what was counted, from a dump, the IAM-enabled
 * collections (`{ service, template }`) and Discovery's resource paths per service.
 */
function generateRoleTable({ dump, collections, discovery, placements = PLACEMENTS }) {
  const names = Object.keys(dump.roles).sort();
  for (const name of names) {
    if (!/^roles\/[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z0-9_]+)*$/.test(name)) throw new Error(`not a predefined role name: ${name}`);
  }
  const prefixes = [...new Set(names.flatMap((n) => dump.roles[n].permissions.map(prefixOf)))].sort();
  for (const prefix of prefixes) {
    if (/[\s,`$\\]/.test(prefix)) throw new Error(`a permission prefix the table cannot hold: ${JSON.stringify(prefix)}`);
  }
  const number_ = new Map(prefixes.map((p, i) => [p, i]));
  const stages = [...new Set(names.map((n) => dump.roles[n].stage))].sort();
  const placementsByType = Object.fromEntries(Object.entries(placements).map(([type, list]) => [type.toLowerCase(), list]));
  const types = resourceTypes(collections, discovery, prefixes, placementsByType);

  // PERMISSION_PREFIXES: one service a line.
  const prefixLines = [];
  for (const prefix of prefixes) {
    const service = serviceOf(prefix);
    const last = prefixLines.at(-1);
    if (last && last[0] === service) last.push(collectionOf(prefix));
    else prefixLines.push([service, collectionOf(prefix)]);
  }
  // ROLES: one service a line (the basic roles, which have none, first).
  const roleLines = new Map();
  for (const name of names) {
    const id = name.slice('roles/'.length);
    const dot = id.indexOf('.');
    const service = dot < 0 ? '' : id.slice(0, dot + 1);
    const { stage, permissions } = dump.roles[name];
    const held = runs(permissions.map((p) => number_.get(prefixOf(p))));
    const entry = `${id.slice(service.length)},${DIGITS[stages.indexOf(stage)]}${DIGITS[capabilityBits(permissions)]}${held}`;
    roleLines.set(service, [...(roleLines.get(service) ?? []), entry]);
  }
  const typeLines = types.map((t) => {
    const maybe = runs([...t.maybe].map((p) => number_.get(p)));
    return `${t.service} ${t.collection} ${runs([...t.sure].map((p) => number_.get(p)))}${maybe ? ` ${maybe}` : ''}`;
  });

  const table = {
    source: dump.source,
    date: dateOf(dump.source),
    stages,
    capabilities: CAPABILITIES,
    digits: DIGITS,
    roles: [...roleLines].map(([service, entries]) => `${service} ${entries.join(' ')}`),
    resourceTypes: typeLines,
  };
  const prefixTable = { source: dump.source, permissionPrefixes: prefixLines.map((l) => l.join(' ')) };
  const text = packedFile(table, 'the basic and predefined roles; read by lib/iam/role-table.ts, which describes the format');
  const prefixesText = packedFile(
    prefixTable,
    'the names of the permission prefixes roles.generated.json numbers; read by lib/iam/role-permissions.ts',
  );
  return {
    text,
    prefixesText,
    table,
    prefixTable,
    counts: {
      roles: names.length,
      stages: Object.fromEntries(stages.map((s) => [s, names.filter((n) => dump.roles[n].stage === s).length])),
      permissions: new Set(names.flatMap((n) => dump.roles[n].permissions)).size,
      prefixes: prefixes.length,
      resourceTypes: types.length,
      collections: collections.length,
      bytes: Buffer.byteLength(text) + Buffer.byteLength(prefixesText),
      uncompressedBytes: Buffer.byteLength(JSON.stringify(table)) + Buffer.byteLength(JSON.stringify(prefixTable)),
    },
    types,
  };
}

/**
 * A data file of the library: `table` as JSON, brotli-compressed and base64-encoded, beside what a reader
 * wants to see without decoding it (its source and date, for the roles its count).
 */
function packedFile(table, what) {
  const json = Buffer.from(JSON.stringify(table), 'utf8');
  const compressed = zlib.brotliCompressSync(json, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
  const file = {
    $comment: `Generated by scripts/generate-roles.js (npm run generate:roles) from data/google-roles.json.gz: ${what}. \`table\` is its JSON, brotli-compressed, in base64; npm run generate:roles -- --print shows it. Do not edit.`,
    source: table.source,
    ...(table.date ? { date: table.date } : {}),
    ...(table.roles ? { roles: table.roles.reduce((n, line) => n + line.split(' ').length - 1, 0) } : {}),
    table: compressed.toString('base64'),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** What a data file holds: its table, decompressed. */
function unpackedFile(text) {
  return JSON.parse(zlib.brotliDecompressSync(Buffer.from(JSON.parse(text).table, 'base64')).toString('utf8'));
}

/** Whether `text` holds what `want` does: the same fields and the same table (brotli's bytes may differ between Node.js versions). */
function sameFile(text, want) {
  const fields = (t) => ({ ...JSON.parse(t), table: undefined });
  try {
    return (
      JSON.stringify(fields(text)) === JSON.stringify(fields(want)) &&
      JSON.stringify(unpackedFile(text)) === JSON.stringify(unpackedFile(want))
    );
  } catch {
    return false;
  }
}

/** The table from the repository's inputs. */
function generateFromRepository(dumpFile = DUMP_FILE) {
  const dump = readDump(dumpFile);
  const collections = readIamCollections();
  const discovery = readDiscoveryPaths([...new Set(collections.map((c) => c.service))]);
  return generateRoleTable({ dump, collections, discovery });
}

module.exports = {
  CAPABILITIES,
  DUMP_FILE,
  PLACEMENTS,
  PREFIXES_FILE,
  TABLE_FILE,
  generateFromRepository,
  sameFile,
  unpackedFile,
  generateRoleTable,
  readDiscoveryPaths,
  readDump,
  readIamCollections,
};

/** The command line: write the tables (a newer dump first copied over the committed one), `--check` them, or `--print` them. */
function main() {
  const check = process.argv.includes('--check');
  const newer = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
  if (newer !== undefined && !check) {
    readDump(newer); // refuses anything but a gzipped JSON dump before it replaces the committed one
    fs.copyFileSync(newer, DUMP_FILE);
    console.log(`copied ${newer} to ${path.relative(ROOT, DUMP_FILE)}`);
  }
  const { text, prefixesText, table, prefixTable, counts } = generateFromRepository();
  if (process.argv.includes('--print')) {
    console.log(JSON.stringify({ ...table, ...prefixTable }, null, 2));
    return;
  }
  const files = [
    [TABLE_FILE, text],
    [PREFIXES_FILE, prefixesText],
  ];
  const stale = files.filter(([file, want]) => !fs.existsSync(file) || !sameFile(fs.readFileSync(file, 'utf8'), want));
  if (check) {
    for (const [file] of stale) console.error(`${path.relative(ROOT, file)} is not what this script generates; run npm run generate:roles`);
    if (stale.length > 0) process.exitCode = 1;
  } else {
    for (const [file, want] of stale) {
      fs.writeFileSync(file, want);
      console.log(`wrote ${path.relative(ROOT, file)}`);
    }
  }
  console.log(JSON.stringify(counts, null, 2));
}

if (require.main === module) main();
