/**
 * The provider's release in the Terraform registry's format (scripts/terraform-registry.js), from the
 * linux_amd64 and windows_amd64 executables built as the package builds them (scripts/provider-executables.js;
 * linux_amd64 is the one that runs here, windows_amd64 the one whose executable is named .exe):
 * - the files: one zip per platform holding the executable alone (mode 0755, read back from the zip's central
 *   directory), the manifest, SHA256SUMS (its lines verify against the files), the same zip bytes when written
 *   again in another process and time zone; the `zh:` and `h1:` hashes it reports are those of the zip and of
 *   its unpacked content;
 * - SHA256SUMS.sig: a detached binary signature made with a throwaway GPG key, which verifies with nothing but
 *   the exported public key (what a registry is given) and fails on a changed SHA256SUMS;
 * - the real terraform installing it with no Node.js in its environment (`env -i`: a PATH holding terraform
 *   alone, HOME, the CLI configuration, the emulator's variables): from a provider network mirror served over
 *   HTTPS by this test (a self-signed certificate terraform trusts through SSL_CERT_FILE), and from the packed
 *   layout of a filesystem_mirror; each time init, apply, a clean plan and destroy, checked on the emulator's
 *   write history, and the lock file recording the `h1:` hash of the release; `terraform providers lock` adds
 *   the other platform's from the network mirror.
 */
import { spawnSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as https from 'https';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import { unzipSync } from 'fflate';
import { packageHash } from '../../../lib/install/package-hash';
import { generateServerCertificate } from '../../../lib/provider/protocol/tls';
import { GoogleApiEmulator, type CommandResult } from '../../../lib/testing';
import { pinnedMemberGrantConfiguration, unwrapped } from '../../support/hcl-configurations';
import { bareEnvironment, bareTerraform, nodeCommandsIn } from '../../support/bare-environment';
import { historyOf } from '../../support/write-history';

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '..', '..', '..');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const TYPE = 'googleiam';
const NAMESPACE = 'cdktf-google-iam';
const HOSTNAME = 'registry.terraform.io';
const PREFIX = `terraform-provider-${TYPE}_${VERSION}`;
const PLATFORMS = ['linux_amd64', 'windows_amd64'];
const ZIP = `${PREFIX}_linux_amd64.zip`;
const WINDOWS_ZIP = `${PREFIX}_windows_amd64.zip`;
const EXECUTABLE = `terraform-provider-${TYPE}_v${VERSION}`;
const NAME = 'projects/p-123456/locations/global/authorizationPolicies/registry-release';
const ROLE = 'roles/networksecurity.viewer';

interface Archive {
  file: string;
  name: string;
  executable: string;
  sha256: string;
  size: number;
  zh: string;
  h1: string;
}
interface Release {
  type: string;
  version: string;
  outDir: string;
  files: string[];
  archives: Record<string, Archive>;
  shasums: string;
  manifest: string;
  signature: string | undefined;
}
interface MirrorOptions {
  dir: string;
  namespace: string;
  hostname?: string;
}
const REGISTRY_SCRIPT = path.join(ROOT, 'scripts', 'terraform-registry.js');
const registry = require('../../../scripts/terraform-registry.js') as {
  writeRegistryRelease(options: {
    type: string;
    version: string;
    executables: Record<string, string>;
    outDir: string;
    gpg?: { keyId: string; homedir?: string };
  }): Release;
  writeNetworkMirror(release: Release, options: MirrorOptions): { dir: string; index: string; versionFile: string; archives: string[] };
  writeFilesystemMirror(release: Release, options: MirrorOptions): { dir: string; archives: string[] };
};
const { buildProviderExecutables } = require('../../../scripts/provider-executables.js') as {
  buildProviderExecutables(options: {
    platforms: string[];
    outDir: string;
  }): Record<string, { file: string; sha256: string; size: number }>;
};

let emulator: GoogleApiEmulator;
let work: string;
let executables: Record<string, { file: string; sha256: string; size: number }>;
const gnupgHomes: string[] = [];
let fingerprint: string;
let release: Release;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-registry-'));
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(NAME, { bindings: [] });
  const started = Date.now();
  executables = buildProviderExecutables({ platforms: PLATFORMS, outDir: path.join(work, 'native') });
  const built = Date.now();
  const gnupgHome = newGnupgHome();
  gpg(gnupgHome, '--passphrase', '', '--quick-gen-key', 'cdktf-google-iam release test <release@example.com>', 'ed25519', 'sign', 'never');
  // --with-colons: the key's fingerprint is field 10 of its first fpr record.
  fingerprint = /^fpr:(?:[^:]*:){8}([0-9A-F]{40}):/m.exec(gpg(gnupgHome, '--with-colons', '--list-secret-keys').stdout)![1];
  const releaseStart = Date.now();
  release = registry.writeRegistryRelease({
    type: TYPE,
    version: VERSION,
    executables: executableFiles(),
    outDir: path.join(work, 'release'),
    gpg: { keyId: fingerprint, homedir: gnupgHome },
  });
  console.log(
    `${PLATFORMS.join(' and ')} executables (${PLATFORMS.map((p) => executables[p].size).join(', ')} bytes) built in ` +
      `${built - started} ms; release written and signed in ${Date.now() - releaseStart} ms ` +
      `(zips ${PLATFORMS.map((p) => release.archives[p].size).join(', ')} bytes)`,
  );
});
afterAll(async () => {
  await emulator?.close();
  for (const home of gnupgHomes) spawnSync('gpgconf', ['--homedir', home, '--kill', 'gpg-agent']);
  fs.rmSync(work, { recursive: true, force: true });
});

test('the release: a zip per platform holding the executable alone (mode 0755), the manifest, SHA256SUMS that verify; the same zips again', () => {
  const outDir = path.join(work, 'release');
  const names = [ZIP, WINDOWS_ZIP, `${PREFIX}_SHA256SUMS`, `${PREFIX}_SHA256SUMS.sig`, `${PREFIX}_manifest.json`].sort();
  expect(fs.readdirSync(outDir).sort()).toEqual(names);
  expect(release.files).toEqual(names.map((name) => path.join(outDir, name)));

  // SHA256SUMS: sha256sum's format (two spaces), sorted by name, the zips and the manifest, each digest the file's.
  const lines = fs.readFileSync(release.shasums, 'utf8').split('\n');
  expect(lines.pop()).toBe('');
  const sums = lines.map((line) => /^([0-9a-f]{64}) {2}(\S+)$/.exec(line)).map((match) => ({ sha256: match?.[1], name: match?.[2] }));
  expect(sums.map((s) => s.name)).toEqual([ZIP, `${PREFIX}_manifest.json`, WINDOWS_ZIP]);
  for (const { sha256, name } of sums) expect({ name, sha256: sha256OfFile(path.join(outDir, name!)) }).toEqual({ name, sha256 });

  expect(fs.readFileSync(release.manifest, 'utf8')).toBe('{"version":1,"metadata":{"protocol_versions":["6.0"]}}\n');

  // Each zip: one entry, made on Unix, a regular file rwxr-xr-x, deflated; its content the platform's executable.
  // The hashes reported: zh: of the zip, h1: of its unpacked content (as Terraform computes it from a folder).
  for (const [platform, zipName, entryName] of [
    ['linux_amd64', ZIP, EXECUTABLE],
    ['windows_amd64', WINDOWS_ZIP, `${EXECUTABLE}.exe`],
  ]) {
    const zip = fs.readFileSync(path.join(outDir, zipName));
    expect(centralDirectory(zip)).toEqual([{ name: entryName, madeByOs: 3, mode: 0o100755, compression: 8 }]);
    const unpacked = unzipSync(zip);
    expect(Object.keys(unpacked)).toEqual([entryName]);
    expect(sha256(unpacked[entryName])).toBe(executables[platform].sha256);
    const unpackedDir = fs.mkdtempSync(path.join(work, 'unpacked-'));
    fs.writeFileSync(path.join(unpackedDir, entryName), unpacked[entryName], { mode: 0o755 });
    expect(release.archives[platform]).toEqual({
      file: path.join(outDir, zipName),
      name: zipName,
      executable: entryName,
      sha256: sha256(zip),
      size: zip.length,
      zh: `zh:${sha256(zip)}`,
      h1: packageHash(unpackedDir),
    });
  }

  // Written again by another process in another time zone, unsigned, where an earlier release of the version left
  // another platform's zip and a signature: the same zips and SHA256SUMS, and nothing else.
  const again = path.join(work, 'release-again');
  fs.mkdirSync(again);
  for (const stale of [`${PREFIX}_darwin_arm64.zip`, `${PREFIX}_SHA256SUMS.sig`]) fs.writeFileSync(path.join(again, stale), 'stale');
  const script = `const r = require(${JSON.stringify(REGISTRY_SCRIPT)}).writeRegistryRelease(${JSON.stringify({
    type: TYPE,
    version: VERSION,
    executables: executableFiles(),
    outDir: again,
  })}); process.stdout.write(JSON.stringify(r.files));`;
  const child = spawnSync(process.execPath, ['-e', script], { env: { ...process.env, TZ: 'Pacific/Kiritimati' }, encoding: 'utf8' });
  expect({ status: child.status, stderr: child.stderr }).toEqual({ status: 0, stderr: '' });
  const unsigned = names.filter((name) => !name.endsWith('.sig'));
  expect(JSON.parse(child.stdout)).toEqual(unsigned.map((name) => path.join(again, name)));
  expect(fs.readdirSync(again).sort()).toEqual(unsigned);
  for (const zipName of [ZIP, WINDOWS_ZIP]) {
    expect(fs.readFileSync(path.join(again, zipName)).equals(fs.readFileSync(path.join(outDir, zipName)))).toBe(true);
  }
  expect(fs.readFileSync(path.join(again, `${PREFIX}_SHA256SUMS`), 'utf8')).toBe(fs.readFileSync(release.shasums, 'utf8'));
});

test('SHA256SUMS.sig: a detached binary signature that verifies with the exported public key alone, and not on a changed SHA256SUMS', () => {
  const signature = fs.readFileSync(release.signature!);
  expect(release.signature).toBe(`${release.shasums}.sig`);
  // Binary OpenPGP (a packet tag byte has its high bit set), not ASCII armour.
  expect(signature[0] & 0x80).toBe(0x80);
  expect(signature.subarray(0, 5).toString('latin1')).not.toBe('-----');

  // A keyring holding only the public key as a registry is given it (ASCII-armoured).
  const publicKey = gpg(gnupgHomes[0], '--armor', '--export', fingerprint).stdout;
  expect(publicKey).toMatch(/^-----BEGIN PGP PUBLIC KEY BLOCK-----\n/);
  const verifier = newGnupgHome();
  const keyFile = path.join(verifier, 'public.asc');
  fs.writeFileSync(keyFile, publicKey);
  gpg(verifier, '--import', keyFile);
  expect(gpg(verifier, '--with-colons', '--list-secret-keys', { allowFailure: true }).stdout).toBe('');

  const verified = gpg(verifier, '--status-fd', '1', '--verify', release.signature!, release.shasums);
  expect(verified.stdout).toMatch(new RegExp(`^\\[GNUPG:\\] VALIDSIG ${fingerprint} `, 'm'));
  expect(verified.stdout).toMatch(/^\[GNUPG:\] GOODSIG /m);

  const changed = path.join(work, 'changed_SHA256SUMS');
  fs.writeFileSync(
    changed,
    fs.readFileSync(release.shasums, 'utf8').replace(/^./, (c) => (c === '0' ? '1' : '0')),
  );
  const refused = gpg(verifier, '--status-fd', '1', '--verify', release.signature!, changed, { allowFailure: true });
  expect(refused.status).not.toBe(0);
  expect(refused.stdout).toMatch(/^\[GNUPG:\] BADSIG /m);
});

test('terraform init installs it from a network mirror over HTTPS, with no Node.js around; apply, a clean plan, destroy', async () => {
  const mirrorRoot = path.join(work, 'network-mirror');
  const mirror = registry.writeNetworkMirror(release, { dir: mirrorRoot, namespace: NAMESPACE });
  const providerPath = `${HOSTNAME}/${NAMESPACE}/${TYPE}`;
  expect(mirror.dir).toBe(path.join(mirrorRoot, providerPath));
  expect(JSON.parse(fs.readFileSync(mirror.index, 'utf8'))).toEqual({ versions: { [VERSION]: {} } });
  expect(JSON.parse(fs.readFileSync(mirror.versionFile, 'utf8'))).toEqual({
    archives: {
      linux_amd64: { url: ZIP, hashes: [release.archives.linux_amd64.h1] },
      windows_amd64: { url: WINDOWS_ZIP, hashes: [release.archives.windows_amd64.h1] },
    },
  });

  const { certPem, keyPem } = generateServerCertificate();
  const caFile = path.join(work, 'mirror-ca.pem');
  fs.writeFileSync(caFile, certPem);
  const requests: string[] = [];
  const server = https.createServer({ cert: certPem, key: keyPem }, (req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const file = path.join(mirrorRoot, decodeURIComponent(new URL(req.url!, 'https://127.0.0.1').pathname));
    if (
      !['GET', 'HEAD'].includes(req.method!) ||
      !file.startsWith(mirrorRoot + path.sep) ||
      !fs.statSync(file, { throwIfNoEntry: false })?.isFile()
    ) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': file.endsWith('.json') ? 'application/json' : 'application/zip',
      'Content-Length': fs.statSync(file).size,
    });
    if (req.method === 'HEAD') res.end();
    else fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const cliConfig = writeCliConfig(
      'network-mirror.tfrc',
      `provider_installation {\n  network_mirror {\n    url = "https://127.0.0.1:${port}/"\n  }\n}\n`,
    );
    // Without SSL_CERT_FILE terraform refuses the mirror's certificate: the trust comes from that file alone.
    const untrusted = path.join(work, 'untrusted');
    fs.mkdirSync(untrusted);
    fs.writeFileSync(
      path.join(untrusted, 'main.tf'),
      `terraform {\n  required_providers {\n    googleiam = { source = "${NAMESPACE}/${TYPE}" }\n  }\n}\n`,
    );
    const refused = await bareTerraform(untrusted, bareEnvironment(work, { TF_CLI_CONFIG_FILE: cliConfig, ...emulator.env() }), [
      'init',
      '-no-color',
      '-input=false',
    ]);
    expect(refused.code).toBe(1);
    expect(unwrapped(refused.stderr)).toContain('x509: certificate signed by unknown authority');
    expect(requests).toEqual([]);

    const init = await deployWithoutNode(
      'network',
      { TF_CLI_CONFIG_FILE: cliConfig, SSL_CERT_FILE: caFile },
      'user:network-mirror@example.com',
    );
    expect(init).toContain(`- Installed ${NAMESPACE}/${TYPE} v${VERSION} (verified checksum)`);
    expect(requests.splice(0)).toEqual([
      `GET /${providerPath}/index.json`,
      `GET /${providerPath}/${VERSION}.json`,
      `HEAD /${providerPath}/${ZIP}`,
      `GET /${providerPath}/${ZIP}`,
    ]);
    // `terraform providers lock` from the same mirror, as a team locks each platform it runs on: the other
    // platform's h1: hash added, this one's kept; each platform's zip fetched to compute it.
    const lockFile = path.join(work, 'network', '.terraform.lock.hcl');
    const lock = await bareTerraform(
      path.join(work, 'network'),
      bareEnvironment(work, { TF_CLI_CONFIG_FILE: cliConfig, SSL_CERT_FILE: caFile, ...emulator.env() }),
      ['providers', 'lock', '-no-color', `-net-mirror=https://127.0.0.1:${port}/`, '-platform=linux_amd64', '-platform=windows_amd64'],
    );
    expect({ code: lock.code, stderr: lock.stderr }).toEqual({ code: 0, stderr: '' });
    expect(lock.output).toContain(`- Obtained ${NAMESPACE}/${TYPE} checksums for linux_amd64`);
    expect(lock.output).toContain(`- Obtained ${NAMESPACE}/${TYPE} checksums for windows_amd64`);
    expect(lockedHashes(fs.readFileSync(lockFile, 'utf8'))).toEqual(PLATFORMS.map((p) => release.archives[p].h1).sort());
    expect([...new Set(requests)].sort()).toEqual(
      [
        `GET /${providerPath}/index.json`,
        `GET /${providerPath}/${VERSION}.json`,
        ...[ZIP, WINDOWS_ZIP].flatMap((zip) => [`HEAD /${providerPath}/${zip}`, `GET /${providerPath}/${zip}`]),
      ].sort(),
    );
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('terraform init installs it from the packed layout of a filesystem_mirror, with no Node.js around; apply, a clean plan, destroy', async () => {
  const mirrorRoot = path.join(work, 'filesystem-mirror');
  const mirror = registry.writeFilesystemMirror(release, { dir: mirrorRoot, namespace: NAMESPACE });
  const providerPath = `${HOSTNAME}/${NAMESPACE}/${TYPE}`;
  expect(mirror.archives).toEqual([ZIP, WINDOWS_ZIP].map((zip) => path.join(mirrorRoot, providerPath, zip)));
  expect((fs.readdirSync(mirrorRoot, { recursive: true }) as string[]).sort()).toEqual(
    [HOSTNAME, `${HOSTNAME}/${NAMESPACE}`, providerPath, `${providerPath}/${ZIP}`, `${providerPath}/${WINDOWS_ZIP}`].sort(),
  );
  const cliConfig = writeCliConfig(
    'filesystem-mirror.tfrc',
    `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirrorRoot)}\n    include = ["${HOSTNAME}/${NAMESPACE}/${TYPE}"]\n  }\n}\n`,
  );
  const init = await deployWithoutNode('filesystem', { TF_CLI_CONFIG_FILE: cliConfig }, 'user:filesystem-mirror@example.com');
  expect(init).toContain(`- Installed ${NAMESPACE}/${TYPE} v${VERSION} (unauthenticated)`);
});

/**
 * In a new folder `name`: an HCL configuration with one member grant, then init, apply, a clean plan and destroy,
 * terraform under exactly PATH (terraform alone), HOME, `env` and the emulator's variables; each step checked on
 * the emulator's write history, the lock file and the installed package on the release's `h1:` hash.
 * @returns init's output
 */
async function deployWithoutNode(name: string, env: Record<string, string>, member: string): Promise<string> {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'main.tf'), pinnedMemberGrantConfiguration('grant', { name: NAME, role: ROLE, member }));
  const bare = bareEnvironment(work, { ...env, ...emulator.env() });
  expect(nodeCommandsIn(bare)).toEqual([]);
  const terraform = (command: string, ...args: string[]): Promise<CommandResult> =>
    bareTerraform(dir, bare, [command, '-no-color', ...args]);

  const init = await terraform('init', '-input=false');
  expect({ code: init.code, stderr: init.stderr }).toEqual({ code: 0, stderr: '' });
  expect(init.output).toContain(`- Installing ${NAMESPACE}/${TYPE} v${VERSION}...`);
  // The one warning: Terraform computed the lock file's hash itself, for this platform only, as it does for any
  // installation method other than a registry (`terraform providers lock -platform=...` adds the others).
  expect(init.output.match(/^Warning: .*$/gm)).toEqual(['Warning: Incomplete lock file information for providers']);
  const h1 = release.archives.linux_amd64.h1;
  const lock = fs.readFileSync(path.join(dir, '.terraform.lock.hcl'), 'utf8');
  expect(lock).toContain(`provider "${HOSTNAME}/${NAMESPACE}/${TYPE}" {\n  version     = "${VERSION}"\n  constraints = "${VERSION}"\n`);
  expect(lockedHashes(lock)).toEqual([h1]);
  const installed = path.join(dir, '.terraform', 'providers', HOSTNAME, NAMESPACE, TYPE, VERSION, 'linux_amd64');
  expect(fs.readdirSync(installed)).toEqual([EXECUTABLE]);
  expect(fs.statSync(path.join(installed, EXECUTABLE)).mode & 0o777).toBe(0o755);
  expect(packageHash(installed)).toBe(h1);

  const before = emulator.writes(NAME).length;
  const apply = await terraform('apply', '-auto-approve', '-input=false');
  expect({ code: apply.code, summary: /Apply complete!.*/.exec(apply.output)?.[0] ?? apply.output }).toEqual({
    code: 0,
    summary: 'Apply complete! Resources: 1 added, 0 changed, 0 destroyed.',
  });
  expect(historyOf(emulator, NAME, ROLE).slice(before)).toEqual([[member]]);
  const plan = await terraform('plan', '-input=false', '-detailed-exitcode');
  expect({ code: plan.code, output: plan.code === 0 ? '' : plan.output }).toEqual({ code: 0, output: '' });
  expect(plan.output).toContain('No changes.');
  const destroy = await terraform('destroy', '-auto-approve', '-input=false');
  expect(/Destroy complete!.*/.exec(destroy.output)?.[0] ?? destroy.output).toBe('Destroy complete! Resources: 1 destroyed.');
  expect(historyOf(emulator, NAME, ROLE).slice(before)).toEqual([[member], []]);
  return init.output;
}

/** Each platform's executable built in beforeAll, by platform. */
function executableFiles(): Record<string, string> {
  return Object.fromEntries(PLATFORMS.map((platform) => [platform, executables[platform].file]));
}

/** The hashes of our provider's block in a lock file, sorted. */
function lockedHashes(lock: string): string[] {
  const block = new RegExp(`^provider "${HOSTNAME}/${NAMESPACE}/${TYPE}" \\{\\n[\\s\\S]*?^\\}$`, 'm').exec(lock)?.[0] ?? '';
  return [...block.matchAll(/^ {4}"([^"]+)",$/gm)].map((m) => m[1]).sort();
}

function writeCliConfig(name: string, text: string): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, text);
  return file;
}

/** A new, empty GNUPGHOME (removed with `work`; its agent stopped after the file's tests). */
function newGnupgHome(): string {
  const home = fs.mkdtempSync(path.join(work, 'gnupg-'));
  fs.chmodSync(home, 0o700);
  gnupgHomes.push(home);
  return home;
}

/** `gpg --homedir <home> --batch <args>`; fails unless it exits 0, or `allowFailure` is given last. */
function gpg(home: string, ...args: (string | { allowFailure: boolean })[]): { status: number | null; stdout: string; stderr: string } {
  const options = typeof args[args.length - 1] === 'object' ? (args.pop() as { allowFailure: boolean }) : { allowFailure: false };
  const result = spawnSync('gpg', ['--homedir', home, '--batch', ...(args as string[])], { encoding: 'utf8' });
  if (!options.allowFailure && result.status !== 0) throw new Error(`gpg ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * The entries of a zip as its central directory records them (APPNOTE.txt 4.3.12): name, the operating system
 * in "version made by", the Unix mode (the high 16 bits of the external attributes) and the compression method.
 */
function centralDirectory(zip: Buffer): { name: string; madeByOs: number; mode: number; compression: number }[] {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(end).toBeGreaterThanOrEqual(0);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries = [];
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(offset)).toBe(0x02014b50);
    const nameLength = zip.readUInt16LE(offset + 28);
    entries.push({
      name: zip.toString('utf8', offset + 46, offset + 46 + nameLength),
      madeByOs: zip[offset + 5],
      mode: zip.readUInt32LE(offset + 38) >>> 16,
      compression: zip.readUInt16LE(offset + 10),
    });
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return entries;
}

function sha256(content: Uint8Array): string {
  return crypto.createHash('sha256').update(content).digest('hex');
}

function sha256OfFile(file: string): string {
  return sha256(fs.readFileSync(file));
}
