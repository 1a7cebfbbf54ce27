/** Bundles a test provider's process (its main.ts) with esbuild, as `npm run bundle:provider` bundles the real one. */
import { buildSync } from 'esbuild';

export function bundleTestProvider(entry: string, outfile: string): void {
  buildSync({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    minify: true,
    loader: { '.proto': 'text' },
    outfile,
    logLevel: 'warning',
  });
}
