/**
 * Every role this repository shows a user or grants in a test exists in
 * Google's catalogue and can be granted where it is granted: each `roles/…`
 * literal of README.md, docs/, examples/ and test/ is a basic or predefined
 * role of the table (lib/iam/roles.generated.json), grantable on the resource type
 * named nearest to it (a typed construct or Terraform type, or a resource name
 * of a collection Google publishes, within a few lines). A copied example must
 * not meet Google's "Role roles/X is not supported for this resource."
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { GoogleIamApis, type IamCollection } from '../../../lib/api/iam-apis';
import { IAM_APIS } from '../../../lib/api/iam-apis.generated';
import { grantability, type RoleTarget } from '../../../lib/iam/role-grantability';
import { predefinedRole } from '../../../lib/iam/role-table';
import { templateRoleTarget, typedRoleTarget } from '../../../lib/resource-types/role-target';
import { TYPED_RESOURCE_TYPE_ROWS } from '../../../lib/resource-types/typed-resource-types';

const ROOT = path.join(__dirname, '..', '..', '..');

/**
 * The tests of the role checks themselves: they grant unknown, misspelt and
 * misplaced roles on purpose, to check the messages each gets.
 */
const TESTS_OF_THE_ROLE_CHECKS: readonly string[] = [
  'test/unit/iam/role-check.test.ts',
  'test/unit/iam/role-table.test.ts',
  'test/unit/grant/roles.test.ts',
  'test/unit/provider/roles.test.ts',
  'test/integration/testing/emulator-roles.test.ts',
  'test/integration/provider/roles-plan.e2e.test.ts',
];

/**
 * Elsewhere, the literals that are deliberately not roles Google lists, each
 * with why: tests of the shape check, of an import ID's misspelt role, of a
 * mangled version-1 role, and fragments of a custom role.
 */
const NOT_GOOGLE_ROLES: ReadonlyArray<{ readonly file: string; readonly role: string; readonly why: string }> = [
  { file: 'docs/design.md', role: 'roles/', why: '`roles/…`: the form, in prose' },
  { file: 'docs/roles.md', role: 'roles/', why: '`roles/…`: the form, in prose' },
  { file: 'docs/testing.md', role: 'roles/', why: '`roles/…`: the form, in prose' },
  { file: 'docs/testing.md', role: 'roles/networksecurity.viwer', why: "Google's answer to a misspelling, quoted" },
  { file: 'docs/changelog.md', role: 'roles/', why: '`roles/…`: the form, in prose' },
  {
    file: 'docs/checks.md',
    role: 'roles/cloudkms.cryptoKey',
    why: '`roles/cloudkms.cryptoKey…`: the prefix GoogleIam-SeparationOfDuties matches, in prose',
  },
  { file: 'docs/changelog.md', role: 'roles/networksecurity.authorizationPolicyViewer', why: 'the made-up roles this release replaced' },
  { file: 'docs/changelog.md', role: 'roles/networksecurity.addressGroupUser', why: 'the made-up roles this release replaced' },
  { file: 'docs/changelog.md', role: 'roles/datamigration.viewer', why: 'the made-up roles this release replaced' },
  { file: 'README.md', role: 'roles/networksecurity.viwer', why: 'the synth error a misspelling gets, quoted (readme.test.ts checks it)' },
  { file: 'test/integration/examples/readme.test.ts', role: 'roles/networksecurity.viwer', why: "the README's misspelling" },
  { file: 'docs/roles.md', role: 'roles/networksecurity.viwer', why: 'the error a misspelling gets, quoted' },
  { file: 'docs/roles.md', role: 'roles/newservice.viewer', why: 'a role Google added after the table: the opt-out' },
  { file: 'test/unit/iam/role.test.ts', role: 'roles/', why: 'the shape check: nothing after roles/' },
  { file: 'test/unit/iam/role.test.ts', role: 'roles/.admin', why: 'the shape check: an empty segment' },
  { file: 'test/unit/iam/role.test.ts', role: 'roles/networksecurity..admin', why: 'the shape check: an empty segment' },
  { file: 'test/unit/iam/role.test.ts', role: 'roles/resourcemanager.projects.get_v2', why: 'the shape check accepts any dotted name' },
  { file: 'test/unit/iam/role.test.ts', role: 'roles/Owner', why: 'isBasicRole is case-sensitive' },
  { file: 'test/unit/iam/identity.test.ts', role: 'roles/Viewer', why: "a binding's identity keeps the role's case" },
  { file: 'test/unit/grant/family.test.ts', role: 'roles/', why: 'the shape check, from a construct' },
  { file: 'test/unit/grant/grant-validation.test.ts', role: 'roles/', why: 'the shape check: nothing after roles/' },
  { file: 'test/unit/grant/grant-validation.test.ts', role: 'roles/network', why: 'the shape check: `roles/network security.viewer`' },
  { file: 'test/integration/provider/import-read.test.ts', role: 'roles/networksecurity.viwer', why: "an import ID's misspelt role" },
  { file: 'test/unit/grant/bulk.test.ts', role: 'roles/networksecurity.viwer', why: 'a misspelt role in one entry, named by index' },
  { file: 'test/jsii/caller-language.test.ts', role: 'roles/networksecurity.viwer', why: 'a misspelt role as each language hears of it' },
  {
    file: 'test/integration/lookups/plan-time.e2e.test.ts',
    role: 'roles/compute.networkUser_withcond_',
    why: 'a version-1 read mangles a conditional role',
  },
  {
    file: 'test/integration/testing/emulator.test.ts',
    role: 'roles/networksecurity.admin_withcond_0123',
    why: 'a mangled version-1 role written back',
  },
  {
    file: 'test/integration/examples/hcl-example.e2e.test.ts',
    role: 'roles/dbaOnCall',
    why: 'part of the custom role projects/my-project/roles/dbaOnCall',
  },
  {
    file: 'test/integration/examples/hcl-example.e2e.test.ts',
    role: 'roles/dbaOnCal',
    why: 'part of that custom role, misspelt in an import ID',
  },
];

/** Elsewhere, real roles shown where Google refuses them on purpose: the warning they get, quoted. */
const MISPLACED_ON_PURPOSE: ReadonlyArray<{ readonly file: string; readonly role: string; readonly why: string }> = [
  { file: 'docs/roles.md', role: 'roles/networksecurity.viewer', why: 'the warning of a network-security role on a migration job' },
];

/**
 * How far (in lines) from where a role is granted the resource type is looked for: in what users read and
 * copy, the whole example; in the tests, the statement (their tables of cases and steps name types by
 * constants further away, and every grant they apply meets the emulator, which refuses what Google refuses).
 */
const NEAR = { docs: 12, tests: 3 };

/** The files a user reads or the tests run. */
function filesToRead(): string[] {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'README.md', 'docs', 'examples', 'test'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(
      (file) =>
        /\.(ts|js|md|tf|json|py)$/.test(file) && file !== 'test/unit/iam/roles-in-use.test.ts' && !TESTS_OF_THE_ROLE_CHECKS.includes(file),
    );
}

interface Occurrence {
  readonly file: string;
  readonly line: number;
  readonly role: string;
}

/** `roles/…` literals: not the tail of a custom role (`projects/p/roles/x`) nor of a longer path. */
function rolesIn(file: string, text: string): Occurrence[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      [...line.matchAll(/(?<![\w/}.-])roles\/(?:[A-Za-z0-9_.]*[A-Za-z0-9_])?/g)].map((m) => ({ file, line: i + 1, role: m[0] })),
    );
}

/** What names a typed resource type in code, HCL or prose: its collection, its construct stem, its Terraform infix. */
const TYPED_MENTIONS = TYPED_RESOURCE_TYPE_ROWS.map((row) => ({
  pattern: new RegExp(`${row.collection}/|\\b${row.stem}(?:Iam|\\b)|${row.stem.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase()}_iam`),
  target: typedRoleTarget(row),
}));

/** The collections of any API at `version` that `name` belongs to (none of the catch-all `**` ones). */
function collectionsOf(version: string, name: string): IamCollection[] {
  return IAM_APIS.filter(([, v]) => v === version)
    .map(([service]) => GoogleIamApis.collection(service, version, name))
    .filter((c): c is IamCollection => c !== undefined && !c.template.includes('**'));
}

/** The resource types a line names: typed ones, the collection of each resource name Google publishes, and the file's constants that name one. */
function targetsOf(line: string, constants: ReadonlyMap<string, readonly RoleTarget[]> = new Map()): RoleTarget[] {
  const targets = TYPED_MENTIONS.filter((m) => m.pattern.test(line)).map((m) => m.target);
  for (const [word] of line.matchAll(/\b[A-Z][A-Z0-9_]*\b/g)) targets.push(...(constants.get(word) ?? []));
  for (const [name] of line.matchAll(/\b(?:projects|organizations|folders|b)\/[^\s'"`,)]+/g)) {
    const concrete = name.replace(/\$\{[^}]*\}/g, 'x').replace(/[.:;]+$/, '');
    // A name alone does not say its API where two have the collection (`projects/*/locations/*/services/*`: run and
    // metastore): each of the first version that has one is a candidate.
    const version = ['v1', 'v2', 'v3', 'v1beta1'].find((v) => collectionsOf(v, concrete).length > 0);
    for (const collection of version === undefined ? [] : collectionsOf(version, concrete)) {
      const target = templateRoleTarget(collection.service, collection.template);
      if (target && !targets.some((t) => t.service === target.service && t.collection === target.collection)) targets.push(target);
    }
  }
  return targets;
}

/** The file's constants that name a resource (`const AP = 'projects/…/authorizationPolicies/ap'`, or an earlier one), with its type. */
function resourceConstants(lines: readonly string[]): Map<string, RoleTarget[]> {
  const constants = new Map<string, RoleTarget[]>();
  for (const line of lines) {
    const name = /^\s*(?:export )?const ([A-Z][A-Z0-9_]*)\b[^=]*=/.exec(line)?.[1];
    const targets = name === undefined ? [] : targetsOf(line, constants);
    if (name !== undefined && targets.length > 0) constants.set(name, targets);
  }
  return constants;
}

/** The resource types named nearest to `line` (0-based) within `near` lines: those of the nearest line that names any. */
function nearestTargets(
  lines: readonly string[],
  line: number,
  constants: ReadonlyMap<string, readonly RoleTarget[]>,
  near: number,
): RoleTarget[] {
  for (let distance = 0; distance <= near; distance++) {
    const found = [line - distance, line + distance]
      .filter((i, k) => i >= 0 && i < lines.length && (k === 0 || distance > 0))
      .flatMap((i) => targetsOf(lines[i], constants));
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * Where a role is granted: its own line, or, for a constant (`const VIEWER = 'roles/…'`),
 * every line that uses the constant.
 */
function grantLines(lines: readonly string[], line: number): number[] {
  const constant = /\b(?:const|let)\s+(\w+)\s*(?::[^=]+)?=\s*['"`]roles\//.exec(lines[line])?.[1];
  if (constant === undefined) return [line];
  const uses = new RegExp(`\\b${constant}\\b`);
  return lines.flatMap((text, i) => (i !== line && uses.test(text) ? [i] : []));
}

const occurrences = filesToRead().flatMap((file) => {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const lines = text.split('\n');
  const constants = resourceConstants(lines);
  const near = file.startsWith('test/') ? NEAR.tests : NEAR.docs;
  return rolesIn(file, text).map((o) => ({
    ...o,
    places: grantLines(lines, o.line - 1).map((i) => ({ line: i + 1, targets: nearestTargets(lines, i, constants, near) })),
  }));
});
const allowed = (o: Occurrence) => NOT_GOOGLE_ROLES.some((a) => a.file === o.file && a.role === o.role);
const misplacedOnPurpose = (o: Occurrence) => MISPLACED_ON_PURPOSE.some((a) => a.file === o.file && a.role === o.role);

test('the files hold roles to check, and the allow-lists name only files and literals that are there', () => {
  expect(occurrences.length).toBeGreaterThan(300);
  for (const file of TESTS_OF_THE_ROLE_CHECKS) expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
  const unused = [...NOT_GOOGLE_ROLES, ...MISPLACED_ON_PURPOSE].filter(
    (a) => !occurrences.some((o) => o.file === a.file && o.role === a.role),
  );
  expect(unused).toEqual([]);
});

test("every roles/… literal of README.md, docs/, examples/ and test/ is one of Google's basic and predefined roles", () => {
  const unknown = occurrences.filter((o) => !allowed(o) && predefinedRole(o.role) === undefined);
  expect(unknown.map((o) => `${o.file}:${o.line}: ${o.role}`)).toEqual([]);
});

test('every role is grantable where it is granted: on one of the resource types named nearest to each place it is used', () => {
  const refused = occurrences.flatMap((o) =>
    allowed(o) || misplacedOnPurpose(o) || predefinedRole(o.role) === undefined
      ? []
      : o.places
          .filter((p) => p.targets.length > 0 && p.targets.every((t) => grantability(o.role, t) === 'not grantable'))
          .map((p) => `${o.file}:${p.line}: ${o.role} on ${p.targets.map((t) => t.label).join(' or ')}`),
  );
  expect(refused).toEqual([]);
});

test('the roles README.md grants are checked against the type they are granted on', () => {
  const readme = occurrences.filter((o) => o.file === 'README.md');
  expect(readme.length).toBeGreaterThan(5);
  expect(readme.every((o) => o.places.every((p) => p.targets.length > 0))).toBe(true);
});
