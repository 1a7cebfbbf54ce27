/**
 * The npm package of one platform's provider executable, `@cdktf-google-iam/provider-<os>-<cpu>`, as esbuild
 * ships its binaries: npm's `os` and `cpu` fields let npm install only the one a machine can run, as an
 * optional dependency of the main package (both flavours list the same five). lib/install/provider-package.ts
 * finds the executable in its `bin/`.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const tar = require('tar');
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

/**
 * The npm tarball of the package in `dir` (written by writePlatformPackage), as `npm pack` lays one out: its
 * files under `package/`, npm's fixed timestamp, no owner. Made here with node-tar (npm's own tar library)
 * because `npm pack` takes about 11 s of a core per 150 MB executable and this about 3 s, on zlib's threads.
 * @returns the tarball's path: `<outDir>/<name without @, / as ->-<version>.tgz`, as npm names it
 */
async function packPlatformPackage(dir, outDir) {
  const { name, version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const file = path.join(outDir, `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
  const files = ['package.json', 'README.md', 'LICENSE', ...fs.readdirSync(path.join(dir, 'bin')).map((f) => `bin/${f}`)];
  await tar.c({ gzip: { level: 6 }, file, cwd: dir, prefix: 'package', portable: true, mtime: NPM_MTIME }, files);
  return file;
}

/** The modification time `npm pack` gives every entry (pacote's). */
const NPM_MTIME = new Date('1985-10-26T08:15:00.000Z');

module.exports = { writePlatformPackage, packPlatformPackage };
