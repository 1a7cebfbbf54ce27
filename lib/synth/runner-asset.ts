import * as fs from 'fs';
import * as path from 'path';
import { AssetType, TerraformAsset, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';

/** The bundled runner (runner.js, and the main.js it loads), built by `npm run bundle` and shipped in the package. */
export const RUNNER_DIR = path.join(__dirname, '..', '..', 'dist', 'runner');
const RUNNER_ENTRY = 'runner.js';

const ASSET_ID = 'CdktfGoogleIamRunner';

// Every grant asks; the asset's path costs a logical-id computation per call.
const runnerPaths = new WeakMap<TerraformStack, string>();

/**
 * The runner's path as Terraform will see it (relative to the stack's
 * directory). One asset per stack, shared by all its grants.
 */
export function runnerAssetPath(scope: Construct): string {
  const stack = TerraformStack.of(scope);
  let runner = runnerPaths.get(stack);
  if (runner === undefined) {
    const entry = path.join(RUNNER_DIR, RUNNER_ENTRY);
    if (!fs.existsSync(entry)) {
      throw new Error(`cdktf-google-iam: the grant runner ${entry} is missing; build the package first (npm run build)`);
    }
    runner = `${new TerraformAsset(stack, ASSET_ID, { path: RUNNER_DIR, type: AssetType.DIRECTORY }).path}/${RUNNER_ENTRY}`;
    runnerPaths.set(stack, runner);
  }
  return runner;
}
