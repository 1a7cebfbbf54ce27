/**
 * Our provider's entry in .terraform.lock.hcl: the `h1:` hash of every platform the package was built for, from
 * the build's digests (so one lock file serves every machine of a team), merged into a lock file as Terraform writes
 * it, every other provider's block kept byte for byte.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  installProvider,
  lockEntry,
  LOCK_FILE_NAME,
  mergeLockEntry,
  packageHash,
  providerPackage,
  providerPackageHash,
  writeLockEntry,
  type LockEntry,
  type ProviderPackage,
} from '../../../lib/install';

const HEADER = '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n';

// As terraform 1.11 writes them.
const GOOGLE = `provider "registry.terraform.io/hashicorp/google" {
  version     = "6.50.0"
  constraints = "6.50.0"
  hashes = [
    "h1:aaaa=",
    "zh:0123",
  ]
}
`;
const FIXTURE = `provider "registry.terraform.io/example/fixture" {
  version = "1.0.0"
  hashes = [
    "h1:yFlpt+c/wBymnz91s8t2ikfn6y2ONs/q4iNQ50A0JGU=",
  ]
}
`;

const ENTRY: LockEntry = {
  source: 'registry.terraform.io/cdktf-google-iam/googleiam',
  version: '0.1.0',
  constraints: '0.1.0',
  hashes: ['h1:ours='],
};
const OURS = `provider "registry.terraform.io/cdktf-google-iam/googleiam" {
  version     = "0.1.0"
  constraints = "0.1.0"
  hashes = [
    "h1:ours=",
  ]
}
`;

describe('the lock file entry', () => {
  test('a new lock file holds the header and our block', () => {
    expect(mergeLockEntry(undefined, ENTRY)).toBe(`${HEADER}\n${OURS}`);
  });

  test("other providers' blocks are kept byte for byte, sorted by address with ours", () => {
    const merged = mergeLockEntry(`${HEADER}\n${GOOGLE}\n${FIXTURE}`, ENTRY);
    expect(merged).toBe(`${HEADER}\n${OURS}\n${FIXTURE}\n${GOOGLE}`);
  });

  test('our block for another version or hash is replaced; the same one is kept', () => {
    const older = OURS.replace(/0\.1\.0/g, '0.0.9').replace('h1:ours=', 'h1:old=');
    expect(mergeLockEntry(`${HEADER}\n${older}\n${GOOGLE}`, ENTRY)).toBe(`${HEADER}\n${OURS}\n${GOOGLE}`);
    // Terraform may have added hashes for other platforms: a block that already holds ours is left alone.
    const withMore = OURS.replace('    "h1:ours=",\n', '    "h1:ours=",\n    "h1:zzzz=",\n');
    expect(mergeLockEntry(`${HEADER}\n${withMore}`, ENTRY)).toBe(`${HEADER}\n${withMore}`);
  });

  test('merging twice changes nothing', () => {
    const once = mergeLockEntry(`${HEADER}\n${GOOGLE}`, ENTRY);
    expect(mergeLockEntry(once, ENTRY)).toBe(once);
  });
});

describe("a package's lock entry", () => {
  let root: string;
  let pkg: ProviderPackage;
  const sha256 = (content: string): string => createHash('sha256').update(content).digest('hex');
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-lock-'));
    // Executables on this machine for two of the platforms only: the others' hashes come from their digests.
    const executables: Record<string, { sha256: string; path?: string }> = {};
    for (const platform of ['windows_amd64', 'linux_amd64', 'darwin_arm64', 'linux_arm64']) {
      const content = `#!/bin/sh\necho ${platform}\n`;
      executables[platform] = { sha256: sha256(content) };
      if (platform === 'linux_amd64' || platform === 'windows_amd64') {
        const file = path.join(root, 'build', platform);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, content, { mode: 0o755 });
        executables[platform] = { ...executables[platform], path: file };
      }
    }
    pkg = { hostname: 'registry.terraform.io', namespace: 'example', type: 'fixture', version: '1.2.3', executables };
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test('pins the version and lists one h1 hash for each platform the package was built for, whether on this machine or not', () => {
    const entry = lockEntry(pkg);
    expect(entry).toEqual({
      source: 'registry.terraform.io/example/fixture',
      version: '1.2.3',
      constraints: '1.2.3',
      hashes: ['windows_amd64', 'linux_amd64', 'darwin_arm64', 'linux_arm64'].map((platform) => providerPackageHash(pkg, platform)),
    });
    expect(new Set(entry.hashes).size).toBe(4);
  });

  test("each hash is the hash of the platform's folder as laid out", () => {
    const { packageDirs } = installProvider(path.join(root, 'config'), {
      layout: 'plugins',
      package: pkg,
      platforms: ['linux_amd64', 'windows_amd64'],
    });
    const entry = lockEntry(pkg);
    for (const dir of packageDirs) expect(entry.hashes).toContain(packageHash(dir));
  });

  test('written into a new lock file: the block with the hashes sorted, one a line; written again, nothing changes', () => {
    const dir = path.join(root, 'config');
    fs.mkdirSync(dir);
    expect(writeLockEntry(dir, lockEntry(pkg))).toBe(true);
    const text = fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8');
    const hashes = [...lockEntry(pkg).hashes].sort();
    expect(text).toBe(
      `${HEADER}\nprovider "registry.terraform.io/example/fixture" {\n  version     = "1.2.3"\n  constraints = "1.2.3"\n  hashes = [\n` +
        hashes.map((hash) => `    "${hash}",\n`).join('') +
        '  ]\n}\n',
    );
    expect(writeLockEntry(dir, lockEntry(pkg))).toBe(false);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE_NAME), 'utf8')).toBe(text);
  });

  test('a block listing the hashes of fewer platforms (an earlier build) is replaced', () => {
    const fewer: LockEntry = { ...lockEntry(pkg), hashes: [providerPackageHash(pkg, 'linux_amd64')] };
    const merged = mergeLockEntry(mergeLockEntry(undefined, fewer), lockEntry(pkg));
    expect(merged).toBe(mergeLockEntry(undefined, lockEntry(pkg)));
  });

  test("this package's: the hash of every platform of dist/provider/executables.json", () => {
    const real = providerPackage();
    const entry = lockEntry();
    expect(entry.source).toBe('registry.terraform.io/cdktf-google-iam/googleiam');
    expect(entry.version).toBe(real.version);
    expect(entry.hashes).toEqual(Object.keys(real.executables).map((platform) => providerPackageHash(real, platform)));
    expect(entry.hashes.length).toBeGreaterThan(0);
  });
});
