/**
 * The edit (Levenshtein) distance between two strings, by fastest-levenshtein,
 * loaded on first use. The package is a build-time dependency: the published
 * package carries a copy of it, dist/vendor/levenshtein.js (`npm run
 * bundle:vendor`), and loads that; a source checkout that has not been built
 * loads the package itself (as cel-parser.ts does for the CEL parser).
 */
type Distance = (a: string, b: string) => number;

let distance: Distance | undefined;

/* eslint-disable @typescript-eslint/no-require-imports */
function load(): Distance {
  try {
    return (require('../../dist/vendor/levenshtein.js') as { distance: Distance }).distance;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
    return (require('fastest-levenshtein') as { distance: Distance }).distance;
  }
}
/* eslint-enable @typescript-eslint/no-require-imports */

/** How many single-character insertions, deletions and substitutions turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  distance ??= load();
  return distance(a, b);
}
