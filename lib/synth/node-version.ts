import { MIN_NODE_MAJOR } from '../install/launcher';

/**
 * What synth says of the Node.js it runs on when it is older than the
 * library supports (package.json `engines`): the provider it lays out
 * refuses to start on such a Node.js, so `terraform plan` would stop there,
 * later and farther from the cause. Undefined on a supported one.
 */
export function unsupportedNodeWarning(version: string = process.versions.node, execPath: string = process.execPath): string | undefined {
  const major = Number(version.split('.')[0]);
  if (!(major < MIN_NODE_MAJOR)) return undefined;
  return (
    `cdktf-google-iam supports Node.js ${MIN_NODE_MAJOR} or newer; this synth runs on v${version} (${execPath}). ` +
    `The provider laid out here needs Node.js >= ${MIN_NODE_MAJOR} on the PATH of the machine that runs terraform, ` +
    'and refuses to start on an older one: terraform plan would stop there. Install Node.js 22 or 24 (nvm install 24, or your package manager).'
  );
}
