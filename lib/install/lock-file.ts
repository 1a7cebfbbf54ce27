/**
 * Our provider's entry in a working directory's .terraform.lock.hcl,
 * written before `terraform init` so that init finds the hash it computes
 * already there: it then prints no "Incomplete lock file information"
 * warning and leaves the file as it is. Every other provider's block is kept
 * byte for byte; blocks are sorted by address and formatted as Terraform
 * writes them (hclwrite).
 */
import * as fs from 'fs';
import * as path from 'path';
import { providerPackageHash } from './install-provider';
import { providerPackage, providerSource, type ProviderPackage } from './provider-package';
import { writeIfChanged } from './write-if-changed';

export const LOCK_FILE_NAME = '.terraform.lock.hcl';

const HEADER = '# This file is maintained automatically by "terraform init".\n# Manual edits may be lost in future updates.\n';

/** What the lock entry says. */
export interface LockEntry {
  readonly source: string;
  readonly version: string;
  /** The version constraints of `required_providers`, as Terraform records them. */
  readonly constraints: string;
  readonly hashes: readonly string[];
}

/**
 * The entry for `pkg` as installProvider lays it out: pinned to its version (the constraint the
 * `required_providers` the CLI prints uses), with the `h1:` hash of the package folder of every platform
 * it was built for (whether or not this machine has that platform's executable), so that one lock file
 * serves a team whose laptops and CI run different platforms.
 */
export function lockEntry(pkg: ProviderPackage = providerPackage()): LockEntry {
  const hashes = Object.keys(pkg.executables).map((platform) => providerPackageHash(pkg, platform));
  return { source: providerSource(pkg), version: pkg.version, constraints: pkg.version, hashes };
}

/**
 * Creates or updates `<dir>/.terraform.lock.hcl` so that it holds `entry` (default: this package's provider).
 * An existing block for the same version that already lists the hash is kept as it is.
 * @returns whether the file was written
 */
export function writeLockEntry(dir: string, entry: LockEntry = lockEntry()): boolean {
  const file = path.join(dir, LOCK_FILE_NAME);
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  return writeIfChanged(file, mergeLockEntry(current, entry));
}

/** The text of a lock file `current` (undefined: none yet) with `entry` put in. */
export function mergeLockEntry(current: string | undefined, entry: LockEntry): string {
  const blocks = current === undefined ? new Map<string, string>() : providerBlocks(current);
  const existing = blocks.get(entry.source);
  if (!existing || !holds(existing, entry)) blocks.set(entry.source, formatBlock(entry));
  const sorted = [...blocks.keys()].sort().map((source) => blocks.get(source)!);
  return `${HEADER}\n${sorted.join('\n')}`;
}

/** The file's `provider "<source>" { ... }` blocks by source, each as written (up to its closing line). */
function providerBlocks(text: string): Map<string, string> {
  const blocks = new Map<string, string>();
  const pattern = /^provider "([^"]+)" \{\n[\s\S]*?^\}\n/gm;
  for (const match of text.matchAll(pattern)) blocks.set(match[1], match[0]);
  return blocks;
}

/** Whether a block already records `entry`'s version, constraints and hashes. */
function holds(block: string, entry: LockEntry): boolean {
  const attribute = (name: string): string | undefined => new RegExp(`^  ${name}\\s*= "([^"]*)"$`, 'm').exec(block)?.[1];
  return (
    attribute('version') === entry.version &&
    attribute('constraints') === entry.constraints &&
    entry.hashes.every((hash) => block.includes(`"${hash}",`))
  );
}

/** As hclwrite formats it: `version` and `constraints` aligned, one hash a line with a trailing comma. */
function formatBlock(entry: LockEntry): string {
  const hashes = [...entry.hashes].sort().map((hash) => `    ${JSON.stringify(hash)},\n`);
  return (
    `provider ${JSON.stringify(entry.source)} {\n` +
    `  version     = ${JSON.stringify(entry.version)}\n` +
    `  constraints = ${JSON.stringify(entry.constraints)}\n` +
    `  hashes = [\n${hashes.join('')}  ]\n` +
    `}\n`
  );
}
