/**
 * Bundles the stand-in google provider with esbuild, as the toy provider is
 * bundled, and installs it into a working directory as
 * `registry.terraform.io/hashicorp/google` (the implied local mirror, with its
 * lock entry), so that terraform init finds it offline.
 */
import * as path from 'path';
import { testProviderPackage } from '../bundle-test-provider';
import { installProvider, lockEntry, writeLockEntry, type ProviderPackage } from '../../../lib/install';

/** The version the stand-in is installed as (the google provider of @cdktf/provider-google 16.12). */
export const STANDIN_VERSION = '6.50.0';

/** Writes the stand-in's bundle into `dir` and returns its package. */
export function bundleGoogleStandin(dir: string): ProviderPackage {
  return testProviderPackage({ namespace: 'hashicorp', type: 'google', version: STANDIN_VERSION }, path.join(__dirname, 'main.ts'), dir);
}

/** Bundles the stand-in into `bundleDir` and installs it into the working directory `dir` for the running platform. */
export function installGoogleStandin(bundleDir: string, dir: string, platform: string): ProviderPackage {
  const pkg = bundleGoogleStandin(bundleDir);
  installProvider(dir, { layout: 'plugins', package: pkg, platforms: [platform] });
  writeLockEntry(dir, lockEntry(pkg));
  return pkg;
}
