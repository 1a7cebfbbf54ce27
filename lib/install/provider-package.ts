/**
 * Facts about the provider this package ships: its address, its version
 * (the package's own) and its native executables. The build records each
 * platform's executable in dist/provider/executables.json (its SHA-256, from
 * which the lock file's hash of the platform is made); the executables
 * themselves come from this machine's build (dist/provider/native/, `npm run
 * build`) or, in an installed package, from the per-platform npm packages
 * (platforms.ts). The same relative layout holds in both flavours
 * (cdktf-google-iam, and the cdktn one scripts/build-cdktn.js builds).
 */
import * as fs from 'fs';
import * as path from 'path';
import { executablesManifestMissing } from './errors';
import { executableFileName, platformPackageName } from './platforms';

/** A provider package to lay out for Terraform. */
export interface ProviderPackage {
  /** The registry host of its address: `registry.terraform.io`. */
  readonly hostname: string;
  readonly namespace: string;
  /** The provider type, also the local name in `required_providers`. */
  readonly type: string;
  readonly version: string;
  /** Its executable for each platform it was built for, by Terraform's platform name (`linux_amd64`). */
  readonly executables: Readonly<Record<string, ProviderExecutable>>;
}

/** One platform's executable. */
export interface ProviderExecutable {
  /** Its SHA-256, hex, as built: the lock file's hash of the platform is made from it. */
  readonly sha256: string;
  /** Where it is on this machine; undefined when neither this build nor an installed package has it. */
  readonly path?: string;
}

/** `hostname/namespace/type`, as in `required_providers` and the lock file. */
export function providerSource(pkg: ProviderPackage): string {
  return `${pkg.hostname}/${pkg.namespace}/${pkg.type}`;
}

/** What the build writes in dist/provider/executables.json (scripts/provider-executables.js). */
interface ExecutablesManifest {
  readonly platforms: Readonly<Record<string, { readonly sha256: string }>>;
}

/** This package's provider: `registry.terraform.io/cdktf-google-iam/googleiam` at the package's version. */
export function providerPackage(packageRoot: string = PACKAGE_ROOT): ProviderPackage {
  const type = 'googleiam';
  const manifestFile = path.join(packageRoot, 'dist', 'provider', 'executables.json');
  if (!fs.existsSync(manifestFile)) throw executablesManifestMissing(manifestFile);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as ExecutablesManifest;
  const executables: Record<string, ProviderExecutable> = {};
  for (const [platform, { sha256 }] of Object.entries(manifest.platforms)) {
    executables[platform] = { sha256, path: locateExecutable(packageRoot, type, platform) };
  }
  return {
    hostname: 'registry.terraform.io',
    namespace: 'cdktf-google-iam',
    type,
    version: packageManifest(packageRoot).version,
    executables,
  };
}

/**
 * This build's executable of `platform`, else the one of its npm package installed beside this package (npm
 * installs the optional dependency) or in the working directory's project (the jsii runtimes of Python, Java,
 * Go and .NET install this package alone, in a folder of their own: their users install the platform's
 * package with npm where they run synth), else undefined.
 */
function locateExecutable(packageRoot: string, type: string, platform: string): string | undefined {
  const fileName = executableFileName(type, platform);
  const built = path.join(packageRoot, 'dist', 'provider', 'native', platform, fileName);
  if (fs.existsSync(built)) return built;
  try {
    const manifest = require.resolve(`${platformPackageName(platform)}/package.json`, { paths: [packageRoot, process.cwd()] });
    const installed = path.join(path.dirname(manifest), 'bin', fileName);
    return fs.existsSync(installed) ? installed : undefined;
  } catch {
    return undefined;
  }
}

/** The provider bundle, the program inside every executable: synth runs it with its own Node.js for the Direct-form lookups. */
export function providerBundle(packageRoot: string = PACKAGE_ROOT): string {
  return path.join(packageRoot, 'dist', 'provider', 'terraform-provider-googleiam.js');
}

/** The name and version of the package this file is in (`cdktf-google-iam`, or `cdktn-google-iam` in the cdktn flavour). */
export function packageManifest(packageRoot: string = PACKAGE_ROOT): { readonly name: string; readonly version: string } {
  return JSON.parse(fs.readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { name: string; version: string };
}

/** This file is lib/install/provider-package.{ts,js}: the package root is two levels up. */
const PACKAGE_ROOT = path.join(__dirname, '..', '..');
