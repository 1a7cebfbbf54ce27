#!/usr/bin/env node
/**
 * The docs' TypeScript examples in every jsii language: `jsii-rosetta extract --strict` compiles each example of a
 * package's assembly (the README's ```ts blocks and those of the doc comments) inside its fixture (rosetta/*.ts-fixture;
 * the README's programs are whole, a fragment names its fixture: ```ts fixture=stack) and fails on any error; its
 * tablet holds the Python, Java, C# and Go translations that `jsii-pacmak --rosetta-tablet` puts in the generated
 * code (with `--rosetta-unknown-snippets=fail`, an example missing from it fails the generation).
 *
 * Rosetta writes its tablet beside the assembly it reads, so it reads a copy: a folder of the package's `.jsii` and
 * package.json, with links to its lib/, rosetta/ and node_modules/. Nothing is written into the package, which
 * other processes (pacmak, npm pack) may be reading meanwhile.
 *
 *   node scripts/translate-examples.js <package dir> <tablet file>
 *
 * `npm run package` and the jsii tests give rosetta a cache (its `--cache`, under node_modules/.cache/), each its
 * own: a translation is reused only while its example, its fixture, the types it uses and rosetta are unchanged
 * (2.4 to 3.2 s a flavour without it, 0.6 s with it).
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.join(__dirname, '..');
const ROSETTA = path.join(ROOT, 'node_modules', '.bin', 'jsii-rosetta');
/** Where rosetta's caches are kept between runs: one file per flavour and caller, `<CACHE>/<caller>/<name>.tabl.json`. */
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'cdktf-google-iam', 'rosetta');
/** What pacmak is given, so that an example rosetta did not translate fails the generation. */
const pacmakArgs = (tablet) => [`--rosetta-tablet=${tablet}`, '--rosetta-unknown-snippets=fail'];

/** The folder rosetta reads as the package in `packageDir` (see above); the caller removes it. */
function stage(packageDir) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rosetta-stage-'));
  for (const file of ['.jsii', 'package.json']) fs.copyFileSync(path.join(packageDir, file), path.join(dir, file));
  for (const link of ['lib', 'rosetta', 'node_modules'])
    fs.symlinkSync(fs.realpathSync(path.join(packageDir, link)), path.join(dir, link), 'dir');
  return dir;
}

/**
 * jsii-rosetta's command line for the staged package: its tablet is `<stage>/.jsii.tabl.json`. With a cache, the
 * cache keeps the translations of this package's current examples only (`--trim-cache`).
 */
function extractArgs(stageDir, cache) {
  return ['extract', '--strict', ...(cache ? ['--cache', cache, '--trim-cache'] : []), stageDir];
}

/**
 * Extracts, compiles and translates the examples of the package in `packageDir` (throws on any error), then calls
 * `use` with the tablet, which is removed after it.
 */
function withTranslatedExamples(packageDir, cache, use) {
  const dir = stage(packageDir);
  try {
    if (cache) fs.mkdirSync(path.dirname(cache), { recursive: true });
    execFileSync(ROSETTA, extractArgs(dir, cache), { stdio: ['ignore', 'inherit', 'inherit'] });
    return use(path.join(dir, '.jsii.tabl.json'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

module.exports = { ROSETTA, CACHE, pacmakArgs, stage, extractArgs, withTranslatedExamples };

if (require.main === module) {
  const [packageDir, tablet] = process.argv.slice(2);
  if (!packageDir || !tablet) throw new Error('usage: node scripts/translate-examples.js <package dir> <tablet file>');
  withTranslatedExamples(path.resolve(packageDir), undefined, (made) => fs.copyFileSync(made, path.resolve(tablet)));
}
