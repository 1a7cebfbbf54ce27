/**
 * The README and the pages of docs/, checked: every code block marked as a
 * test is run, every relative link resolves.
 *
 * - `<!-- test: program -->` before a block: a complete program. TypeScript is
 *   type-checked and run (ts-node), JavaScript is run (node), each in a fresh
 *   project whose node_modules holds this package as `cdktf-google-iam`, with
 *   the emulator seeded with the resources the examples name. Python is
 *   compiled (`python3 -m py_compile`) and checked against the package
 *   jsii-pacmak generates: every name imported from `cdktf_google_iam` exists,
 *   every keyword argument is a parameter of what it is passed to.
 * - `<!-- test: fragment -->`: the same, inside a program that declares
 *   `app` and `stack` first (and synthesizes after).
 * - `<!-- test: same-as <file> -->`: the block is that file, as a user writes
 *   it in their own project (package imports instead of relative ones).
 * - `<!-- test: excerpt-of <file> -->`: the block is a part of that file, word
 *   for word (the file is run by a test of its own).
 * - `<!-- test: emulator <METHOD> <path> -->`: a JSON body for the emulator's
 *   admin API, sent to it; what it seeds is then read through the library.
 *
 * - `<!-- test: tsconfig -->`: the README's `tsconfig.json` for a TypeScript
 *   app: the project the TypeScript programs run in uses it.
 *
 * Blocks without a marker are not run (shell sessions, output, excerpts).
 * And the statements of fact that a program can check: the README's length,
 * the published names, the supported versions, the synth error it shows, the
 * bench results docs/performance.md copies, and every relative link and
 * `#anchor` of README.md and docs/*.md.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { importJobQuery, serializeReadQuery } from '../../../lib/contract/read-query';
import { runLookup } from '../../../lib/provider/lookup-mode';
import { GoogleApiEmulator } from '../../../lib/testing';
import { emptyCliConfig, ownPluginCache, runCommand, type CommandResult } from '../../support/terraform';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');

/** The Markdown pages, by path relative to the repository: README.md and docs/*.md. */
const PAGES = new Map(
  ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).map((f) => path.join('docs', f))]
    .filter((f) => f.endsWith('.md'))
    .map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')] as const),
);
const README = PAGES.get('README.md')!;

interface Block {
  readonly page: string;
  readonly lang: string;
  readonly marker?: string;
  readonly code: string;
  readonly line: number;
}

/** A page's fenced code blocks, with the `<!-- test: ... -->` marker on the line before each, if any. */
function pageBlocks(page: string): Block[] {
  const lines = PAGES.get(page)!.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    // After the language, jsii-rosetta's parameters, if any (```ts fixture=stack: scripts/translate-examples.js).
    const open = /^```(\w*)(?:[ \t]+\S.*)?\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    const previous =
      lines
        .slice(0, i)
        .reverse()
        .find((l) => l.trim() !== '') ?? '';
    const marker = /^<!-- test: (.+?) -->$/.exec(previous.trim())?.[1];
    blocks.push({ page, lang: open[1], marker, code: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return blocks;
}

const blocks = [...PAGES.keys()].flatMap(pageBlocks);
const marked = (marker: string, ...langs: string[]) => blocks.filter((b) => b.marker === marker && langs.includes(b.lang));
/** Where a block is, for test names, and a folder name for its program. */
const where = (b: Block) => `${b.page}:${b.line}`;
const slug = (b: Block) => `${b.page.replace(/\W+/g, '-')}-${b.line}`;

/** The `tsconfig.json` the README gives for a TypeScript app. */
function readmeTsconfig(): Block {
  const [block] = marked('tsconfig', 'json').filter((b) => b.page === 'README.md');
  if (!block) throw new Error('README.md has no `<!-- test: tsconfig -->` json block');
  return block;
}

const TS_PRELUDE = "import { App, TerraformStack } from 'cdktf';\nconst app = new App();\nconst stack = new TerraformStack(app, 'iam');\n";
const PY_PRELUDE = 'from cdktf import App, TerraformStack\napp = App()\nstack = TerraformStack(app, "iam")\n';

let emulator: GoogleApiEmulator;
let project: string;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  // What the examples name.
  emulator.addResource('projects/my-project/locations/global/addressGroups/office-ranges', {
    bindings: [{ role: 'roles/compute.networkUser', members: ['group:network-admins@example.com'] }],
  });
  emulator.addImportJob({
    name: 'projects/my-project/locations/us-central1/importJobs/inventory-2026',
    state: 'IMPORT_JOB_STATE_COMPLETED',
    executionReport: { framesReported: 1, totalRowsCount: 1, executionErrors: { fileValidations: [], jobErrors: [] }, jobErrors: [] },
  });
  env = emulator.env();

  // A user's project: the package installed under its name, its peers beside it.
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-readme-'));
  const modules = path.join(project, 'node_modules');
  fs.mkdirSync(modules);
  fs.symlinkSync(ROOT, path.join(modules, 'cdktf-google-iam'));
  for (const peer of ['cdktf', 'constructs', '@types']) fs.symlinkSync(path.join(ROOT, 'node_modules', peer), path.join(modules, peer));
  // The README's tsconfig.json, as a user copies it.
  fs.writeFileSync(path.join(project, 'tsconfig.json'), readmeTsconfig().code);
});
afterAll(async () => {
  await emulator.close();
  fs.rmSync(project, { recursive: true, force: true });
});

/** Writes a program into a folder of its own in the project; returns its path. */
function writeProgram(name: string, code: string): string {
  const dir = path.join(project, name);
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name.endsWith('js') ? 'main.js' : 'main.ts');
  fs.writeFileSync(file, code);
  return file;
}

function runProgram(file: string): Promise<CommandResult> {
  const dir = path.dirname(file);
  return file.endsWith('.js')
    ? runCommand(process.execPath, [file], dir, env)
    : runCommand(path.join(BIN, 'ts-node'), ['--transpile-only', file], dir, env);
}

function succeeded(result: CommandResult): { code: number; output: string } {
  return { code: result.code, output: result.code === 0 ? '' : result.output };
}

describe('README code blocks', () => {
  test('the README marks its programs (TypeScript and JavaScript), docs/languages.md its Python and Java ones, the docs their fragments', () => {
    const inReadme = (marker: string, lang: string) => marked(marker, lang).filter((b) => b.page === 'README.md').length;
    expect(inReadme('program', 'ts')).toBeGreaterThanOrEqual(2);
    expect(inReadme('program', 'js')).toBeGreaterThanOrEqual(1);
    // The other languages' programs are on their own page, which the README points to.
    const languages = (lang: string) => marked('program', lang).filter((b) => b.page === path.join('docs', 'languages.md')).length;
    expect([languages('python'), languages('java')]).toEqual([2, 2]);
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')).toContain('](docs/languages.md)');
    expect(marked('fragment', 'ts', 'python').length).toBeGreaterThanOrEqual(2);
  });

  test('every TypeScript program and fragment type-checks', async () => {
    const files = [
      ...marked('program', 'ts').map((b) => writeProgram(`tsc-${slug(b)}`, b.code)),
      ...marked('fragment', 'ts').map((b) => writeProgram(`tsc-${slug(b)}`, `${TS_PRELUDE}${b.code}\napp.synth();\n`)),
    ];
    const checked = await runCommand(path.join(BIN, 'tsc'), ['--noEmit', '-p', project], project, {});
    expect({ code: checked.code, output: checked.stdout }).toEqual({ code: 0, output: '' });
    expect(files.length).toBeGreaterThan(0);
  });

  test.each(marked('program', 'ts', 'js').map((b) => [`${where(b)} (${b.lang})`, b] as const))(
    'the program at %s runs and synthesizes',
    async (_name, block) => {
      const file = writeProgram(`${block.lang}-${slug(block)}${block.lang === 'js' ? '-js' : ''}`, block.code);
      expect(succeeded(await runProgram(file))).toEqual({ code: 0, output: '' });
      expect(fs.readdirSync(path.join(path.dirname(file), 'cdktf.out', 'stacks'))).toEqual(['iam']);
    },
  );

  test.each(marked('fragment', 'ts').map((b) => [where(b), b] as const))(
    'the fragment at %s runs inside a stack and synthesizes',
    async (_name, block) => {
      const file = writeProgram(`fragment-${slug(block)}`, `${TS_PRELUDE}${block.code}\napp.synth();\n`);
      expect(succeeded(await runProgram(file))).toEqual({ code: 0, output: '' });
    },
  );

  test('every Python program and fragment compiles, against the package jsii generates', async () => {
    const generated = path.join(project, 'generated');
    const pacmak = await runCommand(path.join(BIN, 'jsii-pacmak'), ['--code-only', '--targets', 'python', '--outdir', generated], ROOT, {});
    expect(pacmak.code).toBe(0);
    const sources = [
      ...marked('program', 'python').map((b) => [b, b.code] as const),
      ...marked('fragment', 'python').map((b) => [b, `${PY_PRELUDE}${b.code}\n`] as const),
    ].map(([block, code]) => {
      const file = path.join(project, `${slug(block).replace(/-/g, '_')}.py`);
      fs.writeFileSync(file, code);
      return file;
    });
    const compiled = await runCommand('python3', ['-m', 'py_compile', ...sources], project, {});
    expect({ code: compiled.code, output: compiled.output }).toEqual({ code: 0, output: '' });

    const checker = path.join(project, 'check_against_package.py');
    fs.writeFileSync(checker, PYTHON_CHECKER);
    const checked = await runCommand(
      'python3',
      [checker, path.join(generated, 'python', 'src', 'cdktf_google_iam'), ...sources],
      project,
      {},
    );
    expect({ code: checked.code, output: checked.output }).toEqual({ code: 0, output: 'checked\n' });
  });

  test("every Java program parses with javac's parser and imports only classes the package has", async () => {
    // Compiling needs the jsii runtime's and cdktf's jars, which come from Maven: parsing is what runs here.
    const programs = marked('program', 'java');
    expect(programs.length).toBeGreaterThanOrEqual(2);
    const { types } = JSON.parse(fs.readFileSync(path.join(ROOT, '.jsii'), 'utf8')) as { types: Record<string, unknown> };
    const sources = programs.map((block) => {
      const className = /public class (\w+)/.exec(block.code)?.[1];
      expect({ where: where(block), className }).toEqual({ where: where(block), className: expect.any(String) });
      const imported = [...block.code.matchAll(/^import io\.github\.cdktfgoogleiam\.(\w+);$/gm)].map((m) => m[1]);
      expect(imported.filter((name) => !(`cdktf-google-iam.${name}` in types))).toEqual([]);
      const dir = path.join(project, `java-${slug(block)}`);
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${className}.java`);
      fs.writeFileSync(file, block.code);
      return file;
    });
    const parsed = await runCommand('java', [path.join(ROOT, 'test', 'jsii', 'support', 'JavaParse.java'), ...sources], project, {});
    expect({ code: parsed.code, output: parsed.output.trim() }).toEqual({ code: 0, output: `parsed ${sources.length} files, 0 errors` });
  });

  test('the "Testing your stacks" block is the test that runs in this repository', () => {
    for (const block of blocks.filter((b) => b.marker?.startsWith('same-as '))) {
      const file = block.marker!.slice('same-as '.length);
      const asInRepository = fs
        .readFileSync(path.join(ROOT, file), 'utf8')
        .replace(/^\/\*\*[\s\S]*?\*\/\n/, '')
        .replace(/'(?:\.\.\/)+lib'/g, "'cdktf-google-iam'")
        .replace(/'(?:\.\.\/)+lib\/testing'/g, "'cdktf-google-iam/testing'")
        .replace(/^jest\.setTimeout\(.*\);\n/m, '');
      const squashed = (text: string) =>
        text
          .replace(/\s+/g, ' ')
          .replace(/([{[(,]) /g, '$1')
          .replace(/,?\s?([}\])])/g, '$1')
          .trim();
      expect(squashed(block.code)).toBe(squashed(asInRepository));
    }
    expect(blocks.filter((b) => b.marker?.startsWith('same-as ')).length).toBeGreaterThan(0);
  });
});

describe("the README's new app, from its text alone", () => {
  test('its npm install lines name the versions this repository builds and tests with', () => {
    const install = blocks.find((b) => b.page === 'README.md' && b.lang === 'sh' && b.code.includes('npm install -D cdktf-cli@'));
    expect(install).toBeDefined();
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
    };
    for (const name of ['cdktf-cli', 'typescript', 'ts-node']) expect(install!.code).toContain(`${name}@${pkg.devDependencies[name]}`);
    for (const name of ['cdktf', 'constructs']) expect(install!.code).toContain(`${name}@${pkg.peerDependencies[name]}`);
    expect(JSON.parse(readmeTsconfig().code).compilerOptions).toMatchObject({ module: 'commonjs', strict: true });
  });

  test('cdktf.json, tsconfig.json and the quick start as main.ts: npx cdktf deploy grants, offline; cdktf destroy revokes', async () => {
    const app = path.join(project, 'new-app');
    fs.mkdirSync(path.join(app, 'node_modules', '.bin'), { recursive: true });
    // node_modules as the README's npm install lines leave it.
    fs.symlinkSync(ROOT, path.join(app, 'node_modules', 'cdktf-google-iam'));
    for (const dependency of ['cdktf', 'constructs', 'cdktf-cli', 'typescript', 'ts-node', '@types']) {
      fs.symlinkSync(path.join(ROOT, 'node_modules', dependency), path.join(app, 'node_modules', dependency));
    }
    for (const bin of ['cdktf', 'ts-node']) fs.symlinkSync(path.join(BIN, bin), path.join(app, 'node_modules', '.bin', bin));
    const [cdktfJson] = marked('cdktf-json', 'json').filter((b) => b.page === 'README.md');
    fs.writeFileSync(path.join(app, 'cdktf.json'), cdktfJson.code);
    fs.writeFileSync(path.join(app, 'tsconfig.json'), readmeTsconfig().code);
    const quickStart = blocks.find((b) => b.page === 'README.md' && b.lang === 'ts' && b.marker === 'program')!;
    fs.writeFileSync(path.join(app, 'main.ts'), quickStart.code);
    const deployLine = blocks.find((b) => b.page === 'README.md' && b.lang === 'sh' && /npx cdktf deploy/.test(b.code))!.code.trim();
    expect(deployLine).toBe('CHECKPOINT_DISABLE=1 npx cdktf deploy --auto-approve');

    const AP = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';
    const MJ = 'projects/my-project/locations/us-central1/migrationJobs/orders-db';
    emulator.addResource(AP, { bindings: [] });
    emulator.addResource(MJ, { bindings: [] });
    const cliEnv = { ...env, ...emptyCliConfig(app), ...ownPluginCache(app), CHECKPOINT_DISABLE: '1', CI: '1' };
    const npx = 'npx';
    const deploy = await runCommand(npx, ['cdktf', 'deploy', '--auto-approve'], app, cliEnv);
    expect({ code: deploy.code, output: deploy.code === 0 ? '' : deploy.output.slice(-3000) }).toEqual({ code: 0, output: '' });
    expect(emulator.policy(AP).bindings).toEqual([
      expect.objectContaining({ role: 'roles/networksecurity.viewer', members: ['group:api-readers@example.com'] }),
    ]);
    expect(emulator.policy(MJ).bindings?.[0]?.members?.length).toBe(2);
    const destroy = await runCommand(npx, ['cdktf', 'destroy', '--auto-approve'], app, cliEnv);
    expect({ code: destroy.code, output: destroy.code === 0 ? '' : destroy.output.slice(-3000) }).toEqual({ code: 0, output: '' });
    expect([emulator.policy(AP).bindings ?? [], emulator.policy(MJ).bindings ?? []]).toEqual([[], []]);
  });
});

test.each(blocks.filter((b) => b.marker?.startsWith('excerpt-of ')).map((b) => [where(b), b] as const))(
  'the excerpt at %s is a part of the file it names',
  (_name, block) => {
    const file = fs.readFileSync(path.join(ROOT, block.marker!.slice('excerpt-of '.length)), 'utf8');
    expect(file).toContain(`\n${block.code}\n`);
  },
);

describe('emulator admin requests the docs show', () => {
  const requests = blocks.filter((b) => b.marker?.startsWith('emulator '));

  test('the docs show one', () => {
    expect(requests.length).toBeGreaterThan(0);
  });

  test.each(requests.map((b) => [where(b), b] as const))(
    '%s is accepted, and what it seeds reads back through the lookups',
    async (_name, block) => {
      const [method, route] = block.marker!.slice('emulator '.length).split(' ');
      const response = await fetch(`${emulator.url}${route}`, { method, body: block.code });
      expect([response.status, await response.text()]).toEqual([200, '{}']);
      const { job } = JSON.parse(block.code) as { job: { name: string } & Record<string, unknown> };
      const [, project, , location, , importJobId] = job.name.split('/');
      const answer = await runLookup(
        JSON.stringify(serializeReadQuery(importJobQuery({ project, location, importJobId }, undefined))),
        env,
      );
      const { gcsPayload, ...rest } = job;
      expect(answer).toEqual({ project, value: { ...rest, objectStoragePayload: gcsPayload } });
    },
  );
});

describe("the README's statements", () => {
  test('it is read in ten minutes: at most 400 lines', () => {
    expect(README.split('\n').length - 1).toBeLessThanOrEqual(400);
  });

  test('the synth error it shows is what the Granting example throws with a misspelt role', async () => {
    const shown = /^ConstructValidationError: .*$/m.exec(README)![0];
    const granting = marked('program', 'ts')[0];
    expect(granting.code).toContain("role: 'roles/networksecurity.viewer'");
    const file = writeProgram(
      'synth-error',
      granting.code.replace("role: 'roles/networksecurity.viewer'", "role: 'roles/networksecurity.viwer'"),
    );
    const result = await runProgram(file);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`\n${shown}\n    at `);
  });

  test('the published names match the packages the build makes', () => {
    const cdktf = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const cdktn = JSON.parse(fs.readFileSync(path.join(ROOT, 'dist-cdktn', 'package.json'), 'utf8'));
    const row = (label: string) => README.split('\n').find((l) => l.startsWith(`| ${label} |`))!;
    for (const pkg of [cdktf, cdktn]) {
      const { python, java, go, dotnet } = pkg.jsii.targets;
      const goPackage = pkg.name.replace(/-/g, '');
      expect(row('npm')).toContain(`\`${pkg.name}\``);
      expect(row('PyPI (module)')).toContain(`\`${python.distName}\` (\`${python.module}\`)`);
      expect(row('Maven')).toContain(`\`${java.maven.groupId}:${java.maven.artifactId}\``);
      expect(row('Go')).toContain(`\`${go.moduleName}/${goPackage}\``);
      expect(row('NuGet')).toContain(`\`${dotnet.packageId}\``);
      expect(row('emulator command')).toContain(`\`${Object.keys(pkg.bin)[0]}\``);
    }
  });

  test('the tarballs it and the docs name are the ones `npm run package` writes', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const named = [...[...PAGES.values()].join('\n').matchAll(/cdkt[fn]-google-iam-([\d.]+)\.tgz/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([version]));
  });

  test('supported versions: Node.js as CI runs it and package.json requires it, the peers, Terraform', async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const ci = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
    const row = (label: string) => README.split('\n').find((l) => l.startsWith(`| ${label} |`))!;
    expect(row('Node.js')).toContain(`\`engines\`: \`${pkg.engines.node}\``);
    expect(row('Node.js')).toContain(`CI runs the full suite on ${/^NODE_MAIN=(\S+)/m.exec(ci)![1]}`);
    expect(row('Node.js')).toContain(`and on ${/^NODE_OLDEST=(\S+)/m.exec(ci)![1]}`);
    expect(row('cdktf')).toContain(`(peer: \`${pkg.peerDependencies.constructs}\`)`);
    expect(pkg.peerDependencies.cdktf).toBe('^0.21.0');
    const cdktn = JSON.parse(fs.readFileSync(path.join(ROOT, 'dist-cdktn', 'package.json'), 'utf8'));
    const cdktnInstall = README.split('\n').find((l) => l.startsWith('npm install') && l.includes('# peer: cdktn'))!;
    expect(cdktnInstall).toContain(`peer: cdktn ${cdktn.peerDependencies.cdktn}, constructs ${cdktn.peerDependencies.constructs}`);
    const terraform = await runCommand('terraform', ['version'], ROOT, {});
    expect(row('Terraform')).toContain(`tested with ${/Terraform v(\d+\.\d+)/.exec(terraform.stdout)![1]}`);
  });

  test('docs/performance.md holds the latest bench results, word for word, and their duration', () => {
    const bench = fs.readFileSync(path.join(ROOT, 'bench', 'results', 'bench.md'), 'utf8').trimEnd();
    const performance = PAGES.get(path.join('docs', 'performance.md'))!;
    const copy = /<!-- bench: bench\/results\/bench\.md -->\n([\s\S]*?)\n<!-- \/bench -->/.exec(performance)?.[1];
    // After `npm run bench`, copy bench/results/bench.md between the markers.
    expect(copy).toBe(bench);
    const seconds = Number(/; ([\d.]+) s in all\./.exec(bench)![1]);
    expect(performance).toContain(`the latest run took ${Math.round(seconds)} s, about ${Math.round(seconds / 60)} minutes`);
    // The README leaves the figures to that page.
    expect(README).not.toMatch(/\d+ (?:ms|MiB|GiB)\b|\d× /);
  });
});

describe('links', () => {
  const links = [...PAGES].flatMap(([page, text]) =>
    [...withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1])
      .filter((target) => !/^[a-z]+:/i.test(target))
      .map((target) => [page, target] as const),
  );

  test('the pages link to each other', () => {
    expect(links.length).toBeGreaterThan(20);
  });

  test.each(links)('%s: %s resolves', (page, target) => {
    const [file, anchor] = target.split('#');
    const resolved = file === '' ? page : path.normalize(path.join(path.dirname(page), file));
    expect([resolved, fs.existsSync(path.join(ROOT, resolved))]).toEqual([resolved, true]);
    if (anchor !== undefined) {
      expect(resolved.endsWith('.md')).toBe(true);
      expect(anchorsOf(fs.readFileSync(path.join(ROOT, resolved), 'utf8'))).toContain(anchor);
    }
  });
});

/** Markdown without its fenced code blocks and inline code, where a `](…)` is no link. */
function withoutCode(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The `#anchors` GitHub gives a page's headings: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text: string): string[] {
  const seen = new Map<string, number>();
  return [...text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) => {
    const base = m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\- _]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  });
}

/**
 * Checks Python files against the generated package with `ast`: names imported
 * from it exist; keyword arguments are parameters of the class (its
 * `__init__`) or method they are passed to.
 */
const PYTHON_CHECKER = String.raw`
import ast, os, sys

package_dir, files = sys.argv[1], sys.argv[2:]
classes, methods = {}, {}
for root, _, names in os.walk(package_dir):
    for name in names:
        if not name.endswith('.py'):
            continue
        tree = ast.parse(open(os.path.join(root, name)).read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, set())  # a class of constants has no __init__
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        params = {a.arg for a in item.args.args + item.args.kwonlyargs}
                        if item.name == '__init__':
                            classes[node.name] = params
                        else:
                            methods.setdefault(item.name, set()).update(params)

problems = []
for file in files:
    tree = ast.parse(open(file).read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == 'cdktf_google_iam':
            for alias in node.names:
                if alias.name not in classes:
                    problems.append(f'{file}: cdktf_google_iam has no {alias.name}')
                imported.add(alias.name)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        keywords = {k.arg for k in node.keywords if k.arg}
        if isinstance(node.func, ast.Name) and node.func.id in imported and node.func.id in classes:
            unknown = keywords - classes[node.func.id]
            if unknown:
                problems.append(f'{file}:{node.lineno}: {node.func.id} takes no {sorted(unknown)}')
        elif isinstance(node.func, ast.Attribute) and node.func.attr in methods:
            unknown = keywords - methods[node.func.attr]
            if unknown:
                problems.append(f'{file}:{node.lineno}: {node.func.attr} takes no {sorted(unknown)}')
        elif isinstance(node.func, ast.Attribute) and node.func.attr.startswith('get_') and node.func.attr not in methods:
            problems.append(f'{file}:{node.lineno}: no method {node.func.attr} in cdktf_google_iam')
print('\n'.join(problems) if problems else 'checked')
sys.exit(1 if problems else 0)
`;
