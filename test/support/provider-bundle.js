// Jest globalSetup of the unit tier: synthesizing a construct lays the provider's executable (dist/provider) out in
// the stack's folder, and the Direct-form lookups run it, so those tests need it. On a checkout that has not been
// built, it is built here instead of failing every such test with "build the package first".
'use strict';
const { execSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');

module.exports = function bundleProviderIfMissing() {
  // The bundle and this machine's native executable, which synth lays out (the build: about 30 s).
  if (!fs.existsSync(path.join(ROOT, 'dist', 'provider', 'executables.json'))) {
    execSync('npm run --silent build', { cwd: ROOT, stdio: 'inherit' });
  }
};
