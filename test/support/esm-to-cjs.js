// A Jest transform: Jest runs CommonJS, and @marcbachmann/cel-js is an ES module. esbuild rewrites
// each of its files to CommonJS, as `npm run bundle:vendor` does for the published package, so
// lib/iam can load the package itself in a checkout that has not been built.
'use strict';
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code } = transformSync(source, { format: 'cjs', loader: 'js', target: 'node20', sourcefile: filename });
    return { code };
  },
};
