/**
 * The `h1:` hash Terraform records in .terraform.lock.hcl for a provider
 * package: Go's dirhash.Hash1 over the unpacked package
 * (golang.org/x/mod/sumdb/dirhash), i.e. SHA-256 of the lines
 * "<sha256 hex of the file>  <path relative to the directory>\n", sorted by
 * path, in base64. It needs each file's digest only, not the file: a
 * platform's hash is known wherever its executable's SHA-256 is.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** One file of a package: its slash-separated path in the package folder, and its SHA-256 (hex). */
export interface PackageFile {
  readonly path: string;
  readonly sha256: string;
}

/** The `h1:` hash of a package folder holding exactly `files`. */
export function hashPackageFiles(files: readonly PackageFile[]): string {
  const summary = crypto.createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (file.path.includes('\n')) throw new Error(`dirhash: file name with a newline: ${JSON.stringify(file.path)}`);
    summary.update(`${file.sha256}  ${file.path}\n`);
  }
  return `h1:${summary.digest('base64')}`;
}

/** The `h1:` hash of the unpacked provider package in `dir`. */
export function packageHash(dir: string): string {
  return hashPackageFiles(filesUnder(dir).map((file) => ({ path: file, sha256: fileSha256(path.join(dir, file)) })));
}

const digests = new Map<string, string>();

/**
 * The SHA-256 (hex) of a file, remembered for as long as the file stays as it was (same inode, size and
 * modification time): a synth of many stacks lays the same 100 MiB executable out in each of them.
 */
export function fileSha256(file: string): string {
  const stat = fs.statSync(file);
  const key = `${file}\0${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  let digest = digests.get(key);
  if (digest === undefined) {
    digest = sha256OfFile(file);
    digests.set(key, digest);
  }
  return digest;
}

/** Read a chunk at a time: an executable is 100-150 MiB, more than synth otherwise holds in memory. */
function sha256OfFile(file: string): string {
  const hash = crypto.createHash('sha256');
  const chunk = Buffer.allocUnsafe(1 << 20);
  const fd = fs.openSync(file, 'r');
  try {
    for (let read: number; (read = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0;) hash.update(chunk.subarray(0, read));
  } finally {
    fs.closeSync(fd);
  }
  return hash.digest('hex');
}

/** Every regular file under `dir`, as slash-separated relative paths. */
function filesUnder(dir: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...filesUnder(dir, relative));
    else files.push(relative);
  }
  return files;
}
