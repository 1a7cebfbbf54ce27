#!/usr/bin/env node
/**
 * Builds the CDK Terrain flavour of this library into dist-cdktn/: the same
 * TypeScript sources (lib/), with the framework import swapped at build time
 * ('cdktf' -> 'cdktn', nothing else), compiled by jsii into a package of its
 * own (`cdktn-google-iam`, with its own .jsii for the other languages), beside
 * the same provider and vendor bundles (dist/, which hold no framework code).
 * Run `npm run build` first; `npm run build:cdktn` does both.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'dist-cdktn');
const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** `from 'cdktf'`, `require("cdktf/lib/...")`, `import('cdktf')`: every module specifier that names the framework. */
function swapFramework(source) {
  return source.replace(/(['"])cdktf(\/[^'"]*)?\1/g, (_match, quote, rest = '') => `${quote}cdktn${rest}${quote}`);
}

function copyTree(from, to, transform) {
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      copyTree(source, target, transform);
    } else if (transform(entry.name)) {
      fs.mkdirSync(to, { recursive: true });
      fs.writeFileSync(target, transform(entry.name)(fs.readFileSync(source, 'utf8')));
    }
  }
}

fs.rmSync(OUT, { recursive: true, force: true });
fs.mkdirSync(OUT);
// Sources only (no compiled output), the framework swapped; the generated data files as they are.
copyTree(path.join(ROOT, 'lib'), path.join(OUT, 'lib'), (name) => {
  if ((name.endsWith('.ts') && !name.endsWith('.d.ts')) || name.endsWith('.md')) return swapFramework;
  return name.endsWith('.generated.json') ? (text) => text : undefined;
});
// The fixtures jsii-rosetta compiles the docs' examples in (scripts/translate-examples.js): the framework and this
// package imported by this flavour's names.
copyTree(path.join(ROOT, 'rosetta'), path.join(OUT, 'rosetta'), (name) =>
  name.endsWith('.ts-fixture') ? (text) => swapFramework(text).replace(/(['"])cdktf-google-iam\1/g, '$1cdktn-google-iam$1') : undefined,
);
if (!fs.existsSync(path.join(ROOT, 'dist', 'provider', 'terraform-provider-googleiam.js')))
  throw new Error('dist/ is missing: run `npm run build` first');
// The native executables (100-150 MiB each) are hard-linked, not copied: the same files serve both flavours.
const nativeDir = path.join(ROOT, 'dist', 'provider', 'native');
fs.cpSync(path.join(ROOT, 'dist'), path.join(OUT, 'dist'), { recursive: true, filter: (source) => source !== nativeDir });
for (const platform of fs.existsSync(nativeDir) ? fs.readdirSync(nativeDir) : []) {
  fs.mkdirSync(path.join(OUT, 'dist', 'provider', 'native', platform), { recursive: true });
  for (const name of fs.readdirSync(path.join(nativeDir, platform))) {
    fs.linkSync(path.join(nativeDir, platform, name), path.join(OUT, 'dist', 'provider', 'native', platform, name));
  }
}
fs.copyFileSync(path.join(ROOT, 'LICENSE'), path.join(OUT, 'LICENSE'));
fs.writeFileSync(
  path.join(OUT, 'README.md'),
  '# cdktn-google-iam\n\nThe CDK Terrain (`cdktn`) flavour of [cdktf-google-iam](https://github.com/cdktf-google-iam/cdktf-google-iam): ' +
    'the same constructs, built from the same sources for `cdktn` instead of `cdktf`. See that README.\n',
);

const cdktn = require(path.join(ROOT, 'node_modules', 'cdktn', 'package.json'));
const pkg = {
  name: 'cdktn-google-iam',
  version: root.version,
  description: `${root.description} For CDK Terrain (cdktn).`,
  license: root.license,
  author: root.author,
  repository: root.repository,
  keywords: [...root.keywords.filter((k) => k !== 'cdktf'), 'cdktn', 'cdk-terrain'],
  main: root.main,
  types: root.types,
  exports: root.exports,
  typesVersions: root.typesVersions,
  // Its own command name: installing both flavours must not make two packages claim one command.
  bin: Object.fromEntries(Object.entries(root.bin).map(([command, file]) => [command.replace(/^cdktf-/, 'cdktn-'), file])),
  engines: root.engines,
  files: root.files,
  peerDependencies: {
    cdktn: `^${cdktn.version}`,
    // cdktn's own range, starting at the version this flavour is built and tested with.
    constructs: `>=${root.devDependencies.constructs} ${cdktn.peerDependencies.constructs.split(' ').find((c) => c.startsWith('<'))}`,
  },
  // What this flavour was built and tested with (jsii wants a pin for each peer).
  devDependencies: { cdktn: cdktn.version, constructs: root.devDependencies.constructs },
  jsii: {
    outdir: 'dist-pacmak',
    versionFormat: 'full',
    excludeTypescript: root.jsii.excludeTypescript,
    targets: {
      python: { distName: 'cdktn-google-iam', module: 'cdktn_google_iam' },
      java: { package: 'io.github.cdktfgoogleiam.cdktn', maven: { groupId: 'io.github.cdktf-google-iam', artifactId: 'cdktn-google-iam' } },
      go: { moduleName: 'github.com/cdktf-google-iam/cdktn-google-iam-go' },
      dotnet: { namespace: 'CdktnGoogleIam', packageId: 'CdktnGoogleIam' },
    },
  },
};
fs.writeFileSync(path.join(OUT, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
// jsii resolves the dependencies' assemblies from node_modules: the repository's.
fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(OUT, 'node_modules'), 'dir');
execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'jsii', 'bin', 'jsii'), '--silence-warnings=reserved-word'], {
  cwd: OUT,
  stdio: 'inherit',
});
execFileSync(process.execPath, [path.join(__dirname, 'executable-bins.js'), OUT], { stdio: 'inherit' });
process.stdout.write(`built ${pkg.name} ${pkg.version} into ${path.relative(ROOT, OUT)}/\n`);
