// Jest globalSetup of the unit tier: synthesizing a construct lays the provider's executable (dist/provider) out in
// the stack's folder, and the Direct-form lookups run it, so those tests need it. On a checkout that has not been
// built, it is bundled here (esbuild, a few seconds) instead of failing every such test with "build the package first".
'use strict';
const { execSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..', '..');

module.exports = function bundleProviderIfMissing() {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'provider', 'terraform-provider-googleiam.js'))) {
    // The provider bundle takes google-auth-library from the vendor bundle, so both are built.
    execSync('npm run --silent bundle:vendor && npm run --silent bundle:provider', { cwd: ROOT, stdio: 'inherit' });
  }
  // This machine's native executable, which synth lays out (about 5 s).
  if (!fs.existsSync(path.join(ROOT, 'dist', 'provider', 'executables.json'))) {
    execSync('npm run --silent build:executables', { cwd: ROOT, stdio: 'inherit' });
  }
};
