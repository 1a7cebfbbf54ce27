/**
 * Where the laid-out provider runs, under the real terraform against the emulator: the launcher Terraform
 * starts is a POSIX sh script, so it runs where /bin/sh and /usr/bin/env are BusyBox's (Alpine: the
 * node:*-alpine images, hashicorp/terraform with nodejs added); and what goes wrong before the provider
 * starts (no Node.js on PATH, one too old to parse the bundle, the bundle gone or changed) is one line
 * that terraform itself prints.
 *
 * Needs BusyBox (Debian's `busybox` package), util-linux's `unshare` and a kernel that lets it make a mount
 * namespace (as root, or through a user namespace), and a Node.js older than 22 for the old-Node case:
 * CDKTF_GOOGLE_IAM_OLD_NODE (its `node` executable), else the first one on PATH. `.ci/run` provides all three.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { installProvider, MIN_NODE_MAJOR, NODE_FLAGS, providerPackage, terraformPlatform } from '../../../lib/install';
import { GoogleApiEmulator, TerraformCli, type CommandResult } from '../../../lib/testing';
import { unsupportedNodeWarning } from '../../../lib/synth/node-version';
import { GoogleIamWorkspace } from '../../support/googleiam-workspace';

jest.setTimeout(120_000);

const NAME = 'projects/p-123456/locations/global/authorizationPolicies/runtime';
const ROLE = 'roles/networksecurity.viewer';
const NEEDS = `The googleiam provider needs Node.js >= ${MIN_NODE_MAJOR} on the PATH of the machine that runs terraform; found:`;

let emulator: GoogleApiEmulator;
let workspace: GoogleIamWorkspace;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(NAME, { bindings: [] });
});
beforeEach(() => {
  workspace = GoogleIamWorkspace.create(emulator);
  workspace.configure({
    resource: { googleiam_authorization_policy_iam_member: { m: { name: NAME, role: ROLE, member: 'user:alpine@example.com' } } },
  });
});
afterEach(() => workspace.remove());
afterAll(() => emulator.close());

/** Where `name` is on PATH, or undefined. */
function onPath(name: string, pathVariable = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathVariable.split(path.delimiter).filter(Boolean)) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

function required(name: string, why: string): string {
  const file = onPath(name);
  if (!file) throw new Error(`${name} is not on PATH: ${why}`);
  return file;
}

/** A folder holding only `terraform` (and the given `node`), to run terraform with that folder as the whole PATH. */
function binFolder(node?: string): string {
  const bin = fs.mkdtempSync(path.join(workspace.root, 'bin-'));
  fs.symlinkSync(required('terraform', 'the tests run the real terraform'), path.join(bin, 'terraform'));
  if (node) fs.symlinkSync(node, path.join(bin, 'node'));
  return bin;
}

/** Terraform's output with its line wrapping undone (it wraps diagnostics at 78 columns). */
const unwrapped = (result: CommandResult) => result.output.replace(/\s+/g, ' ');

/** The message Terraform prints for a plugin whose first line on stdout was `line`. */
const unrecognized = (line: string) => `Unrecognized remote plugin message: ${line} This usually means`;

/** `terraform <args>` in the workspace where /bin/sh and /usr/bin/env are BusyBox (a mount namespace of its own). */
function underBusyBox(args: string[]): Promise<CommandResult> {
  const busybox = required('busybox', 'install BusyBox (apt-get install busybox; .ci/run does)');
  const script =
    'mount --bind "$BUSYBOX" /bin/sh && mount --bind "$BUSYBOX" /usr/bin/env && ' +
    '{ /bin/sh --help 2>&1 | head -n 1; /usr/bin/env --help 2>&1 | head -n 1; } >&2 && exec terraform "$@"';
  return TerraformCli.spawn(
    required('unshare', "util-linux's unshare makes the mount namespace"),
    ['--map-root-user', '--mount', '/bin/sh', '-c', script, 'sh', args[0], '-no-color', ...args.slice(1)],
    workspace.dir,
    { ...workspace.env, BUSYBOX: busybox, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' },
  );
}

test('under BusyBox sh and env (Alpine), terraform starts the provider: init, apply, a clean plan', async () => {
  const init = await underBusyBox(['init', '-input=false']);
  expect(init.stderr).toMatch(/^BusyBox v\S+ .*\nBusyBox v\S+ /);
  expect(init.code).toBe(0);
  expect(init.output).not.toContain('Warning');
  const apply = await underBusyBox(['apply', '-auto-approve', '-input=false']);
  expect(apply.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');
  expect(emulator.policy(NAME).bindings).toEqual([{ role: ROLE, members: ['user:alpine@example.com'] }]);
  const plan = await underBusyBox(['plan', '-input=false', '-detailed-exitcode']);
  expect(plan.stdout).toContain('No changes.');
  expect(plan.code).toBe(0);
});

test('with no node on PATH, terraform plan prints that the provider needs Node.js >= 22 and found none', async () => {
  await workspace.terraform(['version']); // init, with node
  const bin = binFolder();
  const before = emulator.stats();
  const plan = await workspace.terraform(['plan', '-input=false'], { PATH: bin });
  expect(plan.code).toBe(1);
  expect(unwrapped(plan)).toContain(unrecognized(`${NEEDS} none (PATH=${bin})`));
  expect(emulator.stats()).toEqual(before);
});

test('with a Node.js older than 22 on PATH, terraform plan prints the version and where it is, before the bundle is parsed', async () => {
  const node = oldNode();
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  await workspace.terraform(['version']);
  const plan = await workspace.terraform(['plan', '-input=false'], { PATH: binFolder(node) });
  expect(plan.code).toBe(1);
  expect(unwrapped(plan)).toContain(unrecognized(`${NEEDS} ${version} at ${fs.realpathSync(node)}`));
});

test('synth on a Node.js older than 22 warns in the stack (the provider it lays out would refuse that Node.js)', () => {
  const node = oldNode();
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const outdir = path.join(workspace.root, 'old-node-synth');
  const lib = path.join(__dirname, '..', '..', '..', 'lib');
  const app = [
    "const { App, TerraformStack } = require('cdktf');",
    `const { AuthorizationPolicyIamMember } = require(${JSON.stringify(lib)});`,
    `const app = new App({ outdir: ${JSON.stringify(outdir)} });`,
    "new AuthorizationPolicyIamMember(new TerraformStack(app, 'grants'), 'Alice', {",
    `  name: ${JSON.stringify(NAME)}, role: ${JSON.stringify(ROLE)}, member: 'user:alice@example.com' });`,
    'app.synth();',
  ].join('\n');
  const synth = spawnSync(node, ['-e', app], { cwd: path.join(__dirname, '..', '..', '..'), encoding: 'utf8' });
  expect(synth.stderr).toBe('');
  expect(synth.status).toBe(0);
  const manifest = JSON.parse(fs.readFileSync(path.join(outdir, 'manifest.json'), 'utf8'));
  expect(manifest.stacks.grants.annotations).toEqual([
    expect.objectContaining({
      constructPath: 'grants',
      level: '@cdktf/warn',
      message: expect.stringContaining(
        `cdktf-google-iam supports Node.js ${MIN_NODE_MAJOR} or newer; this synth runs on ${version} (${fs.realpathSync(node)})`,
      ),
    }),
  ]);
  // On a supported Node.js (this one), none.
  expect(unsupportedNodeWarning()).toBeUndefined();
});

test('npm run demo and npm test on a Node.js older than 22 stop at once, before building, saying why', () => {
  const root = path.join(__dirname, '..', '..', '..');
  const node = oldNode();
  const old = spawnSync(node, [path.join(root, 'scripts', 'check-node.js')], { encoding: 'utf8' });
  expect(old.status).toBe(1);
  expect(old.stderr).toContain(
    `cdktf-google-iam needs Node.js ${MIN_NODE_MAJOR} or newer (package.json engines: >=${MIN_NODE_MAJOR}); this is v`,
  );
  const current = spawnSync(process.execPath, [path.join(root, 'scripts', 'check-node.js')], { encoding: 'utf8' });
  expect({ status: current.status, stderr: current.stderr }).toEqual({ status: 0, stderr: '' });
  const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  for (const name of ['demo', 'test']) expect(scripts[name]).toMatch(/^node scripts\/check-node\.js && npm run build && /);
});

test('a bundle gone from beside the launcher, or changed, is named in terraform plan', async () => {
  await workspace.terraform(['version']);
  const packagePath = path.join('registry.terraform.io', 'cdktf-google-iam', 'googleiam', providerPackage().version);
  const versionDir = path.join(workspace.dir, 'terraform.d', 'plugins', packagePath);
  const [bundle] = fs.readdirSync(versionDir).filter((f) => f.endsWith('.js'));
  const bundlePath = path.join(versionDir, bundle);
  const content = fs.readFileSync(bundlePath);

  fs.appendFileSync(bundlePath, '\n// changed\n');
  const changed = await workspace.plan();
  expect(changed.code).toBe(1);
  expect(unwrapped(changed)).toContain(
    unrecognized(
      `The googleiam provider bundle differs from the one its launcher was laid out with (SHA-256): lay the provider out again: ${fs.realpathSync(bundlePath)}`,
    ),
  );

  fs.rmSync(bundlePath);
  const gone = await workspace.plan();
  expect(gone.code).toBe(1);
  expect(unwrapped(gone)).toContain(
    unrecognized(
      `The googleiam provider's bundle ${bundle} is not in the folder above ` +
        `${path.join('.terraform', 'providers', packagePath, terraformPlatform(), `terraform-provider-googleiam_v${providerPackage().version}`)}: ` +
        "lay the provider out again (synth, or the package's install command)",
    ),
  );

  fs.writeFileSync(bundlePath, content);
  expect((await workspace.plan()).code).toBe(2);
});

test.each([
  ['dash', ['dash']],
  ['bash in POSIX mode (macOS /bin/sh)', ['bash', '--posix']],
  ['BusyBox ash', ['busybox', 'sh']],
])('under %s, the launcher reached through a linked folder runs the bundle beside the folder linked to', (_name, shell) => {
  // A bundle that prints what it was started with, laid out as the real one is; started as Terraform starts
  // it, through .terraform/providers' link to the platform folder, from the working directory; with a CDPATH
  // under which the same relative path is another folder (a cd that used it would find no bundle there).
  const stub = path.join(workspace.root, 'stub.js');
  fs.writeFileSync(
    stub,
    'console.log(JSON.stringify({ argv: process.argv.slice(1), execArgv: process.execArgv.slice(0, -2), cwd: process.cwd() }));\n',
  );
  const pkg = { hostname: 'registry.terraform.io', namespace: 'example', type: 'stub', version: '1.0.0', bundlePath: stub };
  const installation = installProvider(path.join(workspace.root, 'mirror'), {
    layout: 'mirror',
    package: pkg,
    platforms: [terraformPlatform()],
  });
  const linked = path.join(workspace.dir, '.terraform', 'providers', 'example', 'stub', '1.0.0', terraformPlatform());
  fs.mkdirSync(path.dirname(linked), { recursive: true });
  fs.symlinkSync(installation.packageDirs[0], linked);
  const launcher = path.relative(workspace.dir, path.join(linked, path.basename(installation.executables[0])));
  const decoy = path.join(workspace.root, 'decoy');
  fs.mkdirSync(path.join(decoy, path.relative(workspace.dir, linked)), { recursive: true });
  const result = spawnSync(
    required(shell[0], `the test runs the launcher under ${shell[0]}`),
    [...shell.slice(1), launcher, 'lookup', '--x'],
    {
      cwd: workspace.dir,
      env: { ...process.env, CDPATH: decoy },
      encoding: 'utf8',
    },
  );
  expect(result.stderr).toBe('');
  expect(JSON.parse(result.stdout)).toEqual({
    argv: [fs.realpathSync(installation.bundle), 'lookup', '--x'],
    execArgv: [...NODE_FLAGS],
    cwd: fs.realpathSync(workspace.dir),
  });
});

/** A Node.js older than MIN_NODE_MAJOR: CDKTF_GOOGLE_IAM_OLD_NODE, else the first such `node` on PATH. */
function oldNode(): string {
  const given = process.env.CDKTF_GOOGLE_IAM_OLD_NODE;
  const candidates = given ? [given] : (process.env.PATH ?? '').split(path.delimiter).map((dir) => onPath('node', dir));
  for (const node of candidates) {
    if (!node) continue;
    const major = Number(/^v(\d+)\./.exec(spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[1]);
    if (major < MIN_NODE_MAJOR) return node;
  }
  throw new Error(
    `no Node.js older than ${MIN_NODE_MAJOR}: set CDKTF_GOOGLE_IAM_OLD_NODE to the path of one's node executable (.ci/run installs 18)`,
  );
}
