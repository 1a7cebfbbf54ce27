#!/usr/bin/env node
/**
 * `npm run package` (builds first): everything a release would publish, in
 * one folder, dist-packages/:
 *
 *   cdktf-google-iam-<version>.tgz, cdktn-google-iam-<version>.tgz
 *       the npm packages of both flavours (`npm pack`), installable today with
 *       `npm install <path to the .tgz>`
 *   cdktf-google-iam/{python,java,go,dotnet}, cdktn-google-iam/{python,java,go,dotnet}
 *       the code jsii-pacmak generates for each language
 *
 * The other languages' packages are generated code only (`jsii-pacmak
 * --code-only`): building wheels, jars, Go modules and NuGet packages needs
 * their toolchains and registries. The Python code byte-compiles (checked by
 * test/package/package.test.ts).
 *
 *
 * The generated code's docs carry the docs' examples in its language:
 * jsii-rosetta translates them first (`extract --strict`, every example
 * compiles in its fixture: scripts/translate-examples.js), and pacmak fails
 * on an example its tablet lacks.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'dist-packages');
const FLAVOURS = [ROOT, path.join(ROOT, 'dist-cdktn')];
const TARGETS = ['python', 'java', 'go', 'dotnet'];

for (const dir of FLAVOURS) {
  if (!fs.existsSync(path.join(dir, '.jsii')))
    throw new Error(`${path.relative(ROOT, dir) || '.'}/.jsii is missing: run \`npm run build\` first`);
}
fs.rmSync(OUT, { recursive: true, force: true });
fs.mkdirSync(OUT);

const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const pacmak = path.join(ROOT, 'node_modules', '.bin', 'jsii-pacmak');
const { CACHE, pacmakArgs, withTranslatedExamples } = require('./translate-examples');

for (const dir of FLAVOURS) {
  const { name, version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const tarball = run(npm, ['pack', '--silent', '--pack-destination', OUT], dir).trim();
  withTranslatedExamples(dir, path.join(CACHE, 'package', `${name}.tabl.json`), (tablet) =>
    run(pacmak, ['--code-only', '--targets', TARGETS.join(','), '--outdir', path.join(OUT, name), ...pacmakArgs(tablet)], dir),
  );
  process.stdout.write(`dist-packages/${tarball}\ndist-packages/${name}/{${TARGETS.join(',')}} (${name} ${version})\n`);
}
