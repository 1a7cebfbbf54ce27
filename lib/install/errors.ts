/** The errors of laying the provider out (synth and the installer command), worded here. */
import { platformPackageName } from './platforms';

/** An error the installer command prints as it is (no stack trace): the user can act on its message. */
export class InstallError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'InstallError';
  }
}

/** The package was not built: dist/provider holds no record of its executables. */
export function executablesManifestMissing(file: string): InstallError {
  return new InstallError(`${file} is missing: the provider's executables were not built; run \`npm run build\`.`);
}

/** A platform was asked for that the provider has no executable for. */
export function unsupportedPlatform(platform: string, supported: readonly string[]): InstallError {
  return new InstallError(`The googleiam provider has no executable for ${platform}; it has one for ${supported.join(', ')}.`);
}

/** The platform's executable is not on this machine: its npm package was not installed (npm installs only this machine's). */
export function executableNotInstalled(platform: string, version: string, reason: string): InstallError {
  const name = platformPackageName(platform);
  return new InstallError(
    `The googleiam provider's executable for ${platform} is not on this machine (${reason}): ` +
      `install its package, ${name}@${version}, beside this package or in the folder synth runs in ` +
      `(from Python, Java, Go or .NET: \`npm install ${name}@${version}\` there; npm installs only this machine's ` +
      `platform: \`npm install --no-save --force ${name}@${version}\` adds another's).`,
  );
}

/** The executable found is not the one this package was built with (another version's package, or a changed file). */
export function executableDiffers(platform: string, file: string, expected: string, actual: string, version: string): InstallError {
  return new InstallError(
    `The googleiam provider's executable for ${platform} at ${file} is not the one this package was built with ` +
      `(SHA-256 ${actual}, expected ${expected}): install ${platformPackageName(platform)}@${version}, or run \`npm run build\` in a checkout.`,
  );
}
