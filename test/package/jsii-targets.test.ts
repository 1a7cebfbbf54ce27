/**
 * The packages as jsii publishes them (this one, and the CDK Terrain flavour
 * built into dist-cdktn/): the assembly exists, code generation works for all
 * four targets, and the generated Python byte-compiles.
 * (Full pacmak builds need registries that are not reachable here.)
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCommand } from '../support/terraform';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..');

test.each([
  ['cdktf-google-iam', ROOT, 'cdktf_google_iam'],
  ['cdktn-google-iam', path.join(ROOT, 'dist-cdktn'), 'cdktn_google_iam'],
])('%s: jsii-pacmak --code-only generates python, java, go and dotnet, and the Python compiles', async (name, packageDir, pythonModule) => {
  const assembly = JSON.parse(fs.readFileSync(path.join(packageDir, '.jsii'), 'utf8'));
  expect(Object.keys(assembly.types)).toEqual(
    expect.arrayContaining([`${name}.AuthorizationPolicyIamMember`, `${name}.MigrationJobIamBinding`]),
  );

  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-pacmak-'));
  try {
    const pacmak = await runCommand(
      path.join(ROOT, 'node_modules', '.bin', 'jsii-pacmak'),
      ['--code-only', '--targets', 'python,java,go,dotnet', '--outdir', outdir],
      packageDir,
      {},
    );
    expect(pacmak.output).not.toMatch(/error/i);
    expect(pacmak.code).toBe(0);
    for (const target of ['python', 'java', 'go', 'dotnet']) {
      expect(fs.readdirSync(path.join(outdir, target)).length).toBeGreaterThan(0);
    }
    const python = path.join(outdir, 'python');
    const compiled = await runCommand('python3', ['-m', 'compileall', '-q', python], ROOT, {});
    expect(compiled.output).toBe('');
    expect(compiled.code).toBe(0);
    const init = execFind(python, '__init__.py').find((f) => f.includes(pythonModule));
    expect(init && fs.readFileSync(init, 'utf8')).toContain('class AuthorizationPolicyIamMember');
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
});

function execFind(dir: string, name: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => path.basename(f) === name)
    .map((f) => path.join(dir, f));
}
