/**
 * Bundles the toy provider with esbuild as `npm run bundle:provider` bundles
 * the real one, and describes it as a ProviderPackage for installProvider.
 */
import * as path from 'path';
import { bundleTestProvider } from '../bundle-test-provider';
import type { ProviderPackage } from '../../../lib/install';

export const TOY_SOURCE = 'registry.terraform.io/cdktf-google-iam-test/toy';

/** Writes the toy provider's bundle into `dir` and returns its package. */
export function bundleToyProvider(dir: string): ProviderPackage {
  const outfile = path.join(dir, 'terraform-provider-toy.js');
  bundleTestProvider(path.join(__dirname, 'main.ts'), outfile);
  return { hostname: 'registry.terraform.io', namespace: 'cdktf-google-iam-test', type: 'toy', version: '0.0.1', bundlePath: outfile };
}
