/**
 * Synth lays the bundled provider out in each stack's folder that uses it:
 * Terraform's implied local mirror (terraform.d/plugins/...) and the lock
 * entry, so `terraform init` there installs it offline with no set-up and no
 * warning. Both must be the same on every machine and every synth: no
 * absolute path, the same `h1:` hash.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, GoogleIamProvider } from '../../../lib';
import { bundleFileName, launcherScript, providerPackage, providerPackageHash } from '../../../lib/install';

const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const PLUGIN_DIR = 'terraform.d/plugins/registry.terraform.io/cdktf-google-iam/googleiam/0.1.0';
const outdirs: string[] = [];

afterAll(() => {
  for (const dir of outdirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Synthesizes an app: `grants` with a grant, `own` with only a provider of its own, `plain` with nothing of the library. */
function synthApp(hclOutput = false): string {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-layout-'));
  outdirs.push(outdir);
  const app = new App({ outdir, hclOutput });
  const grants = new TerraformStack(app, 'grants');
  // cdktf's default local backend path is absolute; the test is about what the library writes.
  new LocalBackend(grants, { path: 'terraform.tfstate' });
  new AuthorizationPolicyIamMember(grants, 'Alice', {
    name: AP,
    role: 'roles/networksecurity.viewer',
    member: 'user:alice@example.com',
  });
  new GoogleIamProvider(new TerraformStack(app, 'own'), 'Mine', { project: 'p-123456' });
  new TerraformStack(app, 'plain');
  app.synth();
  return outdir;
}

/** Every file under `dir`, relative path -> SHA-256 of its content. */
function fileHashes(dir: string): Record<string, string> {
  const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return Object.fromEntries(
    files
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort()
      .map((file) => [
        file,
        createHash('sha256')
          .update(fs.readFileSync(path.join(dir, file)))
          .digest('hex'),
      ]),
  );
}

test('each stack that uses the provider gets the bundle once, a launcher for every platform and its lock entry; the others nothing', () => {
  const outdir = synthApp();
  const bundle = fs.readFileSync(providerPackage().bundlePath);
  for (const stack of ['grants', 'own']) {
    const dir = path.join(outdir, 'stacks', stack);
    expect(fs.readFileSync(path.join(dir, PLUGIN_DIR, bundleFileName(providerPackage(), bundle)))).toEqual(bundle);
    for (const platform of ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64']) {
      const executable = path.join(dir, PLUGIN_DIR, platform, 'terraform-provider-googleiam_v0.1.0');
      expect(fs.readFileSync(executable, 'utf8')).toBe(launcherScript(providerPackage(), bundle));
      expect(fs.statSync(executable).mode & 0o111).not.toBe(0);
    }
    const lock = fs.readFileSync(path.join(dir, '.terraform.lock.hcl'), 'utf8');
    expect(lock).toContain('provider "registry.terraform.io/cdktf-google-iam/googleiam" {');
    expect(lock).toContain(`"${providerPackageHash(providerPackage())}"`);
  }
  const plain = path.join(outdir, 'stacks', 'plain');
  expect(fs.readdirSync(plain)).toEqual(['cdk.tf.json']);
});

test('two synths in two folders write identical files, with no absolute path in any of them', () => {
  const [first, second] = [synthApp(), synthApp()];
  const files = fileHashes(path.join(first, 'stacks', 'grants'));
  expect(fileHashes(path.join(second, 'stacks', 'grants'))).toEqual(files);
  expect(Object.keys(files)).toEqual(expect.arrayContaining(['.terraform.lock.hcl', 'cdk.tf.json']));
  for (const file of Object.keys(files)) {
    const text = fs.readFileSync(path.join(first, 'stacks', 'grants', file), 'utf8');
    for (const absolute of [first, process.cwd(), os.homedir()]) expect(text).not.toContain(absolute);
  }
});

test('HCL output lays the provider out the same way', () => {
  const dir = path.join(synthApp(true), 'stacks', 'grants');
  expect(fs.existsSync(path.join(dir, 'cdk.tf'))).toBe(true);
  expect(fs.existsSync(path.join(dir, PLUGIN_DIR, 'linux_amd64', 'terraform-provider-googleiam_v0.1.0'))).toBe(true);
  expect(fs.existsSync(path.join(dir, '.terraform.lock.hcl'))).toBe(true);
});

test('synth on a machine the provider cannot run on (Windows) fails, naming it and the supported platforms', () => {
  const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
  Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
  try {
    expect(() => synthApp()).toThrow(
      /^This machine is windows_(amd64|arm64); the googleiam provider runs on linux_amd64, linux_arm64, darwin_amd64, darwin_arm64 only /,
    );
  } finally {
    Object.defineProperty(process, 'platform', platform);
  }
  expect(process.platform).not.toBe('win32');
});
