/**
 * `npm run package` (its script, after the build): one folder with the npm
 * tarballs of both flavours and the generated code for Python, Java, Go and
 * .NET; each tarball installs into a fresh project (unpacked into its
 * node_modules, as npm does) and a plain JavaScript cdktf app synthesizes
 * with it; the two flavours' commands do not clash.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCommand } from '../support/terraform';

jest.setTimeout(300_000);

const ROOT = path.join(__dirname, '..', '..');
const OUT = path.join(ROOT, 'dist-packages');
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
const FLAVOURS = [
  {
    name: 'cdktf-google-iam',
    framework: 'cdktf',
    python: 'cdktf_google_iam',
    command: 'cdktf-google-iam-emulator',
    installer: 'cdktf-google-iam-provider',
  },
  {
    name: 'cdktn-google-iam',
    framework: 'cdktn',
    python: 'cdktn_google_iam',
    command: 'cdktn-google-iam-emulator',
    installer: 'cdktn-google-iam-provider',
  },
];

beforeAll(async () => {
  const packaged = await runCommand(process.execPath, [path.join(ROOT, 'scripts', 'package.js')], ROOT, {});
  expect({ code: packaged.code, stderr: packaged.code === 0 ? '' : packaged.output }).toEqual({ code: 0, stderr: '' });
});

test('one folder: both tarballs and, per flavour, the generated code of the four other languages', () => {
  expect(fs.readdirSync(OUT).sort()).toEqual([
    'cdktf-google-iam',
    `cdktf-google-iam-${VERSION}.tgz`,
    'cdktn-google-iam',
    `cdktn-google-iam-${VERSION}.tgz`,
  ]);
  for (const { name } of FLAVOURS) {
    expect(fs.readdirSync(path.join(OUT, name)).sort()).toEqual(['dotnet', 'go', 'java', 'python']);
  }
});

test.each(FLAVOURS)('$name: the generated Python byte-compiles', async ({ name, python }) => {
  const dir = path.join(OUT, name, 'python');
  const compiled = await runCommand('python3', ['-m', 'compileall', '-q', dir], ROOT, {});
  expect({ code: compiled.code, output: compiled.output }).toEqual({ code: 0, output: '' });
  expect(fs.existsSync(path.join(dir, 'src', python, '__init__.py'))).toBe(true);
});

test.each(FLAVOURS)('$name: the tarball installs and a plain JavaScript app synthesizes a grant with it', async (flavour) => {
  const project = fs.mkdtempSync(path.join(os.tmpdir(), `${flavour.name}-install-`));
  try {
    const modules = path.join(project, 'node_modules');
    fs.mkdirSync(path.join(modules, flavour.name), { recursive: true });
    const untar = await runCommand(
      'tar',
      ['-xzf', path.join(OUT, `${flavour.name}-${VERSION}.tgz`), '-C', path.join(modules, flavour.name), '--strip-components=1'],
      project,
      {},
    );
    expect(untar.code).toBe(0);
    // The peers, as the user's project has them.
    for (const peer of [flavour.framework, 'constructs']) fs.symlinkSync(path.join(ROOT, 'node_modules', peer), path.join(modules, peer));

    const manifest = JSON.parse(fs.readFileSync(path.join(modules, flavour.name, 'package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ [flavour.command]: 'lib/testing/emulator/cli.js', [flavour.installer]: 'lib/install/cli.js' });

    fs.writeFileSync(
      path.join(project, 'main.js'),
      [
        `const { App, TerraformStack } = require('${flavour.framework}');`,
        `const { AuthorizationPolicyIamMember } = require('${flavour.name}');`,
        "const app = new App({ outdir: 'out' });",
        "const stack = new TerraformStack(app, 'iam');",
        "new AuthorizationPolicyIamMember(stack, 'Readers', { name: 'projects/my-project/locations/global/authorizationPolicies/ap', role: 'roles/networksecurity.viewer', member: 'group:readers@example.com' });",
        'app.synth();',
      ].join('\n'),
    );
    const synth = await runCommand(process.execPath, ['main.js'], project, {});
    expect({ code: synth.code, output: synth.output }).toEqual({ code: 0, output: '' });
    const stackDir = path.join(project, 'out', 'stacks', 'iam');
    const json = JSON.parse(fs.readFileSync(path.join(stackDir, 'cdk.tf.json'), 'utf8'));
    expect(Object.keys(json.resource.googleiam_authorization_policy_iam_member)).toHaveLength(1);
    // The provider travels with the stack: the tarball holds it, and synth lays it out as Terraform's implied local mirror.
    const plugin = path.join(stackDir, 'terraform.d', 'plugins', 'registry.terraform.io', 'cdktf-google-iam', 'googleiam', VERSION);
    expect(fs.existsSync(path.join(plugin, 'linux_amd64', `terraform-provider-googleiam_v${VERSION}`))).toBe(true);
  } finally {
    fs.rmSync(project, { recursive: true, force: true });
  }
});
