/**
 * A test provider (toy, stand-in google, the bench's no-op) as a ProviderPackage: its process (main.ts)
 * bundled with esbuild as the real provider's is, and, as its executable for this machine's platform, a
 * two-line sh script running the bundle on this Node.js. Test providers need no native build; the real
 * provider's executables are native (scripts/provider-executables.js).
 */
import * as fs from 'fs';
import * as path from 'path';
import { buildSync } from 'esbuild';
import { fileSha256, terraformPlatform, type ProviderPackage } from '../../lib/install';

export function bundleTestProvider(entry: string, outfile: string): void {
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    minify: true,
    loader: { '.proto': 'text' },
    logOverride: { 'impossible-typeof': 'silent' },
    outfile,
    logLevel: 'warning',
  });
}

/** The address of a test provider. */
export interface TestProviderAddress {
  readonly namespace: string;
  readonly type: string;
  readonly version: string;
}

/** Bundles `entry` into `dir` and returns the package whose executable runs it. */
export function testProviderPackage(address: TestProviderAddress, entry: string, dir: string): ProviderPackage {
  const bundle = path.join(dir, `terraform-provider-${address.type}.js`);
  bundleTestProvider(entry, bundle);
  const script = path.join(dir, `terraform-provider-${address.type}`);
  fs.writeFileSync(script, `#!/bin/sh\nexec ${shellQuote(process.execPath)} ${shellQuote(bundle)} "$@"\n`, { mode: 0o755 });
  return {
    hostname: 'registry.terraform.io',
    ...address,
    executables: { [terraformPlatform()]: { path: script, sha256: fileSha256(script) } },
  };
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
