/**
 * The provider runs where Terraform runs with nothing else installed: the real terraform, against the
 * emulator, in an environment holding no Node.js at all (`env -i`: a PATH with terraform alone, HOME, the
 * emulator's variables), on
 * - a synthesized stack folder copied elsewhere, as HCP Terraform uploads a stack (every file real: no
 *   symlink leaves the folder), and
 * - a plain HCL configuration the package's install command laid the provider out in.
 * And where Node.js still matters, on the machine that synthesizes: synth and the npm scripts on a Node.js
 * older than the library supports say so (CDKTF_GOOGLE_IAM_OLD_NODE, else the first such `node` on PATH;
 * `.ci/run` installs one).
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { MIN_NODE_MAJOR, unsupportedNodeWarning } from '../../../lib/synth/node-version';
import { pinnedMemberGrantConfiguration } from '../../support/hcl-configurations';
import { bareEnvironment, bareTerraform, nodeCommandsIn } from '../../support/bare-environment';
import { historyOf } from '../../support/write-history';

jest.setTimeout(180_000);

const ROOT = path.join(__dirname, '..', '..', '..');
const NAME = 'projects/p-123456/locations/global/authorizationPolicies/no-node';
const ROLE = 'roles/networksecurity.viewer';

let emulator: GoogleApiEmulator;
let work: string;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(NAME, { bindings: [] });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-no-node-'));
});
afterAll(async () => {
  await emulator.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Every path under `dir` that is a symlink. */
function symlinksUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((p) => fs.lstatSync(path.join(dir, p)).isSymbolicLink());
}

/** init, apply, a clean plan, destroy; each checked in the emulator's write history. */
async function deployWithoutNode(dir: string, member: string): Promise<void> {
  const env = bareEnvironment(work, { TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...emulator.env() });
  expect(nodeCommandsIn(env)).toEqual([]);
  const terraform = (where: string, under: Record<string, string>, [command, ...args]: string[]) =>
    bareTerraform(where, under, [command, '-no-color', ...args]);

  const init = await terraform(dir, env, ['init', '-input=false']);
  expect(init.code).toBe(0);
  expect(init.output).toContain('Installing cdktf-google-iam/googleiam v');
  expect(init.output).not.toContain('Warning');
  const before = emulator.writes(NAME).length;
  const apply = await terraform(dir, env, ['apply', '-auto-approve', '-input=false']);
  expect(apply.output).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
  expect(historyOf(emulator, NAME, ROLE).slice(before)).toEqual([[member]]);
  const plan = await terraform(dir, env, ['plan', '-input=false', '-detailed-exitcode']);
  expect(plan.output).toContain('No changes.');
  expect(plan.code).toBe(0);
  const destroy = await terraform(dir, env, ['destroy', '-auto-approve', '-input=false']);
  expect(destroy.output).toContain('Destroy complete! Resources: 1 destroyed.');
  expect(historyOf(emulator, NAME, ROLE).slice(before)).toEqual([[member], []]);
}

test('a synthesized stack folder, copied elsewhere as HCP Terraform uploads it, deploys with no Node.js around', async () => {
  const outdir = path.join(work, 'cdktf.out');
  const app = new App({ outdir });
  new AuthorizationPolicyIamMember(new TerraformStack(app, 'grants'), 'Uploaded', {
    name: NAME,
    role: ROLE,
    member: 'user:uploaded@example.com',
  });
  app.synth();
  const uploaded = path.join(work, 'uploaded');
  fs.cpSync(path.join(outdir, 'stacks', 'grants'), uploaded, { recursive: true });
  expect(symlinksUnder(uploaded)).toEqual([]);
  await deployWithoutNode(uploaded, 'user:uploaded@example.com');
});

test('a plain HCL configuration the install command laid the provider out in deploys with no Node.js around', async () => {
  const dir = path.join(work, 'hcl');
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, 'main.tf'),
    pinnedMemberGrantConfiguration('hcl', { name: NAME, role: ROLE, member: 'user:hcl@example.com' }),
  );
  execFileSync(process.execPath, [path.join(ROOT, 'lib', 'install', 'cli.js'), 'install', dir], { encoding: 'utf8' });
  expect(symlinksUnder(dir)).toEqual([]);
  await deployWithoutNode(dir, 'user:hcl@example.com');
});

test('synth on a Node.js older than 22 warns in the stack', () => {
  const node = oldNode();
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const outdir = path.join(work, 'old-node-synth');
  const app = [
    "const { App, TerraformStack } = require('cdktf');",
    `const { AuthorizationPolicyIamMember } = require(${JSON.stringify(path.join(ROOT, 'lib'))});`,
    `const app = new App({ outdir: ${JSON.stringify(outdir)} });`,
    "new AuthorizationPolicyIamMember(new TerraformStack(app, 'grants'), 'Alice', {",
    `  name: ${JSON.stringify(NAME)}, role: ${JSON.stringify(ROLE)}, member: 'user:alice@example.com' });`,
    'app.synth();',
  ].join('\n');
  const synth = spawnSync(node, ['-e', app], { cwd: ROOT, encoding: 'utf8' });
  expect(synth.stderr).toBe('');
  expect(synth.status).toBe(0);
  const manifest = JSON.parse(fs.readFileSync(path.join(outdir, 'manifest.json'), 'utf8'));
  expect(manifest.stacks.grants.annotations).toEqual([
    expect.objectContaining({
      constructPath: 'grants',
      level: '@cdktf/warn',
      message: `cdktf-google-iam supports Node.js ${MIN_NODE_MAJOR} or newer; this synth runs on ${version} (${fs.realpathSync(node)}). Install Node.js 22 or 24 (nvm install 24, or your package manager).`,
    }),
  ]);
  // On a supported Node.js (this one), none.
  expect(unsupportedNodeWarning()).toBeUndefined();
});

test('npm run demo and npm test on a Node.js older than 22 stop at once, before building, saying why', () => {
  const old = spawnSync(oldNode(), [path.join(ROOT, 'scripts', 'check-node.js')], { encoding: 'utf8' });
  expect(old.status).toBe(1);
  expect(old.stderr).toContain(
    `cdktf-google-iam needs Node.js ${MIN_NODE_MAJOR} or newer (package.json engines: >=${MIN_NODE_MAJOR}); this is v`,
  );
  const current = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'check-node.js')], { encoding: 'utf8' });
  expect({ status: current.status, stderr: current.stderr }).toEqual({ status: 0, stderr: '' });
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  for (const name of ['demo', 'test']) expect(scripts[name]).toMatch(/^node scripts\/check-node\.js && npm run build && /);
});

/** A Node.js older than MIN_NODE_MAJOR: CDKTF_GOOGLE_IAM_OLD_NODE, else the first such `node` on PATH. */
function oldNode(): string {
  const given = process.env.CDKTF_GOOGLE_IAM_OLD_NODE;
  const onPath = (process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'node'));
  for (const node of given ? [given] : onPath) {
    if (!fs.existsSync(node)) continue;
    const major = Number(/^v(\d+)\./.exec(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[1]);
    if (major < MIN_NODE_MAJOR) return node;
  }
  throw new Error(
    `no Node.js older than ${MIN_NODE_MAJOR}: set CDKTF_GOOGLE_IAM_OLD_NODE to the path of one's node executable (.ci/run installs 18)`,
  );
}
