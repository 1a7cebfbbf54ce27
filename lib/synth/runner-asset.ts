import { createHash } from 'crypto';
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
let digest: string | undefined;

/**
 * The asset's hash (part of its path in the configuration), over the runner's
 * files: set here rather than left to the framework, whose hash functions
 * differ (cdktf and cdktn write the same configuration this way).
 */
function runnerDigest(): string {
  if (digest === undefined) {
    const hash = createHash('sha256');
    for (const file of fs.readdirSync(RUNNER_DIR).sort())
      hash
        .update(file)
        .update('\0')
        .update(fs.readFileSync(path.join(RUNNER_DIR, file)));
    digest = hash.digest('hex').slice(0, 32).toUpperCase();
  }
  return digest;
}

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
    const asset = new TerraformAsset(stack, ASSET_ID, { path: RUNNER_DIR, type: AssetType.DIRECTORY, assetHash: runnerDigest() });
    runner = `${asset.path}/${RUNNER_ENTRY}`;
    runnerPaths.set(stack, runner);
    for (const listener of useListeners) listener(stack);
  }
  return runner;
}

const useListeners: Array<(stack: TerraformStack) => void> = [];

/** Calls `listener` with each stack that starts using the runner (a grant, a lookup). */
export function onRunnerUse(listener: (stack: TerraformStack) => void): void {
  useListeners.push(listener);
}
