/**
 * The platforms the provider is built for: one native executable each
 * (scripts/provider-executables.js), named as Terraform names platforms
 * (Go's GOOS_GOARCH) and shipped, as esbuild ships its binaries, in one npm
 * package per platform whose `os` and `cpu` fields let npm install only the
 * one a machine can run.
 */
/** Terraform's `<os>_<arch>` names of the platforms the provider has an executable for. */
export const SUPPORTED_PLATFORMS: readonly string[] = ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64', 'windows_amd64'];

/** The platform whose executable a stack gets when its runs are remote (HCP Terraform, Terraform Enterprise). */
export const REMOTE_RUN_PLATFORM = 'linux_amd64';

/** A machine, as Node.js names it (`process.platform`, `process.arch`). */
export interface Host {
  readonly platform: string;
  readonly arch: string;
}

const GO_OS: Readonly<Record<string, string>> = { win32: 'windows', sunos: 'solaris' };
const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386' };
const NODE_OS: Readonly<Record<string, string>> = { windows: 'win32' };
const NODE_CPU: Readonly<Record<string, string>> = { amd64: 'x64' };

/** Terraform's name (Go's GOOS_GOARCH) of a machine: `linux_amd64`, `windows_amd64`, … */
export function terraformPlatform(host: Host = process): string {
  return `${GO_OS[host.platform] ?? host.platform}_${GO_ARCH[host.arch] ?? host.arch}`;
}

/** A platform as npm's `os` and `cpu` fields name it (Node.js's `process.platform` and `process.arch`): win32, x64. */
export function npmPlatform(platform: string): { readonly os: string; readonly cpu: string } {
  const [os, arch] = platform.split('_');
  return { os: NODE_OS[os] ?? os, cpu: NODE_CPU[arch] ?? arch };
}

/** The npm package holding `platform`'s executable: `@cdktf-google-iam/provider-linux-x64`. */
export function platformPackageName(platform: string): string {
  const { os, cpu } = npmPlatform(platform);
  return `@cdktf-google-iam/provider-${os}-${cpu}`;
}

/** The executable's file name in its npm package and in a build: `terraform-provider-googleiam`, `.exe` on Windows. */
export function executableFileName(type: string, platform: string): string {
  return `terraform-provider-${type}${executableSuffix(platform)}`;
}

/**
 * The file name Terraform looks for in a package folder (and a release zip holds):
 * `terraform-provider-<type>_v<version>`, `.exe` on Windows.
 */
export function versionedExecutableName(type: string, version: string, platform: string): string {
  return `terraform-provider-${type}_v${version}${executableSuffix(platform)}`;
}

/** Windows runs only `.exe` files. */
function executableSuffix(platform: string): string {
  return platform.startsWith('windows_') ? '.exe' : '';
}
