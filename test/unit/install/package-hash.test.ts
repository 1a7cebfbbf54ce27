import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { hashPackageFiles, packageHash } from '../../../lib/install';

// The package folder and the hash `terraform init` (1.11.4) recorded for it in .terraform.lock.hcl, installed
// from terraform.d/plugins/registry.terraform.io/example/fixture/1.0.0/linux_amd64/ holding these two files.
const FIXTURE_FILES = [
  { path: 'terraform-provider-fixture_v1.0.0', content: Buffer.from('#!/bin/sh\necho fixture provider\n') },
  { path: 'docs/README.md', content: Buffer.from('readme\n') },
];
const TERRAFORM_HASH = 'h1:yFlpt+c/wBymnz91s8t2ikfn6y2ONs/q4iNQ50A0JGU=';

describe('the h1 hash of a provider package (Go dirhash Hash1)', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-hash-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('is the hash terraform init records, from the files', () => {
    expect(hashPackageFiles(FIXTURE_FILES)).toBe(TERRAFORM_HASH);
    expect(hashPackageFiles([...FIXTURE_FILES].reverse())).toBe(TERRAFORM_HASH);
  });

  test('is the hash terraform init records, from the folder (subfolders as slash-separated paths)', () => {
    for (const file of FIXTURE_FILES) {
      fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
      fs.writeFileSync(path.join(dir, file.path), file.content);
    }
    expect(packageHash(dir)).toBe(TERRAFORM_HASH);
  });

  test('changes with a file content and with a file name', () => {
    expect(hashPackageFiles([{ ...FIXTURE_FILES[0], content: Buffer.from('other') }, FIXTURE_FILES[1]])).not.toBe(TERRAFORM_HASH);
    expect(hashPackageFiles([{ ...FIXTURE_FILES[0], path: 'terraform-provider-fixture_v1.0.1' }, FIXTURE_FILES[1]])).not.toBe(
      TERRAFORM_HASH,
    );
  });
});
