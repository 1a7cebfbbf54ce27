/**
 * Lays a provider package out where `terraform init` finds it offline:
 * - layout 'plugins': `<dir>/terraform.d/plugins/<host>/<namespace>/<type>/<version>/<os>_<arch>/`,
 *   the implied local mirror of a working directory <dir> (no CLI configuration needed);
 * - layout 'mirror': `<dir>/<host>/<namespace>/<type>/<version>/<os>_<arch>/`, the unpacked
 *   layout of a `filesystem_mirror` (or `plugin_cache_dir`) at <dir>.
 * Each platform folder holds one file, the bundle itself (a `#!/usr/bin/env node` script),
 * named `terraform-provider-<type>_v<version>`: no absolute path anywhere, so its `h1:` hash
 * is the same on every machine.
 */
import * as fs from 'fs';
import * as path from 'path';
import { hashPackageFiles } from './package-hash';
import { providerPackage, type ProviderPackage } from './provider-package';
import { writeIfChanged } from './write-if-changed';

/** The platforms laid out by default: where Node.js and a POSIX `env` run the bundle. */
export const DEFAULT_PLATFORMS: readonly string[] = ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64'];

/** How installProvider lays the provider out. */
export interface InstallOptions {
  readonly layout: 'plugins' | 'mirror';
  /** Terraform platform names (`<os>_<arch>`). @default DEFAULT_PLATFORMS */
  readonly platforms?: readonly string[];
  /** @default providerPackage() */
  readonly package?: ProviderPackage;
}

/** What installProvider laid out. */
export interface Installation {
  readonly package: ProviderPackage;
  /** The platform folders written, one per platform. */
  readonly packageDirs: readonly string[];
  /** The executables written (or already up to date). */
  readonly executables: readonly string[];
  /** The `h1:` hash of each platform folder (they hold the same file, so it is one hash). */
  readonly hash: string;
}

/** Lays the provider out under `dir`; rewrites only files whose content changed. */
export function installProvider(dir: string, options: InstallOptions): Installation {
  const pkg = options.package ?? providerPackage();
  const bundle = readBundle(pkg);
  const root = options.layout === 'plugins' ? path.join(dir, 'terraform.d', 'plugins') : dir;
  const versionDir = path.join(root, pkg.hostname, pkg.namespace, pkg.type, pkg.version);
  const packageDirs: string[] = [];
  const executables: string[] = [];
  for (const platform of options.platforms ?? DEFAULT_PLATFORMS) {
    const packageDir = path.join(versionDir, platform);
    fs.mkdirSync(packageDir, { recursive: true });
    const executable = path.join(packageDir, executableName(pkg));
    writeIfChanged(executable, bundle, 0o755);
    packageDirs.push(packageDir);
    executables.push(executable);
  }
  return { package: pkg, packageDirs, executables, hash: providerPackageHash(pkg, bundle) };
}

/** The `h1:` hash of each package folder installProvider writes for `pkg` (one file: the bundle). */
export function providerPackageHash(pkg: ProviderPackage, bundle: Buffer = readBundle(pkg)): string {
  return hashPackageFiles([{ path: executableName(pkg), content: bundle }]);
}

function readBundle(pkg: ProviderPackage): Buffer {
  if (!fs.existsSync(pkg.bundlePath)) {
    throw new Error(`The provider bundle ${pkg.bundlePath} is missing: run \`npm run bundle:provider\` (part of \`npm run build\`).`);
  }
  return fs.readFileSync(pkg.bundlePath);
}

/** The file name Terraform looks for in a package folder. */
export function executableName(pkg: ProviderPackage): string {
  return `terraform-provider-${pkg.type}_v${pkg.version}`;
}
