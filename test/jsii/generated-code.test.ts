/**
 * The code jsii generates for Python, Java, Go and .NET, checked as far as
 * this machine allows (no Go or .NET compiler, no Maven registry): the Python
 * compiles, the Java parses, and in every language the lookups are plain
 * synchronous calls into the kernel. The Python examples of the README and
 * docs/ compile, and every generated name their Python and Go examples use
 * exists with that spelling. The docs' examples are translated by
 * jsii-rosetta (`extract --strict`, then pacmak with its tablet, as
 * `npm run package` does): no TSDoc and no TypeScript example is left in
 * the generated docs.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCommand } from '../support/terraform';

const rosetta = require('../../scripts/translate-examples.js') as {
  ROSETTA: string;
  CACHE: string;
  pacmakArgs(tablet: string): string[];
  stage(packageDir: string): string;
  extractArgs(stageDir: string, cache?: string): string[];
};

jest.setTimeout(240_000);

const ROOT = path.join(__dirname, '..', '..');
/** The README and the pages of docs/, where the examples are. */
const DOCS = [path.join(ROOT, 'README.md'), ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => path.join(ROOT, 'docs', f))]
  .filter((f) => f.endsWith('.md'))
  .map((f) => fs.readFileSync(f, 'utf8'))
  .join('\n');
const LOOKUPS = [
  'getAddressGroupIamPolicy',
  'getAuthorizationPolicyIamPolicy',
  'getMigrationJobIamPolicy',
  'getNetworkSecurityAuthzPolicyIamPolicy',
  'getIamPolicy',
  'getImportJob',
];

const FLAVOURS = [
  {
    name: 'cdktf-google-iam',
    packageDir: ROOT,
    python: 'cdktf_google_iam',
    go: 'cdktfgoogleiam',
    dotnet: 'CdktfGoogleIam',
    // The README's four ```ts blocks and the @example of GoogleIamChecks and of IamSuppressions.
    examples: 6,
  },
  {
    name: 'cdktn-google-iam',
    packageDir: path.join(ROOT, 'dist-cdktn'),
    python: 'cdktn_google_iam',
    go: 'cdktngoogleiam',
    dotnet: 'CdktnGoogleIam',
    // Its README has no example: the two @example.
    examples: 2,
  },
];
/** Rosetta's translations from the runs before, reused where example, fixture and types did not change (`--cache`). */
const ROSETTA_CACHE = path.join(rosetta.CACHE, 'jsii-tests');

describe.each(FLAVOURS)('$name: generated code', ({ name, packageDir, python, go, dotnet, examples }) => {
  let outdir: string;
  const read = (...parts: string[]) => fs.readFileSync(path.join(outdir, ...parts), 'utf8');
  const filesUnder = (dir: string, ending: string) =>
    fs
      .readdirSync(path.join(outdir, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith(ending))
      .map((f) => path.join(outdir, dir, f));

  let tablet: string;
  beforeAll(async () => {
    outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'jsii-generated-'));
    // As `npm run package` does: every example compiles (--strict), and pacmak fails on one the tablet lacks.
    const stage = rosetta.stage(packageDir);
    try {
      fs.mkdirSync(ROSETTA_CACHE, { recursive: true });
      const extract = await runCommand(
        rosetta.ROSETTA,
        rosetta.extractArgs(stage, path.join(ROSETTA_CACHE, `${name}.tabl.json`)),
        ROOT,
        {},
      );
      expect({ code: extract.code, errors: extract.output.match(/.*error.*/gi) ?? [] }).toEqual({ code: 0, errors: [] });
      tablet = path.join(outdir, 'examples.tabl.json');
      fs.copyFileSync(path.join(stage, '.jsii.tabl.json'), tablet);
    } finally {
      fs.rmSync(stage, { recursive: true, force: true });
    }
    const pacmak = await runCommand(
      path.join(ROOT, 'node_modules', '.bin', 'jsii-pacmak'),
      ['--code-only', '--targets', 'python,java,go,dotnet', '--outdir', outdir, ...rosetta.pacmakArgs(tablet)],
      packageDir,
      {},
    );
    expect({ code: pacmak.code, errors: pacmak.output.match(/.*error.*/gi) ?? [] }).toEqual({ code: 0, errors: [] });
  });
  afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

  test('the assembly has no async method (Go cannot call one: the kernel answers "use begin instead")', () => {
    const assembly = JSON.parse(fs.readFileSync(path.join(packageDir, '.jsii'), 'utf8')) as {
      types: Record<string, { methods?: { name: string; async?: boolean }[] }>;
    };
    const asyncMethods = Object.entries(assembly.types).flatMap(([fqn, type]) =>
      (type.methods ?? []).filter((m) => m.async).map((m) => `${fqn}.${m.name}`),
    );
    expect(asyncMethods).toEqual([]);
  });

  test('Python: every generated file compiles with py_compile; the lookups call jsii.invoke and return their structs', async () => {
    const sources = filesUnder('python', '.py');
    expect(sources.length).toBeGreaterThan(0);
    const compiled = await runCommand('python3', ['-m', 'py_compile', ...sources], ROOT, {});
    expect({ code: compiled.code, output: compiled.output }).toEqual({ code: 0, output: '' });
    const module = pythonModule(outdir, python);
    for (const lookup of LOOKUPS) {
      expect(module).toContain(`jsii.invoke(self, "${lookup}", [args])`);
      expect(module).toMatch(new RegExp(`def ${snake(lookup)}\\(\\n\\s+self,\\n\\s+\\*,`));
    }
    expect(module).not.toMatch(/jsii\.ainvoke|async def/);
    expect(module).toMatch(/def bindings\(self\) -> "_cdkt[fn]_[0-9a-f]+\.IResolvable"/);
  });

  test('Java: every generated file parses with javac; the lookups call Kernel.call synchronously', async () => {
    const sources = filesUnder('java', '.java');
    const parsed = await runCommand('java', [path.join(__dirname, 'support', 'JavaParse.java'), ...sources], ROOT, {});
    expect({ code: parsed.code, stderr: parsed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(parsed.stdout).toContain(`parsed ${sources.length} files, 0 errors`);
    const lookups = fs.readFileSync(
      sources.find((f) => f.endsWith(`${path.sep}GoogleLookups.java`))!,
      'utf8',
    );
    for (const lookup of LOOKUPS) expect(lookups).toContain(`software.amazon.jsii.Kernel.call(this, "${lookup}"`);
    expect(lookups).not.toMatch(/asyncCall|CompletableFuture/);
  });

  test('Go and .NET (read as text, no compiler here): the lookups are synchronous methods returning their structs', () => {
    const goLookups = read('go', go, 'GoogleLookups.go');
    expect(goLookups).toContain('GetImportJob(args *GetImportJobArgs) *ImportJob');
    expect(goLookups).toContain('GetAddressGroupIamPolicy(args *GetAddressGroupIamPolicyArgs) *IamPolicy');
    expect(goLookups.match(/_jsii_\.Invoke\(/g)).toHaveLength(LOOKUPS.length);
    expect(read('go', go, 'DataAddressGroupIamPolicy.go')).toMatch(/\tBindings\(\) cdkt[fn]\.IResolvable\n/);
    const dotnetLookups = read('dotnet', dotnet, dotnet, 'GoogleLookups.cs');
    expect(dotnetLookups).toContain(`public virtual ${dotnet}.IImportJob GetImportJob(${dotnet}.IGetImportJobArgs args)`);
    expect(dotnetLookups.match(/InvokeInstanceMethod</g)).toHaveLength(LOOKUPS.length);
  });

  test('no TSDoc in the docs of any language: the assembly and the generated Python, Go and C# have no {@link}', () => {
    const assembly = fs.readFileSync(path.join(packageDir, '.jsii'), 'utf8');
    expect(assembly.match(/.{0,60}\{@\w+.{0,60}/g) ?? []).toEqual([]);
    for (const [dir, ending] of [
      ['python', '.py'],
      ['go', '.go'],
      ['dotnet', '.cs'],
    ]) {
      const tsdoc = filesUnder(dir, ending).flatMap((f) => fs.readFileSync(f, 'utf8').match(/.*(\{@\w+|@link\b|@inheritDoc).*/g) ?? []);
      expect({ [dir]: tsdoc }).toEqual({ [dir]: [] });
    }
  });

  test("Java: the docs' only {@link X} are Javadoc's own, to a generated class (a builder or a getter of one)", () => {
    const sources = filesUnder('java', '.java');
    const classes = new Set(sources.map((f) => path.basename(f, '.java')));
    const links = sources.flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(/\{@link ([^}]*)\}/g)].map((m) => m[1]));
    expect(links.length).toBeGreaterThan(0);
    const toAClass = (link: string) => /^[\w.]+(#\w+)?$/.test(link) && classes.has(link.split('#')[0].split('.').pop()!);
    expect(links.filter((link) => link !== 'Builder' && !toAClass(link))).toEqual([]);
  });

  test('every example is translated: the Python docstrings and README hold Python that compiles, no TypeScript', async () => {
    const module = pythonModule(outdir, python);
    // pacmak writes an @example as `Example::` and an indented block (reStructuredText), the README's as ```python.
    const docstringExamples = [...module.matchAll(/^( *)Example::\n\n((?:\1 +\S.*\n|\n)+)/gm)].map((m) => dedent(m[2]));
    const readme = /^r'''\n([\s\S]*?)^'''/m.exec(module)?.[1] ?? '';
    const readmeExamples = [...readme.matchAll(/^```python\n([\s\S]*?)^```/gm)].map((m) => m[1]);
    expect(docstringExamples.length + readmeExamples.length).toBeGreaterThanOrEqual(examples);
    // What TypeScript has and Python has not, at the start of a statement or anywhere.
    const typescript = [
      /^\s*import \{.*\} from ['"]/m,
      /^\s*(const|let|var) \w+/m,
      /\bnew [A-Z]\w*\(/,
      /=>/,
      /\w: (string|number|boolean)\b/,
      /;\s*$/m,
      /&&|\|\||===|!==/,
      /\(\{ ?\w+:/,
      /\/\/ /,
    ];
    const typescriptLooking = [...docstringExamples, ...readmeExamples].filter((block) => typescript.some((re) => re.test(block)));
    expect(typescriptLooking).toEqual([]);

    await expectPythonCompiles([...docstringExamples, ...readmeExamples]);
  });

  test("Java, C# and Go: the examples in the docs are in the language (the tablet's translations), no TypeScript", () => {
    // The doc comments' lines, without the README's JavaScript program (C# has the README, its ```js block as <code>).
    const doc = (dir: string, ending: string, comment: RegExp) =>
      filesUnder(dir, ending).flatMap((f) =>
        (fs.readFileSync(f, 'utf8').match(comment) ?? [])
          .join('\n')
          .replace(/<code><!\[CDATA\[[\s\S]*?\]\]><\/code>/g, (block) => (/= require\('/.test(block) ? '' : block))
          .split('\n')
          .map((line) => `${path.basename(f)}: ${line}`),
      );
    const docs = [
      ...doc('java', '.java', /^\s*\*.*$/gm),
      ...doc('dotnet', '.cs', /^\s*\/\/\/.*$/gm),
      ...doc('go', '.go', /^\s*\/\/.*$/gm),
      // The Go README's examples (its ```js and ```python blocks are those languages' own, written so).
      ...filesUnder('go', 'README.md').flatMap((f) =>
        [...fs.readFileSync(f, 'utf8').matchAll(/^```go\n([\s\S]*?)^```/gm)].flatMap((m) => m[1].split('\n')),
      ),
    ];
    const typescript = [/import \{.*\} from ['"]/, /\b(const|let) \w+ = /, /=>/, /\bnew [A-Z]\w*\(\w+, '/, /\(\{ ?\w+: /];
    expect(docs.filter((line) => typescript.some((re) => re.test(line)))).toEqual([]);
    // The translations are there: GoogleIamChecks's @example in each language.
    const checks = (file: string) => fs.readFileSync(filesUnder('', file)[0], 'utf8');
    expect(checks(`${path.sep}GoogleIamChecks.java`)).toContain(
      'GoogleIamChecks.Builder.create().allowedMemberDomains(List.of("example.com")).build()',
    );
    expect(checks(`${path.sep}GoogleIamChecks.cs`)).toContain(
      'new GoogleIamChecks(new GoogleIamChecksProps { AllowedMemberDomains = new [] { "example.com" } })',
    );
    expect(checks(`${path.sep}GoogleIamChecks.go`)).toContain(`${go}.NewGoogleIamChecks(&GoogleIamChecksProps{`);
  });

  if (python === 'cdktf_google_iam') {
    test("the docs' Python examples compile, and every name they take from this package exists in the generated module", async () => {
      const blocks = codeBlocks('python');
      expect(blocks.length).toBeGreaterThan(2);
      await expectPythonCompiles(blocks);
      const module = pythonModule(outdir, python);
      const missing = blocks.flatMap((block) => pythonNamesOfThisPackage(block)).filter((name) => !definedInPython(module, name));
      expect(missing).toEqual([]);
    });

    test("every generated name the docs' Go examples use exists with that spelling", () => {
      const blocks = codeBlocks('go');
      expect(blocks.length).toBeGreaterThan(1);
      const code = filesUnder(path.join('go', go), '.go')
        .map((f) => fs.readFileSync(f, 'utf8'))
        .join('\n');
      expect(codeBlocks('go').join('\n')).toContain(`"github.com/cdktf-google-iam/cdktf-google-iam-go/${go}"`);
      expect(read('go', go, 'go.mod')).toContain(`module github.com/cdktf-google-iam/cdktf-google-iam-go/${go}`);
      const missing = blocks.flatMap((block) => goNamesOfThisPackage(block, go)).filter((name) => !definedInGo(code, name));
      expect(missing).toEqual([]);
    });
  }
});

function pythonModule(outdir: string, python: string): string {
  const dir = path.join(outdir, 'python', 'src', python);
  return fs.readFileSync(path.join(dir, '__init__.py'), 'utf8');
}

/** The fenced code blocks of the README and docs/ in one language. */
function codeBlocks(language: string): string[] {
  return [...DOCS.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}

/** The block with the indentation its lines share removed. */
function dedent(block: string): string {
  const indent = Math.min(
    ...block
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => /^ */.exec(l)![0].length),
  );
  return block.replace(new RegExp(`^ {${indent}}`, 'gm'), '');
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** cdktf's names the examples use (its generated Python is not built here). */
const CDKTF_PYTHON = new Set(['App', 'TerraformStack', 'TerraformOutput', 'synth', 'value']);

/**
 * What a Python example takes from this package: the classes it imports, the
 * keyword arguments it passes to them and to their methods, and the methods
 * and properties it reads (`x.name`, not cdktf's, not Python's).
 */
function pythonNamesOfThisPackage(example: string): string[] {
  const block = withoutStrings(example);
  const names = new Set<string>();
  for (const m of block.matchAll(/from \w+_google_iam import ([\w, ]+)/g)) m[1].split(',').forEach((n) => names.add(n.trim()));
  for (const m of block.matchAll(/(\w+)=/g)) names.add(m[1]);
  for (const m of block.matchAll(/\.([a-z_]+)/g)) names.add(m[1]);
  return [...names].filter((n) => !CDKTF_PYTHON.has(n));
}

function definedInPython(module: string, name: string): boolean {
  return new RegExp(`(class ${name}\\b|def ${name}\\(|\\b${name}: )`).test(module);
}

/** cdktf's and jsii's names the Go examples use (their Go modules are not built here). */
const OTHER_GO = /^(cdktf|jsii|fmt)$/;

/**
 * What a Go example takes from this package: `pkg.Name` of it, field names
 * in its struct literals, and methods and fields read on its values (a
 * selector on a variable other than cdktf's `app`).
 */
function goNamesOfThisPackage(example: string, go: string): string[] {
  const block = withoutStrings(example.replace(/^import \([\s\S]*?\)$/m, ''));
  const names = new Set<string>();
  for (const m of block.matchAll(new RegExp(`${go}\\.(\\w+)`, 'g'))) names.add(m[1]);
  for (const m of block.matchAll(new RegExp(`&${go}\\.\\w+\\{([^}]*)\\}`, 'g'))) for (const f of m[1].matchAll(/(\w+):/g)) names.add(f[1]);
  for (const m of block.matchAll(/\b([a-z]\w*)((?:\.[A-Z]\w*(?:\(\))?)+)/g)) {
    if (OTHER_GO.test(m[1]) || m[1] === go || m[1] === 'app') continue;
    for (const s of m[2].matchAll(/\.([A-Z]\w*)/g)) names.add(s[1]);
  }
  return [...names];
}

/** The code with its string literals emptied, so that `"roles/networksecurity.admin"` reads as no selector. */
function withoutStrings(code: string): string {
  return code.replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""');
}

function definedInGo(code: string, name: string): boolean {
  return new RegExp(`(func ${name}\\(|type ${name} |\\t${name} |\\t${name}\\()`).test(code);
}

/** Every block, written to a file of its own, byte-compiles (`python3 -m py_compile`). */
async function expectPythonCompiles(blocks: readonly string[]): Promise<void> {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'python-examples-'));
  try {
    const files = blocks.map((block, i) => {
      const file = path.join(scratch, `example_${i}.py`);
      fs.writeFileSync(file, block);
      return file;
    });
    const compiled = await runCommand('python3', ['-m', 'py_compile', ...files], ROOT, {});
    expect({ code: compiled.code, output: compiled.output }).toEqual({ code: 0, output: '' });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
