/**
 * The provider's release in the format of the Terraform registry (and of HashiCorp's goreleaser config for
 * providers, which the public Terraform and OpenTofu registries and HCP Terraform's private registry all take):
 *
 *   terraform-provider-<type>_<version>_<os>_<arch>.zip
 *       one per platform, holding one file: the executable, named terraform-provider-<type>_v<version>
 *       (.exe on Windows), Unix mode 0755 in the zip's external attributes (Terraform keeps it when it unpacks)
 *   terraform-provider-<type>_<version>_manifest.json
 *       the plugin protocol versions the provider speaks
 *   terraform-provider-<type>_<version>_SHA256SUMS
 *       `sha256sum` lines of the zips and the manifest, sorted by name
 *   terraform-provider-<type>_<version>_SHA256SUMS.sig
 *       a detached binary GPG signature of SHA256SUMS, when a key is given (the gpg CLI makes it)
 *
 * The zips are reproducible: the same executables give the same bytes (fixed timestamps, a fixed entry
 * order, no extra fields), so their `zh:` hashes are as reproducible as the executables are.
 *
 * Also the two layouts `terraform init` installs such a release from without a registry: a provider network
 * mirror's JSON (Provider Network Mirror Protocol: index.json and <version>.json beside the zips), and the packed
 * layout of a `filesystem_mirror` (the zips under <hostname>/<namespace>/<type>/).
 */
'use strict';
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { execFileSync } = require('child_process');
const { Zip } = require('fflate');
const { hashPackageFiles } = require('../lib/install/package-hash');
const { versionedExecutableName } = require('../lib/install/platforms');

/** The plugin protocol the provider speaks (tfprotov6). */
const MANIFEST = { version: 1, metadata: { protocol_versions: ['6.0'] } };
/** Every zip entry's modification time: a fixed one, read as local time both ways (MS-DOS times have no zone). */
const ZIP_TIME = new Date(2000, 0, 1, 0, 0, 0);
/** Unix in the zip's "version made by" (APPNOTE 4.4.2.2): readers then take the mode from the external attributes. */
const ZIP_OS_UNIX = 3;
/** A regular file (S_IFREG), rwxr-xr-x, in the high 16 bits of the external attributes. */
const ZIP_EXECUTABLE_ATTRS = (0o100000 | 0o755) * 0x10000;
const DEFAULT_HOSTNAME = 'registry.terraform.io';

/** The release's file name prefix: `terraform-provider-<type>_<version>`. */
function releasePrefix(type, version) {
  return `terraform-provider-${type}_${version}`;
}

/** The executable's name in a platform's zip: the name Terraform looks for in a package folder. */
const executableName = versionedExecutableName;

/**
 * Writes the release of provider `type` at `version` into `outDir`, from `executables` (Terraform platform
 * name `<os>_<arch>` → path of that platform's executable); signs SHA256SUMS with `gpg.keyId` (in
 * `gpg.homedir`, else gpg's default) when `gpg` is given.
 * @returns {{
 *   type: string, version: string, outDir: string,
 *   files: string[],
 *   archives: Record<string, { file: string, name: string, executable: string, sha256: string, size: number, zh: string, h1: string }>,
 *   shasums: string, manifest: string, signature: string | undefined,
 * }} file paths are absolute; `files` lists every file written, sorted
 */
function writeRegistryRelease({ type, version, executables, outDir, gpg }) {
  if (!/^[a-z0-9-]+$/.test(type)) throw new Error(`not a provider type: ${JSON.stringify(type)}`);
  const platforms = Object.keys(executables).sort();
  if (platforms.length === 0) throw new Error('no executables to release');
  for (const platform of platforms) {
    if (!/^[a-z0-9]+_[a-z0-9]+$/.test(platform)) throw new Error(`not a Terraform platform (<os>_<arch>): ${JSON.stringify(platform)}`);
  }
  fs.mkdirSync(outDir, { recursive: true });
  const prefix = releasePrefix(type, version);
  // An earlier release of this version in outDir (another set of platforms) goes: no zip outside SHA256SUMS.
  for (const name of fs.readdirSync(outDir)) {
    if (
      name.startsWith(`${prefix}_`) &&
      /_[a-z0-9]+_[a-z0-9]+\.zip$/.test(name) &&
      !platforms.includes(name.slice(prefix.length + 1, -4))
    ) {
      fs.rmSync(path.join(outDir, name), { force: true });
    }
  }
  const archives = {};
  const sums = [];
  for (const platform of platforms) {
    const content = fs.readFileSync(executables[platform]);
    const name = executableName(type, version, platform);
    const zip = zipOneFile(name, content);
    const file = path.join(outDir, `${prefix}_${platform}.zip`);
    writeFileAtomically(file, zip);
    const sha256 = sha256Hex(zip);
    archives[platform] = {
      file,
      name: path.basename(file),
      executable: name,
      sha256,
      size: zip.length,
      zh: `zh:${sha256}`,
      h1: hashPackageFiles([{ path: name, sha256: sha256Hex(content) }]),
    };
    sums.push([path.basename(file), sha256]);
  }
  const manifest = path.join(outDir, `${prefix}_manifest.json`);
  const manifestText = `${JSON.stringify(MANIFEST)}\n`;
  writeFileAtomically(manifest, manifestText);
  sums.push([path.basename(manifest), sha256Hex(manifestText)]);

  const shasums = path.join(outDir, `${prefix}_SHA256SUMS`);
  sums.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  writeFileAtomically(shasums, sums.map(([name, sha256]) => `${sha256}  ${name}\n`).join(''));

  let signature;
  if (gpg) {
    signature = `${shasums}.sig`;
    const homedir = gpg.homedir ? ['--homedir', gpg.homedir] : [];
    execFileSync('gpg', [...homedir, '--batch', '--yes', '--detach-sign', '--local-user', gpg.keyId, '--output', signature, shasums], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } else {
    // A signature of an earlier SHA256SUMS would no longer match it.
    fs.rmSync(`${shasums}.sig`, { force: true });
  }
  const files = [...Object.values(archives).map((a) => a.file), manifest, shasums, ...(signature ? [signature] : [])].sort();
  return { type, version, outDir, files, archives, shasums, manifest, signature };
}

/**
 * A zip of one file, `name`, mode 0755: fflate writes the zip's structure, Node's zlib deflates (about twice
 * as fast on a 150 MB executable as fflate's own deflate) through fflate's ZipInputFile interface.
 */
function zipOneFile(name, content) {
  const chunks = [];
  let failure;
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else chunks.push(chunk);
  });
  const entry = {
    filename: name,
    size: content.length,
    crc: zlib.crc32(content),
    compression: 8,
    os: ZIP_OS_UNIX,
    attrs: ZIP_EXECUTABLE_ATTRS,
    mtime: ZIP_TIME,
  };
  zip.add(entry);
  entry.ondata(null, zlib.deflateRawSync(content, { level: 6 }), true);
  zip.end();
  if (failure) throw failure;
  return Buffer.concat(chunks);
}

/**
 * Lays the release's zips out as a provider network mirror at `dir` (Provider Network Mirror Protocol): in
 * `<dir>/<hostname>/<namespace>/<type>/`, index.json (every version there, this one added), `<version>.json`
 * (each platform's zip, by a URL relative to that file, with its `h1:` hash) and the zips.
 * @returns {{ dir: string, index: string, versionFile: string, archives: string[] }}
 */
function writeNetworkMirror(release, { dir, namespace, hostname = DEFAULT_HOSTNAME }) {
  const providerDir = path.join(dir, hostname, namespace, release.type);
  const archives = linkArchives(release, providerDir);
  const index = path.join(providerDir, 'index.json');
  const known = fs.existsSync(index) ? JSON.parse(fs.readFileSync(index, 'utf8')).versions : {};
  const versions = Object.fromEntries(
    Object.keys({ ...known, [release.version]: {} })
      .sort()
      .map((version) => [version, {}]),
  );
  writeFileAtomically(index, `${JSON.stringify({ versions }, null, 2)}\n`);
  const versionFile = path.join(providerDir, `${release.version}.json`);
  const entries = Object.entries(release.archives).map(([platform, archive]) => [platform, { url: archive.name, hashes: [archive.h1] }]);
  writeFileAtomically(versionFile, `${JSON.stringify({ archives: Object.fromEntries(entries) }, null, 2)}\n`);
  return { dir: providerDir, index, versionFile, archives };
}

/**
 * Lays the release's zips out as the packed layout of a `filesystem_mirror` at `dir`:
 * `<dir>/<hostname>/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip`.
 * @returns {{ dir: string, archives: string[] }}
 */
function writeFilesystemMirror(release, { dir, namespace, hostname = DEFAULT_HOSTNAME }) {
  const providerDir = path.join(dir, hostname, namespace, release.type);
  return { dir: providerDir, archives: linkArchives(release, providerDir) };
}

/** The release's zips in `dir`: hard links where the file system allows, else copies. */
function linkArchives(release, dir) {
  fs.mkdirSync(dir, { recursive: true });
  return Object.values(release.archives).map(({ file, name }) => {
    const target = path.join(dir, name);
    fs.rmSync(target, { force: true });
    try {
      fs.linkSync(file, target);
    } catch {
      fs.copyFileSync(file, target);
    }
    return target;
  });
}

function sha256Hex(content) {
  return crypto.createHash('sha256').update(content).digest('hex');
}

/** Through a temporary name and a rename: a reader never sees half a file. */
function writeFileAtomically(file, content) {
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, content);
  fs.renameSync(temp, file);
}

module.exports = { MANIFEST, executableName, releasePrefix, writeRegistryRelease, writeNetworkMirror, writeFilesystemMirror };
