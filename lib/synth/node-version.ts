/** The oldest Node.js major the library runs on: package.json's engines.node and the bundles' esbuild target. */
export const MIN_NODE_MAJOR = 22;

/**
 * What synth says of the Node.js it runs on when it is older than the
 * library supports (package.json `engines`): synth itself and the Direct-form
 * lookups run on it. (The provider laid out for Terraform is a native
 * executable and needs no Node.js.) Undefined on a supported one.
 */
export function unsupportedNodeWarning(version: string = process.versions.node, execPath: string = process.execPath): string | undefined {
  const major = Number(version.split('.')[0]);
  if (!(major < MIN_NODE_MAJOR)) return undefined;
  return (
    `cdktf-google-iam supports Node.js ${MIN_NODE_MAJOR} or newer; this synth runs on v${version} (${execPath}). ` +
    'Install Node.js 22 or 24 (nvm install 24, or your package manager).'
  );
}
