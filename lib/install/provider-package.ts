/**
 * Facts about the provider this package ships: its address, its version
 * (the package's own) and the bundle that is the provider executable. The
 * same relative layout holds in both flavours (cdktf-google-iam, and the
 * cdktn one that scripts/build-cdktn.js builds with a copy of dist/):
 * lib/install/ and dist/provider/ under the package root.
 */
import * as fs from 'fs';
import * as path from 'path';

/** A provider package to lay out for Terraform. */
export interface ProviderPackage {
  /** The registry host of its address: `registry.terraform.io`. */
  readonly hostname: string;
  readonly namespace: string;
  /** The provider type, also the local name in `required_providers`. */
  readonly type: string;
  readonly version: string;
  /** The provider's code: one Node.js script (no `#!` line), which the laid-out launcher runs. */
  readonly bundlePath: string;
}

/** `hostname/namespace/type`, as in `required_providers` and the lock file. */
export function providerSource(pkg: ProviderPackage): string {
  return `${pkg.hostname}/${pkg.namespace}/${pkg.type}`;
}

/** This package's provider: `registry.terraform.io/cdktf-google-iam/googleiam` at the package's version. */
export function providerPackage(packageRoot: string = PACKAGE_ROOT): ProviderPackage {
  return {
    hostname: 'registry.terraform.io',
    namespace: 'cdktf-google-iam',
    type: 'googleiam',
    version: packageManifest(packageRoot).version,
    bundlePath: path.join(packageRoot, 'dist', 'provider', 'terraform-provider-googleiam.js'),
  };
}

/** The name and version of the package this file is in (`cdktf-google-iam`, or `cdktn-google-iam` in the cdktn flavour). */
export function packageManifest(packageRoot: string = PACKAGE_ROOT): { readonly name: string; readonly version: string } {
  return JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { name: string; version: string };
}

/** This file is lib/install/provider-package.{ts,js}: the package root is two levels up. */
const PACKAGE_ROOT = path.join(__dirname, '..', '..');
