/**
 * The npm package of one platform's provider executable, `@cdktf-google-iam/provider-<os>-<cpu>`, as esbuild
 * ships its binaries: npm's `os` and `cpu` fields let npm install only the one a machine can run, as an
 * optional dependency of the main package (both flavours list the same five). lib/install/provider-package.ts
 * finds the executable in its `bin/`.
 */
'use strict';
const fs = require('fs');
const path = require('path');
// Built before this runs (npm run package builds first): the names, as lib/install looks the packages up.
const { npmPlatform, platformPackageName } = require('../lib/install/platforms');

const ROOT = path.join(__dirname, '..');

/** Writes the package of `platform` (its executable `file` hard-linked into bin/) into `dir`; returns its manifest. */
function writePlatformPackage({ platform, file, version, dir }) {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const { os, cpu } = npmPlatform(platform);
  const name = platformPackageName(platform);
  fs.mkdirSync(path.join(dir, 'bin'), { recursive: true });
  fs.linkSync(file, path.join(dir, 'bin', path.basename(file)));
  fs.copyFileSync(path.join(ROOT, 'LICENSE'), path.join(dir, 'LICENSE'));
  fs.writeFileSync(
    path.join(dir, 'README.md'),
    `# ${name}\n\nThe ${platform} executable of the googleiam Terraform provider that ` +
      `[cdktf-google-iam](https://github.com/cdktf-google-iam/cdktf-google-iam) lays out for Terraform: install that package instead.\n`,
  );
  const manifest = {
    name,
    version,
    description: `The googleiam Terraform provider's executable for ${platform} (Node.js inside: no Node.js needed where terraform runs).`,
    license: root.license,
    repository: root.repository,
    os: [os],
    cpu: [cpu],
    files: ['bin/', 'README.md', 'LICENSE'],
    // Yarn Plug'n'Play keeps it unpacked on disk, where Terraform can start it.
    preferUnplugged: true,
  };
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

module.exports = { writePlatformPackage };
