/**
 * Where the laid-out provider runs: Terraform starts it as an executable
 * file, and it is a POSIX `sh` launcher of Node.js. Windows cannot run it
 * (Terraform there looks for `terraform-provider-<type>_v<version>.exe`, a
 * native program), so laying it out on an unsupported machine fails at once,
 * naming the machine and the supported platforms, instead of `terraform init`
 * failing later with a registry lookup.
 */
import { unsupportedPlatform } from './errors';

/** Terraform's `<os>_<arch>` names of the platforms the provider is laid out for and tested on. */
export const SUPPORTED_PLATFORMS: readonly string[] = ['linux_amd64', 'linux_arm64', 'darwin_amd64', 'darwin_arm64'];

/** A machine, as Node.js names it (`process.platform`, `process.arch`). */
export interface Host {
  readonly platform: string;
  readonly arch: string;
}

const GO_OS: Readonly<Record<string, string>> = { win32: 'windows', sunos: 'solaris' };
const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386' };

/** Terraform's name (Go's GOOS_GOARCH) of a machine: `linux_amd64`, `windows_amd64`, … */
export function terraformPlatform(host: Host = process): string {
  return `${GO_OS[host.platform] ?? host.platform}_${GO_ARCH[host.arch] ?? host.arch}`;
}

/** Throws when `host` (default: this machine) is not one of SUPPORTED_PLATFORMS. */
export function checkHostPlatform(host: Host = process): void {
  const platform = terraformPlatform(host);
  if (!SUPPORTED_PLATFORMS.includes(platform)) throw unsupportedPlatform(platform, SUPPORTED_PLATFORMS);
}
