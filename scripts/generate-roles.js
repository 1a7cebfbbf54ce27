#!/usr/bin/env node
/**
 * Writes lib/iam/roles.generated.ts, Google's catalogue of basic and
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
 * The table is plain text in a few template literals, so that it costs the
 * package little and loading it costs nothing until a role is checked
 * (lib/iam/role-table.ts decodes it on first use); the format is described in
 * the file it writes.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const ts = require('typescript');

const ROOT = path.join(__dirname, '..');
const DUMP_FILE = path.join(ROOT, 'data', 'google-roles.json.gz');
const TABLE_FILE = path.join(ROOT, 'lib', 'iam', 'roles.generated.ts');
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
  for (let i = 0; i < sorted.length; ) {
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
  return module.exports.IAM_APIS.flatMap(([service, , , , collections]) =>
    collections.map((entry) => ({ service, template: entry.slice(2) })),
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

  const text = [
    `// Generated by scripts/generate-roles.js (npm run generate:roles) from data/google-roles.json.gz. Do not edit.`,
    '// Decoded by role-table.ts, on first use only.',
    '',
    "/** Where the catalogue comes from: Google IAM's `roles.list`, as published on that day. */",
    `export const ROLES_SOURCE = ${JSON.stringify(dump.source)};`,
    '',
    '/** The day Google listed these roles: a role Google added since is not here. */',
    `export const ROLES_DATE = ${JSON.stringify(dateOf(dump.source))};`,
    '',
    "/** The launch stages; a role's stage is its place in this list. */",
    `export const ROLE_STAGES: readonly string[] = ${JSON.stringify(stages)};`,
    '',
    '/**',
    ' * What a role can do beyond its resource, a bit each (1, 2, 4, ...): the name, and the permissions that give',
    ' * it (any one of them; `*.verb`: that verb on any collection).',
    ' */',
    '// prettier-ignore',
    `export const ROLE_CAPABILITIES: ReadonlyArray<readonly [string, readonly string[]]> = ${JSON.stringify(CAPABILITIES)};`,
    '',
    '/**',
    ' * The characters of every number below: a digit 0-31 ends a number, 32-63 is a digit 0-31 with more to',
    ' * come (base 32, most significant first). A set of prefix numbers is written as runs of consecutive',
    " * numbers, each two numbers: the gap since the previous run's last (from -1), and its length less one.",
    ' */',
    `export const TABLE_DIGITS = ${JSON.stringify(DIGITS)};`,
    '',
    '/**',
    ' * Every permission prefix some role holds (`service.collection`: a permission without its verb), one',
    " * service a line: `service collection collection ...`; a prefix's number is its place, from 0, in this order.",
    ' */',
    `export const PERMISSION_PREFIXES = \`${prefixLines.map((l) => l.join(' ')).join('\n')}\`;`,
    '',
    '/**',
    ' * Every basic and predefined role, one service a line: `service. role role ...` (the basic roles, which',
    ' * name no service, on the first line, after a space), a role being `id,` then three things with no space',
    " * between: the place of its stage in ROLE_STAGES (a digit), ROLE_CAPABILITIES' bits (a digit), and the set",
    ' * of prefixes its permissions have.',
    ' */',
    `export const ROLES = \`${[...roleLines].map(([service, entries]) => `${service} ${entries.join(' ')}`).join('\n')}\`;`,
    '',
    '/**',
    " * The resource types a role can be granted on or not, by what it holds: one a line, `service collection",
    " * sure maybe`, collection being the last literal segment of an IAM-enabled collection's name template",
    ' * (lib/api/iam-apis.generated.ts). A role is grantable for sure when it holds a `sure` prefix (the',
    " * collection's own, those Discovery puts under it, and scripts/generate-roles.js PLACEMENTS); perhaps when",
    ' * it holds a `maybe` one (a prefix of the service that Discovery does not place: the data cannot tell); else',
    ' * Google refuses it ("Role roles/X is not supported for this resource."). A type not here is not checked.',
    ' */',
    `export const RESOURCE_TYPES = \`${typeLines.join('\n')}\`;`,
    '',
  ].join('\n');
  return {
    text,
    counts: {
      roles: names.length,
      stages: Object.fromEntries(stages.map((s) => [s, names.filter((n) => dump.roles[n].stage === s).length])),
      permissions: new Set(names.flatMap((n) => dump.roles[n].permissions)).size,
      prefixes: prefixes.length,
      resourceTypes: types.length,
      collections: collections.length,
      bytes: Buffer.byteLength(text),
    },
    types,
  };
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
  TABLE_FILE,
  generateFromRepository,
  generateRoleTable,
  readDiscoveryPaths,
  readDump,
  readIamCollections,
};

if (require.main === module) {
  const check = process.argv.includes('--check');
  const newer = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
  if (newer !== undefined && !check) {
    readDump(newer); // refuses anything but a gzipped JSON dump before it replaces the committed one
    fs.copyFileSync(newer, DUMP_FILE);
    console.log(`copied ${newer} to ${path.relative(ROOT, DUMP_FILE)}`);
  }
  const { text, counts } = generateFromRepository();
  if (check) {
    const current = fs.existsSync(TABLE_FILE) ? fs.readFileSync(TABLE_FILE, 'utf8') : '';
    if (current !== text) {
      console.error(`${path.relative(ROOT, TABLE_FILE)} is not what this script generates; run npm run generate:roles`);
      process.exitCode = 1;
    }
  } else if (!fs.existsSync(TABLE_FILE) || fs.readFileSync(TABLE_FILE, 'utf8') !== text) {
    fs.writeFileSync(TABLE_FILE, text);
    console.log(`wrote ${path.relative(ROOT, TABLE_FILE)}`);
  }
  console.log(JSON.stringify(counts, null, 2));
}
