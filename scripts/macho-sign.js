'use strict';
/**
 * Ad-hoc code signing of a thin 64-bit Mach-O executable (x86_64 or arm64), as `codesign --sign -` makes it.
 *
 * Why: the provider's macOS executables are Node.js single executable applications built on Linux
 * (`node --build-sea`), which injects the application blob into Node's Mach-O and drops Node's Developer ID
 * signature, which no longer matched. Apple silicon refuses to run an arm64 binary without a valid signature,
 * and codesign (or ldid, rcodesign) is not available on the Linux machines that build the package. An ad-hoc
 * signature is what Node's own SEA documentation has users make with `codesign --sign -`; it needs no key, only
 * hashes, so it is written here.
 *
 * What is written (names from xnu's osfmk/kern/cs_blobs.h; all code signing structures are big-endian, the
 * Mach-O headers little-endian, mach-o/loader.h): at the end of __LINKEDIT, 16-byte aligned, a SuperBlob
 * (CSMAGIC_EMBEDDED_SIGNATURE) indexing
 * - a CodeDirectory (CSMAGIC_CODEDIRECTORY, version CS_SUPPORTSEXECSEG 0x20400): flags CS_ADHOC, SHA-256,
 *   4 KiB pages, the identifier, two special slots (-1 Info.plist: none, zeros; -2 the Requirements blob's
 *   hash), one code slot per page of the file up to the signature (codeLimit), and the executable segment
 *   (__TEXT's file range, CS_EXECSEG_MAIN_BINARY for an MH_EXECUTE);
 * - an empty Requirements set (CSMAGIC_REQUIREMENTS, count 0) in CSSLOT_REQUIREMENTS;
 * - an empty CMS signature (CSMAGIC_BLOBWRAPPER with no data) in CSSLOT_SIGNATURESLOT, as codesign writes for
 *   ad-hoc.
 * LC_CODE_SIGNATURE (added after the last load command if the binary has none, as `--build-sea` leaves it) and
 * __LINKEDIT's filesize/vmsize are updated before the pages are hashed, since the header is in the first page.
 */
const crypto = require('crypto');
const fs = require('fs');

// mach-o/loader.h, mach/machine.h
const MH_MAGIC_64 = 0xfeedfacf;
const MH_EXECUTE = 0x2;
const CPU_TYPE_X86_64 = 0x01000007;
const CPU_TYPE_ARM64 = 0x0100000c;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const MACH_HEADER_64_SIZE = 32;
const SEGMENT_COMMAND_64_SIZE = 72;
const SECTION_64_SIZE = 80;
const LINKEDIT_DATA_COMMAND_SIZE = 16;
// The VM page size a segment's vmsize is rounded to: 16 KiB on arm64, 4 KiB on x86_64.
const VM_PAGE = { [CPU_TYPE_ARM64]: 0x4000, [CPU_TYPE_X86_64]: 0x1000 };

// osfmk/kern/cs_blobs.h
const CSMAGIC_REQUIREMENTS = 0xfade0c01;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_BLOBWRAPPER = 0xfade0b01;
const CSSLOT_CODEDIRECTORY = 0;
const CSSLOT_REQUIREMENTS = 2;
const CSSLOT_SIGNATURESLOT = 0x10000;
const CS_SUPPORTSEXECSEG = 0x20400;
const CS_ADHOC = 0x2;
const CS_HASHTYPE_SHA256 = 2;
const CS_SHA256_LEN = 32;
const CS_EXECSEG_MAIN_BINARY = 0x1;
const PAGE_SHIFT = 12; // pageSize is log2: 4 KiB pages, as codesign uses on both architectures
const PAGE_SIZE = 1 << PAGE_SHIFT;
const CODE_DIRECTORY_SIZE = 88; // CS_CodeDirectory up to and including execSegFlags (version 0x20400)
const SPECIAL_SLOTS = 2; // cdInfoSlot (1) and cdRequirementsSlot (2)

const align = (n, to) => Math.ceil(n / to) * to;

/** The load commands this signer needs, from a thin 64-bit little-endian Mach-O; throws on anything else. */
function parseMachO(buf, file) {
  const fail = (why) => {
    throw new Error(`macho-sign: ${file}: ${why}`);
  };
  if (buf.length < MACH_HEADER_64_SIZE) fail('too short for a Mach-O header');
  const magic = buf.readUInt32LE(0);
  if (buf.readUInt32BE(0) === 0xcafebabe || buf.readUInt32BE(0) === 0xcafebabf)
    fail('a universal (fat) binary: sign each thin slice instead');
  if (magic !== MH_MAGIC_64) fail(`not a 64-bit little-endian Mach-O (magic 0x${magic.toString(16)})`);
  const cputype = buf.readUInt32LE(4);
  if (!VM_PAGE[cputype]) fail(`unsupported cputype 0x${cputype.toString(16)} (x86_64 and arm64 only)`);
  const m = { cputype, filetype: buf.readUInt32LE(12), ncmds: buf.readUInt32LE(16), sizeofcmds: buf.readUInt32LE(20) };
  // The first byte of segment contents: load commands cannot grow past it.
  m.firstContent = buf.length;
  let offset = MACH_HEADER_64_SIZE;
  for (let i = 0; i < m.ncmds; i++) {
    const cmd = buf.readUInt32LE(offset);
    const cmdsize = buf.readUInt32LE(offset + 4);
    if (cmd === LC_SEGMENT_64) {
      const name = buf.toString('latin1', offset + 8, offset + 24).replace(/\0.*$/s, '');
      const fileoff = Number(buf.readBigUInt64LE(offset + 40));
      const seg = { offset, fileoff, filesize: Number(buf.readBigUInt64LE(offset + 48)) };
      if (name === '__TEXT') m.text = seg;
      if (name === '__LINKEDIT') m.linkedit = seg;
      if (fileoff > 0) m.firstContent = Math.min(m.firstContent, fileoff);
      for (let s = 0, n = buf.readUInt32LE(offset + 64); s < n; s++) {
        const sectionOffset = buf.readUInt32LE(offset + SEGMENT_COMMAND_64_SIZE + s * SECTION_64_SIZE + 48);
        if (sectionOffset > 0) m.firstContent = Math.min(m.firstContent, sectionOffset); // zerofill sections: 0
      }
    } else if (cmd === LC_CODE_SIGNATURE) {
      m.signature = { offset, dataoff: buf.readUInt32LE(offset + 8), datasize: buf.readUInt32LE(offset + 12) };
    }
    offset += cmdsize;
  }
  if (!m.text || !m.linkedit) fail('no __TEXT or no __LINKEDIT segment');
  const linkeditEnd = m.linkedit.fileoff + m.linkedit.filesize;
  if (linkeditEnd !== buf.length) fail(`__LINKEDIT ends at ${linkeditEnd}, not at the end of the file (${buf.length})`);
  if (m.signature && m.signature.dataoff + m.signature.datasize !== linkeditEnd) fail('the code signature is not at the end of __LINKEDIT');
  return m;
}

/** A blob's 8-byte header (magic, length) followed by `body`. */
function blob(magic, body) {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(magic, 0);
  header.writeUInt32BE(8 + body.length, 4);
  return Buffer.concat([header, body]);
}

/** The SuperBlob's size for an image of `codeLimit` bytes: known before hashing, so the header can say it. */
function signatureSize(codeLimit, identifier) {
  const nCodeSlots = Math.ceil(codeLimit / PAGE_SIZE);
  const codeDirectory = CODE_DIRECTORY_SIZE + Buffer.byteLength(identifier) + 1 + (SPECIAL_SLOTS + nCodeSlots) * CS_SHA256_LEN;
  return 12 + 3 * 8 + codeDirectory + 12 + 8;
}

/** The SuperBlob signing `image` (the file's bytes up to the signature offset, header already updated). */
function buildSignature(image, identifier, m) {
  const sha256 = (data) => crypto.createHash('sha256').update(data).digest();
  const requirements = blob(CSMAGIC_REQUIREMENTS, Buffer.alloc(4)); // count 0
  const cms = blob(CSMAGIC_BLOBWRAPPER, Buffer.alloc(0));

  const codeLimit = image.length;
  const nCodeSlots = Math.ceil(codeLimit / PAGE_SIZE);
  const ident = Buffer.from(`${identifier}\0`);
  const hashOffset = CODE_DIRECTORY_SIZE + ident.length + SPECIAL_SLOTS * CS_SHA256_LEN;
  const cd = Buffer.alloc(hashOffset + nCodeSlots * CS_SHA256_LEN);
  cd.writeUInt32BE(CSMAGIC_CODEDIRECTORY, 0);
  cd.writeUInt32BE(cd.length, 4);
  cd.writeUInt32BE(CS_SUPPORTSEXECSEG, 8); // version
  cd.writeUInt32BE(CS_ADHOC, 12); // flags
  cd.writeUInt32BE(hashOffset, 16);
  cd.writeUInt32BE(CODE_DIRECTORY_SIZE, 20); // identOffset
  cd.writeUInt32BE(SPECIAL_SLOTS, 24);
  cd.writeUInt32BE(nCodeSlots, 28);
  cd.writeUInt32BE(codeLimit, 32); // codeLimit64 (56) stays 0: only for images over 4 GiB
  cd.writeUInt8(CS_SHA256_LEN, 36); // hashSize
  cd.writeUInt8(CS_HASHTYPE_SHA256, 37);
  cd.writeUInt8(PAGE_SHIFT, 39); // platform (38), spare2, scatterOffset, teamOffset, spare3: 0
  cd.writeBigUInt64BE(BigInt(m.text.fileoff), 64); // execSegBase
  cd.writeBigUInt64BE(BigInt(m.text.filesize), 72); // execSegLimit
  cd.writeBigUInt64BE(BigInt(m.filetype === MH_EXECUTE ? CS_EXECSEG_MAIN_BINARY : 0), 80);
  ident.copy(cd, CODE_DIRECTORY_SIZE);
  // Special slot -n is stored n hashes before hashOffset; -1 (Info.plist) stays zero.
  sha256(requirements).copy(cd, hashOffset - CSSLOT_REQUIREMENTS * CS_SHA256_LEN);
  for (let page = 0; page < nCodeSlots; page++) {
    const start = page * PAGE_SIZE;
    sha256(image.subarray(start, Math.min(start + PAGE_SIZE, codeLimit))).copy(cd, hashOffset + page * CS_SHA256_LEN);
  }

  const entries = [
    [CSSLOT_CODEDIRECTORY, cd],
    [CSSLOT_REQUIREMENTS, requirements],
    [CSSLOT_SIGNATURESLOT, cms],
  ];
  const index = Buffer.alloc(12 + entries.length * 8);
  let offset = index.length;
  entries.forEach(([type, b], i) => {
    index.writeUInt32BE(type, 12 + i * 8);
    index.writeUInt32BE(offset, 16 + i * 8);
    offset += b.length;
  });
  index.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, 0);
  index.writeUInt32BE(offset, 4);
  index.writeUInt32BE(entries.length, 8);
  return Buffer.concat([index, ...entries.map(([, b]) => b)]);
}

/**
 * Replaces the code signature of the Mach-O `file` (in place) with an ad-hoc one for `identifier`, or adds one
 * if it has none. Returns { codeLimit, signatureSize } (bytes: the signed range, and LC_CODE_SIGNATURE's datasize).
 */
function adHocSign(file, identifier) {
  if (!identifier || /\0/.test(identifier)) throw new Error('macho-sign: an identifier is required');
  const buf = fs.readFileSync(file);
  const m = parseMachO(buf, file);
  const dataoff = align(m.signature ? m.signature.dataoff : buf.length, 16);
  if (dataoff > 0xffffffff) throw new Error(`macho-sign: ${file}: over 4 GiB (codeLimit64 is not written)`);
  const datasize = align(signatureSize(dataoff, identifier), 16);

  let lc = m.signature && m.signature.offset;
  if (lc === undefined) {
    lc = MACH_HEADER_64_SIZE + m.sizeofcmds;
    const room = buf.subarray(lc, lc + LINKEDIT_DATA_COMMAND_SIZE);
    if (lc + LINKEDIT_DATA_COMMAND_SIZE > m.firstContent || room.some((b) => b !== 0))
      throw new Error(`macho-sign: ${file}: no room after the load commands for LC_CODE_SIGNATURE`);
    buf.writeUInt32LE(LC_CODE_SIGNATURE, lc);
    buf.writeUInt32LE(LINKEDIT_DATA_COMMAND_SIZE, lc + 4);
    buf.writeUInt32LE(m.ncmds + 1, 16);
    buf.writeUInt32LE(m.sizeofcmds + LINKEDIT_DATA_COMMAND_SIZE, 20);
  }
  buf.writeUInt32LE(dataoff, lc + 8);
  buf.writeUInt32LE(datasize, lc + 12);
  const linkeditSize = dataoff + datasize - m.linkedit.fileoff;
  buf.writeBigUInt64LE(BigInt(align(linkeditSize, VM_PAGE[m.cputype])), m.linkedit.offset + 32); // vmsize
  buf.writeBigUInt64LE(BigInt(linkeditSize), m.linkedit.offset + 48); // filesize

  // The signed image: the file up to dataoff (zero padding if the file ended before an aligned offset).
  const image = dataoff <= buf.length ? buf.subarray(0, dataoff) : Buffer.concat([buf, Buffer.alloc(dataoff - buf.length)]);
  const signature = Buffer.alloc(datasize);
  buildSignature(image, identifier, m).copy(signature);

  // Only the header and the tail change: write those rather than the whole file again.
  const fd = fs.openSync(file, 'r+');
  try {
    fs.writeSync(fd, buf, 0, MACH_HEADER_64_SIZE + buf.readUInt32LE(20), 0);
    fs.ftruncateSync(fd, dataoff);
    fs.writeSync(fd, signature, 0, signature.length, dataoff);
  } finally {
    fs.closeSync(fd);
  }
  return { codeLimit: dataoff, signatureSize: datasize };
}

module.exports = { adHocSign };
