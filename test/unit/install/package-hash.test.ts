/**
 * The `h1:` hash Terraform records in .terraform.lock.hcl (Go's dirhash.Hash1): from the files' digests alone, and
 * from a folder; and fileSha256, the digest of a file read a chunk at a time, remembered while the file stays as it
 * was (same inode, size and modification time).
 */
import { createHash, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fileSha256, hashPackageFiles, packageHash } from '../../../lib/install';

const sha256 = (content: string | Buffer): string => createHash('sha256').update(content).digest('hex');

// The package folder and the hash `terraform init` (1.11.4) recorded for it in .terraform.lock.hcl, installed
// from terraform.d/plugins/registry.terraform.io/example/fixture/1.0.0/linux_amd64/ holding these two files.
const FIXTURE_CONTENT: Record<string, string> = {
  'terraform-provider-fixture_v1.0.0': '#!/bin/sh\necho fixture provider\n',
  'docs/README.md': 'readme\n',
};
const FIXTURE_FILES = Object.entries(FIXTURE_CONTENT).map(([file, content]) => ({ path: file, sha256: sha256(content) }));
const TERRAFORM_HASH = 'h1:yFlpt+c/wBymnz91s8t2ikfn6y2ONs/q4iNQ50A0JGU=';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-hash-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the h1 hash of a provider package (Go dirhash Hash1)', () => {
  test("is the hash terraform init records, from the files' digests, in any order", () => {
    expect(hashPackageFiles(FIXTURE_FILES)).toBe(TERRAFORM_HASH);
    expect(hashPackageFiles([...FIXTURE_FILES].reverse())).toBe(TERRAFORM_HASH);
  });

  test('is SHA-256 of the "<digest>  <path>" lines sorted by path (byte order), in base64', () => {
    const files = [
      { path: 'b', sha256: sha256('b') },
      { path: 'a/z', sha256: sha256('a/z') },
      { path: 'B', sha256: sha256('B') },
    ];
    const lines = [files[2], files[1], files[0]].map((file) => `${file.sha256}  ${file.path}\n`).join('');
    expect(hashPackageFiles(files)).toBe(`h1:${createHash('sha256').update(lines).digest('base64')}`);
  });

  test('is the hash terraform init records, from the folder (subfolders as slash-separated paths)', () => {
    for (const [file, content] of Object.entries(FIXTURE_CONTENT)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), content);
    }
    expect(packageHash(dir)).toBe(TERRAFORM_HASH);
  });

  test('changes with a file content, a file name, and a file more', () => {
    const [executable, readme] = FIXTURE_FILES;
    expect(hashPackageFiles([{ ...executable, sha256: sha256('other') }, readme])).not.toBe(TERRAFORM_HASH);
    expect(hashPackageFiles([{ ...executable, path: 'terraform-provider-fixture_v1.0.1' }, readme])).not.toBe(TERRAFORM_HASH);
    expect(hashPackageFiles([executable])).not.toBe(hashPackageFiles([executable, readme]));
  });

  test('a file name with a newline is refused (it would forge a line)', () => {
    expect(() => hashPackageFiles([{ path: 'a\nb', sha256: sha256('') }])).toThrow('dirhash: file name with a newline: "a\\nb"');
  });
});

describe('fileSha256', () => {
  test('is the SHA-256 of the content, hex, for an empty file and one of several 1 MiB chunks', () => {
    const empty = path.join(dir, 'empty');
    fs.writeFileSync(empty, '');
    expect(fileSha256(empty)).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    const content = randomBytes(3 * (1 << 20) + 17);
    const large = path.join(dir, 'large');
    fs.writeFileSync(large, content);
    expect(fileSha256(large)).toBe(sha256(content));
  });

  test('is remembered while inode, size and modification time stay: a file changed in any of them gets its new digest', () => {
    const file = path.join(dir, 'executable');
    const when = new Date('2026-01-02T03:04:05.000Z');
    fs.writeFileSync(file, 'first\n');
    fs.utimesSync(file, when, when);
    expect(fileSha256(file)).toBe(sha256('first\n'));

    // The same size and times, in place: not read again (which is why it is fast on a 100 MiB executable).
    fs.writeFileSync(file, 'other\n');
    fs.utimesSync(file, when, when);
    expect(fileSha256(file)).toBe(sha256('first\n'));

    // A new modification time.
    fs.utimesSync(file, when, new Date(when.getTime() + 1000));
    expect(fileSha256(file)).toBe(sha256('other\n'));

    // A new size, at the same time.
    fs.writeFileSync(file, 'longer\n');
    fs.utimesSync(file, when, when);
    expect(fileSha256(file)).toBe(sha256('longer\n'));

    // Another file of the same size and times renamed over it (a new inode).
    const replacement = path.join(dir, 'replacement');
    fs.writeFileSync(replacement, 'again!\n');
    fs.utimesSync(replacement, when, when);
    fs.renameSync(replacement, file);
    expect(fileSha256(file)).toBe(sha256('again!\n'));
  });

  test("a file's digest does not stand for another file's (the path is part of what is remembered)", () => {
    const when = new Date('2026-01-02T03:04:05.000Z');
    const [a, b] = [path.join(dir, 'a'), path.join(dir, 'b')];
    fs.writeFileSync(a, 'aaa\n');
    fs.writeFileSync(b, 'bbb\n');
    for (const file of [a, b]) fs.utimesSync(file, when, when);
    expect([fileSha256(a), fileSha256(b)]).toEqual([sha256('aaa\n'), sha256('bbb\n')]);
  });

  test('a missing file throws ENOENT', () => {
    expect(() => fileSha256(path.join(dir, 'missing'))).toThrow(/ENOENT/);
  });
});
