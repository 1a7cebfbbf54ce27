// Jest globalSetup of the unit tier: synthesizing a grant puts the bundled runner (dist/runner) into the
// configuration as an asset, so the synth tests need it. On a checkout that has not been built, it is
// bundled here (esbuild, about a second) instead of failing every synth test with "build the package first".
'use strict';
const { execSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');

module.exports = function bundleRunnerIfMissing() {
  if (fs.existsSync(path.join(ROOT, 'dist', 'runner', 'runner.js'))) return;
  // The runner bundle takes google-auth-library from the vendor bundle, so both are built.
  execSync('npm run --silent bundle:vendor && npm run --silent bundle:runner', { cwd: ROOT, stdio: 'inherit' });
};
