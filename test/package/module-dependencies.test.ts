/**
 * The folders of lib/ depend on each other one way: no two import each other,
 * directly or around a loop. The layout also says what runs where: lib/iam is
 * pure (no I/O, no framework, no build output); lib/api, lib/contract,
 * lib/provider (run inside terraform, as the bundled provider) and lib/install
 * (the installer command, also used at synth) never load the framework, and
 * only the construct layer does; what runs in `cdktf synth` and what runs
 * inside terraform meet only in lib/iam, lib/api and lib/contract.
 */
import * as fs from 'fs';
import * as path from 'path';

const LIB = path.join(__dirname, '..', '..', 'lib');
const FRAMEWORK = ['cdktf', 'cdktn', 'constructs'];
/** The folders of code that runs in `cdktf synth`: the construct layer and what it shares. */
const SYNTH = [
  'grant',
  'lookups',
  'synth',
  'provider-bindings',
  'networksecurity',
  'datamigration',
  'migrationcenter',
  'generic',
  'testing',
];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** folder -> the folders and packages it imports (type-only imports included: they still couple the code). */
function imports(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const file of sources(LIB)) {
    const folder = path.relative(LIB, path.dirname(file)).split(path.sep)[0] || '.';
    const targets = graph.get(folder) ?? new Set<string>();
    for (const [, spec] of fs.readFileSync(file, 'utf8').matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)) {
      if (spec.startsWith('.')) {
        const target = path.relative(LIB, path.resolve(path.dirname(file), spec)).split(path.sep)[0];
        if (target && target !== folder && !target.startsWith('..')) targets.add(target);
      } else {
        targets.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
      }
    }
    graph.set(folder, targets);
  }
  return graph;
}

test('no cycle between the folders of lib/', () => {
  const graph = imports();
  const cycles: string[] = [];
  const visit = (node: string, trail: string[]): void => {
    if (trail.includes(node)) {
      cycles.push([...trail.slice(trail.indexOf(node)), node].join(' -> '));
      return;
    }
    for (const next of graph.get(node) ?? []) if (graph.has(next)) visit(next, [...trail, node]);
  };
  for (const folder of graph.keys()) visit(folder, []);
  expect([...new Set(cycles)]).toEqual([]);
});

test('what runs inside terraform, the installer and the IAM domain never load the framework', () => {
  const graph = imports();
  for (const folder of ['iam', 'api', 'contract', 'provider', 'install']) {
    expect({ folder, framework: [...(graph.get(folder) ?? [])].filter((m) => ['cdktf', 'cdktn', 'constructs'].includes(m)) }).toEqual({
      folder,
      framework: [],
    });
  }
  expect(
    [...(graph.get('iam') ?? [])].filter((m) => !['crypto', 'iam'].includes(m) && !graph.has(m) && m !== '@marcbachmann/cel-js'),
  ).toEqual([]);
});

/** A module specifier as written in `file`, and what it names: a file of the repository (absolute, no extension) or a package. */
interface Import {
  readonly file: string;
  readonly spec: string;
  readonly target: string;
}

/** Every import, export-from and require of every source file of lib/ (type-only ones included). */
function fileImports(): Import[] {
  return sources(LIB).flatMap((file) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g)].map(([, spec]) => ({
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

/** lib/<folder>/... -> folder; undefined outside lib/. */
function folderOf(file: string): string | undefined {
  const relative = path.relative(LIB, file);
  return relative.startsWith('..') ? undefined : relative.split(path.sep)[0];
}

const show = (i: Import): string => `${path.relative(LIB, i.file)} -> ${i.spec}`;

test('what the provider loads, followed file by file, reaches neither the framework nor the construct layer', () => {
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
      if (FRAMEWORK.includes(i.target) || SYNTH.includes(folderOf(next ?? '') ?? '')) offending.push(show(i));
      if (next) pending.push(next);
    }
  }
  expect(offending.sort()).toEqual(
    [...KNOWN_VIOLATIONS.providerImportsOnlyContractIamAndApi, ...KNOWN_VIOLATIONS.providerReachesThroughThem].sort(),
  );
  expect(reached.size).toBeGreaterThan(sources(path.join(LIB, 'provider')).length);
});

/**
 * The rules below hold except where this list says; each entry is a known
 * violation, to be removed with the change that fixes it (the test fails
 * until it is, and fails for any new violation).
 */
const KNOWN_VIOLATIONS = {
  // The table of typed resource types (plain data, no imports) and its name formats (pure, lib/iam only): shared
  // with the constructs, but they live in the construct layer's folder.
  providerImportsOnlyContractIamAndApi: [
    'provider/data-sources/iam-policy.ts -> ../../grant/typed-resource-types',
    'provider/resources/iam-type-descriptor.ts -> ../../grant/typed-name-format',
    'provider/resources/iam-type-descriptor.ts -> ../../grant/typed-resource-types',
    'provider/resources/iam-types.ts -> ../../grant/typed-resource-types',
  ],
  // What the provider reaches through those two files.
  providerReachesThroughThem: ['grant/typed-name-format.ts -> ./typed-resource-types'],
  synthNeverImportsProvider: [] as string[],
};

test('lib/provider imports only lib/contract, lib/iam and lib/api (and packages that are not the framework)', () => {
  const outside = fileImports().filter((i) => {
    if (folderOf(i.file) !== 'provider' || !path.isAbsolute(i.target)) return false;
    const folder = folderOf(i.target);
    return folder !== undefined && !['provider', 'contract', 'iam', 'api'].includes(folder);
  });
  expect(outside.map(show).sort()).toEqual(KNOWN_VIOLATIONS.providerImportsOnlyContractIamAndApi);
});

test('lib/install imports nothing else of lib/: the installer command loads only itself', () => {
  const outside = fileImports().filter(
    (i) =>
      folderOf(i.file) === 'install' && path.isAbsolute(i.target) && folderOf(i.target) !== 'install' && folderOf(i.target) !== undefined,
  );
  expect(outside.map(show)).toEqual([]);
});

test('code that runs in cdktf synth never imports lib/provider (it runs the bundle instead)', () => {
  const intoProvider = fileImports().filter(
    (i) => SYNTH.includes(folderOf(i.file) ?? '') && path.isAbsolute(i.target) && folderOf(i.target) === 'provider',
  );
  expect(intoProvider.map(show)).toEqual(KNOWN_VIOLATIONS.synthNeverImportsProvider);
});

/**
 * What synth hands the provider's lookup mode (the read query on stdin) is
 * parsed only by lib/contract's parser: lib/provider parses no JSON of its own
 * but Terraform's JSON-encoded values (decoded against the schema's cty type)
 * and the private state it wrote itself (framework/private-state.ts), casts no
 * parsed value into shape, and reads stdin only in the lookup mode.
 */
test("lib/provider reads synth's messages only through lib/contract's parsers", () => {
  const providerFiles = sources(path.join(LIB, 'provider')).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
  const parsesJson = providerFiles.filter(({ text }) => text.includes('JSON.parse(')).map(({ file }) => path.relative(LIB, file));
  expect(parsesJson.sort()).toEqual([
    'provider/framework/private-state.ts',
    'provider/protocol/dynamic-value.ts',
    'provider/protocol/provider-service.ts',
  ]);
  const jsonValues = providerFiles.flatMap(({ file, text }) =>
    [...text.matchAll(/^.*JSON\.parse\(.*$/gm)].map((m) => `${path.relative(LIB, file)}: ${/ctyFromJson\(JSON\.parse\(/.test(m[0])}`),
  );
  expect(jsonValues.sort()).toEqual([
    'provider/framework/private-state.ts: false',
    'provider/protocol/dynamic-value.ts: true',
    'provider/protocol/provider-service.ts: true',
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

test('lib/iam needs no build output: its one require of dist/, the vendored CEL parser, falls back to the package', () => {
  const iam = fileImports().filter((i) => folderOf(i.file) === 'iam');
  const buildOutput = iam.filter((i) => path.isAbsolute(i.target) && folderOf(i.target) === undefined);
  expect(buildOutput.map(show)).toEqual(['iam/cel-parser.ts -> ../../dist/vendor/cel.js']);
  // The fallback itself is exercised by test/unit/iam/cel-parser-loading.test.ts.
  expect(iam.filter((i) => i.spec === '@marcbachmann/cel-js' && path.basename(i.file) === 'cel-parser.ts')).not.toHaveLength(0);
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
