/** Laying the provider's executables out where Terraform finds them (no cdktf, no gRPC: used at synth and by the CLI). */
export {
  providerPackage,
  providerBundle,
  packageManifest,
  providerSource,
  type ProviderPackage,
  type ProviderExecutable,
} from './provider-package';
export { installProvider, providerPackageHash, executableName, type InstallOptions, type Installation } from './install-provider';
export {
  SUPPORTED_PLATFORMS,
  REMOTE_RUN_PLATFORM,
  terraformPlatform,
  platformPackageName,
  npmPlatform,
  executableFileName,
  type Host,
} from './platforms';
export { InstallError } from './errors';
export { packageHash, hashPackageFiles, fileSha256, type PackageFile } from './package-hash';
export { lockEntry, mergeLockEntry, writeLockEntry, LOCK_FILE_NAME, type LockEntry } from './lock-file';
