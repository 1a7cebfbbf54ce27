#!/usr/bin/env node
/**
 * `npm run package` (builds first): everything a release would publish, in
 * one folder, dist-packages/:
 *
 *   cdktf-google-iam-<version>.tgz, cdktn-google-iam-<version>.tgz
 *       the npm packages of both flavours (`npm pack`), installable today with
 *       `npm install <path to the .tgz> <path to this platform's .tgz>`; each
 *       lists the five platform packages as optional dependencies and records
 *       their executables' SHA-256 (dist/provider/executables.json)
 *   cdktf-google-iam-provider-<os>-<cpu>-<version>.tgz
 *       @cdktf-google-iam/provider-<os>-<cpu>: one platform's native provider
 *       executable (scripts/provider-executables.js), with npm's `os` and `cpu`
 *       fields, so that npm installs only the machine's own (esbuild's layout);
 *       both flavours share them
 *   terraform-registry/
 *       the provider's release in the Terraform registry's format
 *       (scripts/terraform-registry.js): a zip per platform, SHA256SUMS, the
 *       manifest, and SHA256SUMS.sig when CDKTF_GOOGLE_IAM_GPG_KEY names a key
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
const { PLATFORMS, buildProviderExecutables, executablesManifest } = require('./provider-executables');
const { writeRegistryRelease } = require('./terraform-registry');
const { packPlatformPackage, writePlatformPackage } = require('./platform-packages');

const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const work = fs.mkdtempSync(path.join(OUT, '.work-'));
const executables = buildProviderExecutables({ platforms: Object.keys(PLATFORMS), outDir: path.join(work, 'native') });

// One npm package per platform, holding its executable; packed on zlib's threads, beside the zips and pacmak below.
const platformPackages = {};
const packed = [];
for (const [platform, { file }] of Object.entries(executables)) {
  const dir = path.join(work, 'platform', platform);
  const { name, version } = writePlatformPackage({ platform, file, version: root.version, dir });
  platformPackages[name] = version;
  packed.push(packPlatformPackage(dir, OUT).then((tarball) => `dist-packages/${path.basename(tarball)} (${platform})`));
}

const release = writeRegistryRelease({
  type: 'googleiam',
  version: root.version,
  executables: Object.fromEntries(Object.entries(executables).map(([platform, { file }]) => [platform, file])),
  outDir: path.join(OUT, 'terraform-registry'),
  gpg: process.env.CDKTF_GOOGLE_IAM_GPG_KEY ? { keyId: process.env.CDKTF_GOOGLE_IAM_GPG_KEY } : undefined,
});
process.stdout.write(`dist-packages/terraform-registry/ (${release.files.length} files)\n`);

for (const dir of FLAVOURS) {
  const { name, version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const tarball = run(npm, ['pack', '--silent', '--pack-destination', OUT], stageForPack(dir)).trim();
  withTranslatedExamples(dir, path.join(CACHE, 'package', `${name}.tabl.json`), (tablet) =>
    run(pacmak, ['--code-only', '--targets', TARGETS.join(','), '--outdir', path.join(OUT, name), ...pacmakArgs(tablet)], dir),
  );
  process.stdout.write(`dist-packages/${tarball}\ndist-packages/${name}/{${TARGETS.join(',')}} (${name} ${version})\n`);
}

Promise.all(packed).then(
  (lines) => {
    process.stdout.write(lines.map((line) => `${line}\n`).join(''));
    fs.rmSync(work, { recursive: true, force: true });
  },
  (error) => {
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  },
);

/**
 * A copy of the flavour's package as it is published (the files `npm pack` takes, hard-linked), with the
 * platform packages as optional dependencies and every platform's executable recorded in
 * dist/provider/executables.json: the checkout's own records only the executable `npm run build` made.
 */
function stageForPack(dir) {
  const stage = path.join(work, 'stage', path.basename(dir));
  const [{ files }] = JSON.parse(run(npm, ['pack', '--dry-run', '--json', '--silent'], dir));
  for (const { path: file } of files) {
    fs.mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
    fs.linkSync(path.join(dir, file), path.join(stage, file));
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  fs.rmSync(path.join(stage, 'package.json'));
  fs.writeFileSync(
    path.join(stage, 'package.json'),
    `${JSON.stringify({ ...manifest, optionalDependencies: platformPackages }, null, 2)}\n`,
  );
  const record = path.join(stage, 'dist', 'provider', 'executables.json');
  fs.rmSync(record, { force: true });
  fs.writeFileSync(record, `${JSON.stringify(executablesManifest(root.version, executables), null, 2)}\n`);
  return stage;
}
