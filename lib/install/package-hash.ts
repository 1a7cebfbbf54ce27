/**
 * The `h1:` hash Terraform records in .terraform.lock.hcl for a provider
 * package it installed from an unpacked directory: Go's dirhash.Hash1 over
 * the directory (golang.org/x/mod/sumdb/dirhash), i.e. SHA-256 of the lines
 * "<sha256 hex of the file>  <path relative to the directory>\n", sorted by
 * path, in base64.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** One file of a package: its slash-separated path in the package folder, and its content. */
export interface PackageFile {
  readonly path: string;
  readonly content: Buffer;
}

/** The `h1:` hash of a package folder holding exactly `files`. */
export function hashPackageFiles(files: readonly PackageFile[]): string {
  const summary = crypto.createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    if (file.path.includes('\n')) throw new Error(`dirhash: file name with a newline: ${JSON.stringify(file.path)}`);
    summary.update(`${crypto.createHash('sha256').update(file.content).digest('hex')}  ${file.path}\n`);
  }
  return `h1:${summary.digest('base64')}`;
}

/** The `h1:` hash of the unpacked provider package in `dir`. */
export function packageHash(dir: string): string {
  return hashPackageFiles(filesUnder(dir).map((file) => ({ path: file, content: fs.readFileSync(path.join(dir, file)) })));
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
