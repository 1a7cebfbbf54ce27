import { mergeLockEntry, type LockEntry } from '../../../lib/install';

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
