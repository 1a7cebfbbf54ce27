/**
 * scripts/macho-sign.js on Node.js's own macOS binaries (the ones the provider's executables are built from),
 * checked with the independent verifier in test/support/executable-formats.ts: on arm64 the binary as
 * `node --build-sea` leaves it (no LC_CODE_SIGNATURE: the signer adds one), on x86_64 Node's Developer ID
 * signature replaced in place. A changed page breaks the signature; what the signer cannot sign it refuses.
 * The binaries come from the CI's Node.js cache (.ci/run), about 150 MB each.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeExecutable, verifyAdHocSignature } from '../../support/executable-formats';

const { adHocSign } = require('../../../scripts/macho-sign.js') as {
  adHocSign(file: string, identifier: string): { codeLimit: number; signatureSize: number };
};

const NODE_VERSION = '26.10.0';
const NODE_CACHE =
  process.env.CDKTF_GOOGLE_IAM_NODE_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'cdktf-google-iam-ci', 'node');
const IDENTIFIER = 'terraform-provider-googleiam';

function cachedNode(platform: string): string {
  const file = path.join(NODE_CACHE, `${NODE_VERSION}-${platform}`, 'bin', 'node');
  if (!fs.existsSync(file)) throw new Error(`${file} is missing: .ci/run caches Node.js ${NODE_VERSION} for ${platform}`);
  return file;
}

/** Drops LC_CODE_SIGNATURE (the last load command in Node's binaries) and the signature, as `--build-sea` does. */
function stripSignature(buf: Buffer): Buffer {
  const ncmds = buf.readUInt32LE(16);
  let at = 32;
  let linkedit = 0;
  for (let i = 0; i < ncmds - 1; i++) {
    if (buf.readUInt32LE(at) === 0x19 && buf.toString('latin1', at + 8, at + 18) === '__LINKEDIT') linkedit = at;
    at += buf.readUInt32LE(at + 4);
  }
  expect(buf.readUInt32LE(at)).toBe(0x1d); // LC_CODE_SIGNATURE
  const dataoff = buf.readUInt32LE(at + 8);
  buf.fill(0, at, at + 16);
  buf.writeUInt32LE(ncmds - 1, 16);
  buf.writeUInt32LE(buf.readUInt32LE(20) - 16, 20);
  buf.writeBigUInt64LE(BigInt(dataoff) - buf.readBigUInt64LE(linkedit + 40), linkedit + 48); // __LINKEDIT filesize
  return buf.subarray(0, dataoff);
}

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-macho-sign-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('signs an arm64 binary that has no signature (as --build-sea leaves it); a changed page breaks it', () => {
  const file = path.join(dir, 'node-arm64');
  const unsigned = stripSignature(fs.readFileSync(cachedNode('darwin-arm64')));
  fs.writeFileSync(file, unsigned);
  expect(describeExecutable(unsigned).codeSignature).toBeUndefined();

  const { codeLimit, signatureSize } = adHocSign(file, IDENTIFIER);
  const signed = fs.readFileSync(file);
  expect(describeExecutable(signed)).toMatchObject({ format: 'macho', arch: 'arm64' });
  expect(codeLimit).toBe(unsigned.length); // the stripped file ends 16-byte aligned: no padding before the signature
  expect(signed.length).toBe(codeLimit + signatureSize);
  expect(signed.readUInt32LE(16)).toBe(unsigned.readUInt32LE(16) + 1); // ncmds: LC_CODE_SIGNATURE added
  // Outside the load commands, the image is the unsigned file's.
  expect(signed.subarray(4096, codeLimit).equals(unsigned.subarray(4096))).toBe(true);
  expect(verifyAdHocSignature(signed)).toEqual({ identifier: IDENTIFIER, codeLimit, pages: Math.ceil(codeLimit / 4096), problems: [] });

  // One byte in the middle of the code, and one in the header: exactly those pages are reported.
  const page = Math.floor(codeLimit / 4096 / 2);
  signed[page * 4096 + 100] ^= 0xff;
  signed[20] ^= 0x01;
  expect(verifyAdHocSignature(signed).problems).toEqual(['page 0: hash mismatch', `page ${page}: hash mismatch`]);
});

test("replaces Node's Developer ID signature on x86_64 in place; signing again gives the same bytes", () => {
  const original = fs.readFileSync(cachedNode('darwin-x64'));
  const file = path.join(dir, 'node-x64');
  fs.writeFileSync(file, original);
  const before = describeExecutable(original);
  // Apple's signature: the verifier agrees with every page hash, and tells it is not ad-hoc.
  expect(verifyAdHocSignature(original).problems).toEqual([
    'Requirements blob missing or not empty',
    'CMS blob wrapper missing or not empty (ad-hoc)',
    'CodeDirectory flags lack CS_ADHOC',
    'ad-hoc signature with a team identifier',
  ]);

  const { codeLimit, signatureSize } = adHocSign(file, IDENTIFIER);
  const signed = fs.readFileSync(file);
  expect(describeExecutable(signed)).toMatchObject({
    format: 'macho',
    arch: 'amd64',
    codeSignature: { dataoff: before.codeSignature!.dataoff, datasize: signatureSize },
  });
  expect(codeLimit).toBe(before.codeSignature!.dataoff);
  expect(verifyAdHocSignature(signed)).toEqual({ identifier: IDENTIFIER, codeLimit, pages: Math.ceil(codeLimit / 4096), problems: [] });

  adHocSign(file, IDENTIFIER);
  expect(fs.readFileSync(file).equals(signed)).toBe(true);
});

test('refuses what it cannot sign, naming the file and why', () => {
  const elf = path.join(dir, 'elf');
  fs.writeFileSync(elf, Buffer.from('7f454c46020101000000000000000000' + '00'.repeat(48), 'hex'));
  expect(() => adHocSign(elf, IDENTIFIER)).toThrow(`macho-sign: ${elf}: not a 64-bit little-endian Mach-O (magic 0x464c457f)`);

  const fat = path.join(dir, 'fat');
  fs.writeFileSync(fat, Buffer.from('cafebabe00000002' + '00'.repeat(56), 'hex'));
  expect(() => adHocSign(fat, IDENTIFIER)).toThrow('a universal (fat) binary: sign each thin slice instead');

  // A Mach-O header with no load commands: nothing to sign against.
  const empty = Buffer.alloc(64);
  empty.writeUInt32LE(0xfeedfacf, 0);
  empty.writeUInt32LE(0x0100000c, 4);
  empty.writeUInt32LE(2, 12);
  const bare = path.join(dir, 'bare');
  fs.writeFileSync(bare, empty);
  expect(() => adHocSign(bare, IDENTIFIER)).toThrow('no __TEXT or no __LINKEDIT segment');
});
