import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { executableName, packageManifest, providerPackage, providerSource } from '../../../lib/install';

describe("the package's provider", () => {
  test('is cdktf-google-iam/googleiam at the package version, bundled in dist/provider', () => {
    const pkg = providerPackage();
    const root = path.join(__dirname, '..', '..', '..');
    expect(providerSource(pkg)).toBe('registry.terraform.io/cdktf-google-iam/googleiam');
    expect(pkg.version).toBe(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version);
    expect(pkg.bundlePath).toBe(path.join(root, 'dist', 'provider', 'terraform-provider-googleiam.js'));
    expect(executableName(pkg)).toBe(`terraform-provider-googleiam_v${pkg.version}`);
  });

  test('in the cdktn flavour (dist-cdktn: its own package.json beside lib/ and a copy of dist/), the same address and that package', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-flavour-'));
    try {
      fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'cdktn-google-iam', version: '0.1.0' }));
      const pkg = providerPackage(root);
      expect(providerSource(pkg)).toBe('registry.terraform.io/cdktf-google-iam/googleiam');
      expect(pkg.bundlePath).toBe(path.join(root, 'dist', 'provider', 'terraform-provider-googleiam.js'));
      expect(packageManifest(root).name).toBe('cdktn-google-iam');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
