/**
 * Lays a provider package out where `terraform init` finds it offline:
 * - layout 'plugins': `<dir>/terraform.d/plugins/<host>/<namespace>/<type>/<version>/<os>_<arch>/`,
 *   the implied local mirror of a working directory <dir> (no CLI configuration needed);
 * - layout 'mirror': `<dir>/<host>/<namespace>/<type>/<version>/<os>_<arch>/`, the unpacked
 *   layout of a `filesystem_mirror` (or `plugin_cache_dir`) at <dir>.
 * Each platform folder holds one file, the platform's native executable, named
 * `terraform-provider-<type>_v<version>` (`.exe` on Windows), as a release zip holds it: a real
 * file (HCP Terraform refuses a configuration with a symlink leaving it), hard-linked to the
 * package's copy where the file system allows, so that laying it out in many stacks costs no copy.
 */
import * as fs from 'fs';
import * as path from 'path';
import { executableDiffers, executableNotInstalled, unsupportedPlatform } from './errors';
import { fileSha256, hashPackageFiles } from './package-hash';
import { SUPPORTED_PLATFORMS, terraformPlatform, versionedExecutableName, type Host } from './platforms';
import { providerPackage, type ProviderPackage } from './provider-package';

/** How installProvider lays the provider out. */
export interface InstallOptions {
  readonly layout: 'plugins' | 'mirror';
  /** Terraform platform names (`<os>_<arch>`). @default the platform of `host` */
  readonly platforms?: readonly string[];
  /** @default providerPackage() */
  readonly package?: ProviderPackage;
  /** The machine laying it out. @default this process's */
  readonly host?: Host;
}

/** What installProvider laid out. */
export interface Installation {
  readonly package: ProviderPackage;
  /** The platform folders written, one per platform. */
  readonly packageDirs: readonly string[];
  /** The executables laid out (or already in place), one per platform folder. */
  readonly executables: readonly string[];
}

/** Lays the provider out under `dir` for each platform; a file already in place is left as it is. */
export function installProvider(dir: string, options: InstallOptions): Installation {
  const pkg = options.package ?? providerPackage();
  const platforms = [...new Set(options.platforms ?? [terraformPlatform(options.host)])];
  const root = options.layout === 'plugins' ? path.join(dir, 'terraform.d', 'plugins') : dir;
  const versionDir = path.join(root, pkg.hostname, pkg.namespace, pkg.type, pkg.version);
  // Every platform checked before anything is written: a refusal leaves no half layout behind.
  const sources = platforms.map((platform) => builtExecutable(pkg, platform));
  const packageDirs: string[] = [];
  const executables: string[] = [];
  for (const [i, platform] of platforms.entries()) {
    const source = sources[i];
    const packageDir = path.join(versionDir, platform);
    const target = path.join(packageDir, executableName(pkg, platform));
    fs.mkdirSync(packageDir, { recursive: true });
    placeFile(source, target, pkg.executables[platform].sha256);
    // Terraform hashes the whole folder: anything else in it (an earlier layout's file) would break the lock file's hash.
    for (const name of fs.readdirSync(packageDir)) {
      if (name !== path.basename(target)) fs.rmSync(path.join(packageDir, name), { recursive: true, force: true });
    }
    packageDirs.push(packageDir);
    executables.push(target);
  }
  return { package: pkg, packageDirs, executables };
}

/** The `h1:` hash of `platform`'s package folder as installProvider lays it out (from the build's SHA-256). */
export function providerPackageHash(pkg: ProviderPackage, platform: string): string {
  return hashPackageFiles([{ path: executableName(pkg, platform), sha256: pkg.executables[platform].sha256 }]);
}

/** The file name Terraform looks for in `pkg`'s package folder of `platform` (platforms.ts). */
export function executableName(pkg: ProviderPackage, platform: string): string {
  return versionedExecutableName(pkg.type, pkg.version, platform);
}

/** The path of `platform`'s executable on this machine, checked to be the one the package was built with. */
function builtExecutable(pkg: ProviderPackage, platform: string): string {
  if (!SUPPORTED_PLATFORMS.includes(platform)) throw unsupportedPlatform(platform, SUPPORTED_PLATFORMS);
  const executable = pkg.executables[platform];
  if (!executable) throw executableNotInstalled(platform, pkg.version, `this build of the package has none`);
  if (executable.path === undefined) throw executableNotInstalled(platform, pkg.version, 'its npm package is not installed');
  const actual = fileSha256(executable.path);
  if (actual !== executable.sha256) throw executableDiffers(platform, executable.path, executable.sha256, actual, pkg.version);
  return executable.path;
}

/**
 * Makes `target` the file `source` (SHA-256 `sha256`): already so (the same inode, or the same content),
 * else a hard link to it, else (another file system, or a source that is not executable) a copy; through a
 * temporary name and a rename, so a terraform running the earlier file never sees half of one.
 */
function placeFile(source: string, target: string, sha256: string): void {
  const from = fs.statSync(source);
  const to = fs.statSync(target, { throwIfNoEntry: false });
  if (to && to.dev === from.dev && to.ino === from.ino) return;
  if (to && to.size === from.size && (to.mode & 0o111) !== 0 && fileSha256(target) === sha256) return;
  const temp = `${target}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true });
  let linked = false;
  if ((from.mode & 0o777) === 0o755) {
    try {
      fs.linkSync(source, temp);
      linked = true;
    } catch {
      linked = false;
    }
  }
  if (!linked) {
    fs.copyFileSync(source, temp, fs.constants.COPYFILE_FICLONE);
    fs.chmodSync(temp, 0o755);
  }
  fs.renameSync(temp, target);
}
