/**
 * Lays a provider package out where `terraform init` finds it offline:
 * - layout 'plugins': `<dir>/terraform.d/plugins/<host>/<namespace>/<type>/<version>/<os>_<arch>/`,
 *   the implied local mirror of a working directory <dir> (no CLI configuration needed);
 * - layout 'mirror': `<dir>/<host>/<namespace>/<type>/<version>/<os>_<arch>/`, the unpacked
 *   layout of a `filesystem_mirror` (or `plugin_cache_dir`) at <dir>.
 * Each platform folder holds one small file, the launcher (launcher.ts), named
 * `terraform-provider-<type>_v<version>`; the bundle it runs is written once, in the version
 * folder, where Terraform's search of a mirror ignores files. Only the platform folder is hashed
 * (`h1:`) and installed by init, which links it into .terraform/providers; the launcher finds the
 * bundle through that link.
 */
import * as fs from 'fs';
import * as path from 'path';
import { bundleMissing } from './errors';
import { bundleFileName, isBundleFileName, launcherScript } from './launcher';
import { hashPackageFiles } from './package-hash';
import { checkHostPlatform, SUPPORTED_PLATFORMS, type Host } from './platforms';
import { providerPackage, type ProviderPackage } from './provider-package';
import { writeIfChanged } from './write-if-changed';

/** How installProvider lays the provider out. */
export interface InstallOptions {
  readonly layout: 'plugins' | 'mirror';
  /** Terraform platform names (`<os>_<arch>`). @default SUPPORTED_PLATFORMS */
  readonly platforms?: readonly string[];
  /** @default providerPackage() */
  readonly package?: ProviderPackage;
  /** The machine laying it out, which must be a supported platform. @default this process's */
  readonly host?: Host;
}

/** What installProvider laid out. */
export interface Installation {
  readonly package: ProviderPackage;
  /** The platform folders written, one per platform. */
  readonly packageDirs: readonly string[];
  /** The executables written (or already up to date): the launcher in each platform folder. */
  readonly executables: readonly string[];
  /** The bundle the launchers run, once in the version folder. */
  readonly bundle: string;
  /** The `h1:` hash of each platform folder (they hold the same launcher, so it is one hash). */
  readonly hash: string;
}

/** Lays the provider out under `dir`; rewrites only files whose content changed, and removes earlier bundles. */
export function installProvider(dir: string, options: InstallOptions): Installation {
  checkHostPlatform(options.host);
  const pkg = options.package ?? providerPackage();
  const { bundle, bundleName, launcher } = packageFiles(pkg);
  const root = options.layout === 'plugins' ? path.join(dir, 'terraform.d', 'plugins') : dir;
  const versionDir = path.join(root, pkg.hostname, pkg.namespace, pkg.type, pkg.version);
  fs.mkdirSync(versionDir, { recursive: true });
  const bundleFile = path.join(versionDir, bundleName);
  writeIfChanged(bundleFile, bundle);
  for (const name of fs.readdirSync(versionDir)) {
    if (name !== bundleName && isBundleFileName(pkg, name)) fs.rmSync(path.join(versionDir, name), { force: true });
  }
  const packageDirs: string[] = [];
  const executables: string[] = [];
  for (const platform of options.platforms ?? SUPPORTED_PLATFORMS) {
    const packageDir = path.join(versionDir, platform);
    fs.mkdirSync(packageDir, { recursive: true });
    const executable = path.join(packageDir, executableName(pkg));
    writeIfChanged(executable, launcher, 0o755);
    packageDirs.push(packageDir);
    executables.push(executable);
  }
  return { package: pkg, packageDirs, executables, bundle: bundleFile, hash: launcherHash(pkg, launcher) };
}

/** The `h1:` hash of each package folder installProvider writes for `pkg` (one file: the launcher). */
export function providerPackageHash(pkg: ProviderPackage): string {
  return launcherHash(pkg, packageFiles(pkg).launcher);
}

function launcherHash(pkg: ProviderPackage, launcher: string): string {
  return hashPackageFiles([{ path: executableName(pkg), content: Buffer.from(launcher) }]);
}

/** The bundle, its file name and the launcher that runs it. */
function packageFiles(pkg: ProviderPackage): { bundle: Buffer; bundleName: string; launcher: string } {
  if (!fs.existsSync(pkg.bundlePath)) throw bundleMissing(pkg.bundlePath);
  const bundle = fs.readFileSync(pkg.bundlePath);
  return { bundle, bundleName: bundleFileName(pkg, bundle), launcher: launcherScript(pkg, bundle) };
}

/** The file name Terraform looks for in a package folder. */
export function executableName(pkg: ProviderPackage): string {
  return `terraform-provider-${pkg.type}_v${pkg.version}`;
}
