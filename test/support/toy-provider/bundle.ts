/**
 * Bundles the toy provider with esbuild as `npm run bundle:provider` bundles
 * the real one, and describes it as a ProviderPackage for installProvider.
 */
import * as path from 'path';
import { testProviderPackage } from '../bundle-test-provider';
import type { ProviderPackage } from '../../../lib/install';

export const TOY_SOURCE = 'registry.terraform.io/cdktf-google-iam-test/toy';

/** Writes the toy provider's bundle into `dir` and returns its package. */
export function bundleToyProvider(dir: string): ProviderPackage {
  return testProviderPackage({ namespace: 'cdktf-google-iam-test', type: 'toy', version: '0.0.1' }, path.join(__dirname, 'main.ts'), dir);
}
