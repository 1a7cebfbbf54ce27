/** The errors of laying the provider out (synth and the installer command), worded here. */

/** An error the installer command prints as it is (no stack trace): the user can act on its message. */
export class InstallError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'InstallError';
  }
}

/** The package was not built: dist/provider holds no bundle. */
export function bundleMissing(bundlePath: string): InstallError {
  return new InstallError(`The provider bundle ${bundlePath} is missing: run \`npm run bundle:provider\` (part of \`npm run build\`).`);
}

/** Laying the provider out on a machine that cannot run it (Windows, or a platform it is not laid out for). */
export function unsupportedPlatform(platform: string, supported: readonly string[]): InstallError {
  return new InstallError(
    `This machine is ${platform}; the googleiam provider runs on ${supported.join(', ')} only ` +
      `(Terraform starts it as a POSIX sh script that runs Node.js). On Windows, run cdktf and terraform in WSL.`,
  );
}
