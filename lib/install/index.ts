/** Laying the bundled provider out where Terraform finds it (no cdktf, no gRPC: used at synth and by the CLI). */
export { providerPackage, packageManifest, providerSource, type ProviderPackage } from './provider-package';
export { installProvider, providerPackageHash, executableName, type InstallOptions, type Installation } from './install-provider';
export { SUPPORTED_PLATFORMS, terraformPlatform, checkHostPlatform, type Host } from './platforms';
export { MIN_NODE_MAJOR, NODE_FLAGS, launcherScript, bundleFileName } from './launcher';
export { InstallError } from './errors';
export { packageHash, hashPackageFiles, type PackageFile } from './package-hash';
export { lockEntry, mergeLockEntry, writeLockEntry, LOCK_FILE_NAME, type LockEntry } from './lock-file';
