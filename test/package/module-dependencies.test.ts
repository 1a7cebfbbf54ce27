/**
 * The house: two wings over one shared floor (docs/design.md draws it).
 * - The shared floor (FLOOR) is what both wings stand on: the IAM domain
 *   (pure), Google's REST API, the messages between synth and the provider's
 *   lookup mode, and the table of typed resource types with their name
 *   formats. It imports neither wing.
 * - The synth wing (SYNTH_WING) runs in `cdktf synth`: the constructs and
 *   lookups, the generated L1 classes, the synth hooks, the installer, and the
 *   package's entry point.
 * - The Terraform wing (TERRAFORM_WING) runs inside terraform, bundled into
 *   dist/provider: protocol, framework, resources, data sources, policies.
 * - The annex (ANNEX), the emulator users test with, stands on the floor alone.
 * The wings meet only on the floor: neither imports the other, and nothing
 * imports the annex; each folder imports only what its row of MAY_IMPORT
 * allows (the installer, for one, nothing else of lib/). No import goes round in a circle, file by file (type-only
 * imports included: they couple the code as much) nor folder by folder. Only
 * the construct layer loads the framework (cdktf, cdktn, constructs); lib/iam
 * is pure (no I/O, no framework, no build output).
 */
import * as fs from 'fs';
import * as path from 'path';

const LIB = path.join(__dirname, '..', '..', 'lib');
const FRAMEWORK = ['cdktf', 'cdktn', 'constructs'];
/** The top folders of lib/ (`.` is lib/index.ts), by where they stand. */
const FLOOR = ['iam', 'api', 'contract', 'resource-types'];
const SYNTH_WING = [
  '.',
  'networksecurity',
  'datamigration',
  'migrationcenter',
  'generic',
  'lookups',
  'checks',
  'grant',
  'provider-bindings',
  'synth',
  'install',
];
const TERRAFORM_WING = ['provider'];
const ANNEX = ['testing'];
const CONSTRUCTS = [...FLOOR, 'synth', 'provider-bindings', 'grant', 'lookups'];
/** What each folder may import besides itself: docs/design.md shows the same table. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  iam: [],
  api: ['iam'],
  contract: ['iam', 'api'],
  'resource-types': ['iam', 'api'],
  provider: FLOOR,
  install: [],
  synth: ['iam', 'install'],
  'provider-bindings': ['synth'],
  grant: [...FLOOR, 'synth', 'provider-bindings'],
  lookups: [...FLOOR, 'synth', 'install', 'grant'],
  checks: [...FLOOR, 'synth', 'grant'],
  networksecurity: CONSTRUCTS,
  datamigration: CONSTRUCTS,
  migrationcenter: CONSTRUCTS,
  generic: CONSTRUCTS,
  '.': [...FLOOR, ...SYNTH_WING],
  testing: FLOOR,
};

/**
 * The rules below hold except where this list says; each entry is a known
 * violation, to be removed with the change that fixes it (the test fails
 * until it is, and fails for any new violation).
 */
const KNOWN_VIOLATIONS: { readonly fileCycles: readonly string[] } = {
  fileCycles: [],
};

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** A module specifier as written in `file`, and what it names: a file of the repository (absolute, no extension) or a package. */
interface Import {
  readonly file: string;
  readonly spec: string;
  readonly target: string;
}

/** Every import, export-from, dynamic import and require of every source file of lib/ (type-only ones included). */
function fileImports(): Import[] {
  return sources(LIB).flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/(?:from|import|import\(|require\()\s*['"]([^'"]+)['"]/g)].map(([, spec]) => ({
      file,
      spec,
      target: spec.startsWith('.') ? path.resolve(path.dirname(file), spec).replace(/\.(ts|js)$/, '') : packageOf(spec),
    })),
  );
}

function packageOf(spec: string): string {
  return spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
}

/** The file a relative import names (`x.ts` or `x/index.ts`), if it is a source file. */
function sourceFile(target: string): string | undefined {
  return [`${target}.ts`, path.join(target, 'index.ts')].find((f) => fs.existsSync(f));
}

/** lib/<folder>/... -> folder, lib/index.ts -> `.`; undefined outside lib/. */
function folderOf(file: string): string | undefined {
  const relative = path.relative(LIB, file);
  if (relative.startsWith('..')) return undefined;
  const parts = relative.split(path.sep);
  return parts.length === 1 ? '.' : parts[0];
}

/** The imports from one source file of lib/ to another. */
function libImports(): (Import & { readonly to: string })[] {
  return fileImports().flatMap((i) => {
    const to = path.isAbsolute(i.target) ? sourceFile(i.target) : undefined;
    return to !== undefined && folderOf(to) !== undefined ? [{ ...i, to }] : [];
  });
}

const show = (i: Import): string => `${path.relative(LIB, i.file)} -> ${i.spec}`;

/** The strongly connected components of more than one file (or a file importing itself): Tarjan's algorithm. */
function cycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) {
        low.set(node, Math.min(low.get(node)!, index.get(to)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || edges.get(node)?.has(node)) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

function graph(key: (file: string) => string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>(sources(LIB).map((file) => [key(file), new Set<string>()]));
  for (const i of libImports()) if (key(i.file) !== key(i.to)) edges.get(key(i.file))!.add(key(i.to));
  return edges;
}

test('every folder of lib/ is on the floor, in one wing or in the annex, and in one only', () => {
  const folders = [...new Set(sources(LIB).map((f) => folderOf(f)!))].sort();
  const placed = [...FLOOR, ...SYNTH_WING, ...TERRAFORM_WING, ...ANNEX];
  expect(placed.sort()).toEqual(folders);
});

test('each folder imports only what its row of the table allows', () => {
  expect(Object.keys(MAY_IMPORT).sort()).toEqual([...FLOOR, ...SYNTH_WING, ...TERRAFORM_WING, ...ANNEX].sort());
  const outside = libImports().filter(
    (i) => folderOf(i.to) !== folderOf(i.file) && !MAY_IMPORT[folderOf(i.file)!].includes(folderOf(i.to)!),
  );
  expect(outside.map(show)).toEqual([]);
});

test('no cycle anywhere in lib/: file by file, type-only imports included', () => {
  const fileCycles = cycles(graph((file) => path.relative(LIB, file)));
  expect(fileCycles.map((c) => c.join(', ')).sort()).toEqual(KNOWN_VIOLATIONS.fileCycles);
});

test('no cycle between the folders of lib/', () => {
  expect(cycles(graph((file) => folderOf(file)!))).toEqual([]);
});

test('the shared floor imports neither wing (nor the annex)', () => {
  const up = libImports().filter((i) => FLOOR.includes(folderOf(i.file)!) && !FLOOR.includes(folderOf(i.to)!));
  expect(up.map(show)).toEqual([]);
});

test('the wings meet only on the floor: no import from one wing into the other, and the annex stands on the floor alone', () => {
  const wingOf = (file: string): string => {
    const folder = folderOf(file)!;
    if (SYNTH_WING.includes(folder)) return 'synth';
    if (TERRAFORM_WING.includes(folder)) return 'terraform';
    return ANNEX.includes(folder) ? 'annex' : 'floor';
  };
  const across = libImports().filter((i) => wingOf(i.to) !== 'floor' && wingOf(i.to) !== wingOf(i.file));
  expect(across.map(show)).toEqual([]);
});

test('what runs inside terraform, the installer and the IAM domain never load the framework', () => {
  const loading = fileImports().filter(
    (i) => ['iam', 'api', 'contract', 'resource-types', 'provider', 'install'].includes(folderOf(i.file)!) && FRAMEWORK.includes(i.target),
  );
  expect(loading.map(show)).toEqual([]);
  const iamPackages = fileImports().filter((i) => folderOf(i.file) === 'iam' && !path.isAbsolute(i.target));
  expect([...new Set(iamPackages.map((i) => i.target))].sort()).toEqual(['@marcbachmann/cel-js', 'crypto', 'fastest-levenshtein', 'zlib']);
});

test('what the provider loads, followed file by file, reaches neither the framework nor the synth wing', () => {
  const all = fileImports();
  const reached = new Set<string>();
  const pending = sources(path.join(LIB, 'provider'));
  const offending: string[] = [];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (reached.has(file)) continue;
    reached.add(file);
    for (const i of all.filter((x) => x.file === file)) {
      const next = path.isAbsolute(i.target) ? sourceFile(i.target) : undefined;
      if (FRAMEWORK.includes(i.target) || SYNTH_WING.includes(folderOf(next ?? '') ?? '')) offending.push(show(i));
      else if (next) pending.push(next);
    }
  }
  expect(offending).toEqual([]);
  expect(reached.size).toBeGreaterThan(sources(path.join(LIB, 'provider')).length);
});

test("inside the Terraform wing, the framework knows no resource and the protocol layer knows only the framework (and lib/contract, for what it parses of Terraform's files)", () => {
  const room = (file: string): string => {
    const relative = path.relative(path.join(LIB, 'provider'), file).split(path.sep).slice(0, -1).join('/');
    return relative === '../contract' ? 'contract' : relative;
  };
  const provider = libImports().filter((i) => folderOf(i.file) === 'provider');
  const out = (from: string, allowed: string[]) =>
    provider.filter((i) => room(i.file).split('/')[0] === from && !allowed.includes(room(i.to).split('/')[0])).map(show);
  expect(out('framework', ['framework'])).toEqual([]);
  expect(out('protocol', ['protocol', 'framework', 'contract'])).toEqual([]);
  const intoProtocol = provider.filter(
    (i) => ['resources', 'data-sources', 'policies'].includes(room(i.file).split('/')[0]) && room(i.to).startsWith('protocol'),
  );
  expect(intoProtocol.map(show)).toEqual([]);
});

test('lib/provider-bindings holds only the generated L1 classes', () => {
  const handWritten = sources(path.join(LIB, 'provider-bindings')).filter((f) => !f.endsWith('.generated.ts'));
  expect(handWritten.map((f) => path.relative(LIB, f))).toEqual([]);
});

/**
 * What synth hands the provider's lookup mode (the read query on stdin) is
 * parsed only by lib/contract's parser: lib/provider parses no JSON of its own
 * but Terraform's JSON-encoded values (decoded against the schema's cty type)
 * and the private state it wrote itself (kept by Terraform beside a resource
 * object, read back as an object or not at all), casts no parsed value into
 * shape, and reads stdin only in the lookup mode.
 */
test("lib/provider reads synth's messages only through lib/contract's parsers", () => {
  const providerFiles = sources(path.join(LIB, 'provider')).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
  const parsesJson = providerFiles.filter(({ text }) => text.includes('JSON.parse(')).map(({ file }) => path.relative(LIB, file));
  expect(parsesJson.sort()).toEqual([
    'provider/framework/private-state.ts',
    'provider/protocol/dynamic-value.ts',
    'provider/protocol/rpc/upgrade-resource-state.ts',
  ]);
  const jsonValues = providerFiles.flatMap(({ file, text }) =>
    [...text.matchAll(/^.*JSON\.parse\(.*$/gm)].map((m) => `${path.relative(LIB, file)}: ${/ctyFromJson\(JSON\.parse\(/.test(m[0])}`),
  );
  expect(jsonValues.sort()).toEqual([
    'provider/framework/private-state.ts: false',
    'provider/protocol/dynamic-value.ts: true',
    'provider/protocol/rpc/upgrade-resource-state.ts: true',
  ]);
  const casts = providerFiles.flatMap(({ file, text }) =>
    [...text.matchAll(/JSON\.parse\([^;]*?\)\s+as\s+\w+/g)].map((m) => `${path.relative(LIB, file)}: ${m[0]}`),
  );
  expect(casts).toEqual([]);
  const stdin = providerFiles
    .filter(({ text }) => text.includes('process.stdin'))
    .map(({ file, text }) => ({ file: path.relative(LIB, file), parses: /parseReadQuery\(json\)/.test(text) }));
  expect(stdin).toEqual([{ file: 'provider/lookup-mode.ts', parses: true }]);
});

test('lib/iam needs no build output: its requires of dist/, the vendored CEL parser and edit distance, fall back to the packages', () => {
  const iam = fileImports().filter((i) => folderOf(i.file) === 'iam');
  const buildOutput = iam.filter((i) => path.isAbsolute(i.target) && folderOf(i.target) === undefined);
  expect(buildOutput.map(show).sort()).toEqual([
    'iam/cel-parser.ts -> ../../dist/vendor/cel.js',
    'iam/edit-distance.ts -> ../../dist/vendor/levenshtein.js',
  ]);
  // The fallbacks themselves are exercised by test/unit/iam/cel-parser-loading.test.ts and role-check.test.ts.
  expect(iam.filter((i) => i.spec === '@marcbachmann/cel-js' && path.basename(i.file) === 'cel-parser.ts')).not.toHaveLength(0);
  expect(iam.filter((i) => i.spec === 'fastest-levenshtein' && path.basename(i.file) === 'edit-distance.ts')).not.toHaveLength(0);
});

test('bench/ and test/ never import each other: a benchmark does not run on test code, nor a test on a benchmark', () => {
  const root = path.join(LIB, '..');
  const crossing = (from: string, to: string) =>
    sources(path.join(root, from)).flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(/(?:from|import|require\()\s*['"](\.[^'"]+)['"]/g)]
        .map(([, spec]) => path.relative(root, path.resolve(path.dirname(file), spec)))
        .filter((target) => target.split(path.sep)[0] === to)
        .map((target) => `${path.relative(root, file)} -> ${target}`),
    );
  expect(crossing('bench', 'test')).toEqual([]);
  expect(crossing('test', 'bench')).toEqual([]);
});
