/**
 * Readers of the provider's native executables (Node.js single executable applications), for tests: which
 * format and architecture a file is, where `node --build-sea` put the application blob, whether the SEA fuse
 * is flipped, and (Mach-O) whether the ad-hoc code signature holds. Written from the format specifications
 * (ELF: the System V gABI; Mach-O: mach-o/loader.h and xnu's osfmk/kern/cs_blobs.h; PE: Microsoft's PE
 * format), independently of scripts/macho-sign.js, so that a misreading in the signer is not repeated here.
 *
 * Where Node.js 26's `--build-sea` puts the blob (checked on its output): ELF, a note owned by
 * "NODE_SEA_BLOB" (section .note.node.sea) in a PT_NOTE segment, which is what the runtime searches; Mach-O,
 * section __NODE_SEA_BLOB of a NODE_SEA segment added before __LINKEDIT (and the binary's LC_CODE_SIGNATURE
 * dropped); PE, an RCDATA resource named NODE_SEA_BLOB. The blob starts with Node's SEA magic, 0x0143da20.
 */
import { createHash } from 'crypto';

export type ExecutableFormat = 'elf' | 'macho' | 'pe';
export type ExecutableArch = 'amd64' | 'arm64';

/** The SEA fuse in Node's binary: ":0" as shipped, ":1" once an application blob is injected. */
export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** The first four bytes (little-endian) of a SEA blob: kMagic in Node's src/node_sea.h. */
export const SEA_BLOB_MAGIC = 0x0143da20;

export interface ExecutableDescription {
  readonly format: ExecutableFormat;
  readonly arch: ExecutableArch;
  /** Where the SEA blob is, how it is found, and whether it starts with the SEA magic; undefined if absent. */
  readonly seaBlob?: { readonly where: string; readonly offset: number; readonly size: number; readonly magic: boolean };
  /** 'flipped': only `<fuse>:1` in the file; 'unflipped': only `:0`. */
  readonly fuse: 'flipped' | 'unflipped' | 'absent' | 'both';
  /** PE only: 'console' (IMAGE_SUBSYSTEM_WINDOWS_CUI), 'gui', or the number. */
  readonly subsystem?: string;
  /** Mach-O only: the LC_CODE_SIGNATURE's data, if there is one. */
  readonly codeSignature?: { readonly dataoff: number; readonly datasize: number };
}

function describeFuse(buf: Buffer): ExecutableDescription['fuse'] {
  const on = buf.includes(`${SEA_FUSE}:1`);
  const off = buf.includes(`${SEA_FUSE}:0`);
  return on && off ? 'both' : on ? 'flipped' : off ? 'unflipped' : 'absent';
}

function blobAt(buf: Buffer, where: string, offset: number, size: number): ExecutableDescription['seaBlob'] {
  return { where, offset, size, magic: size >= 4 && buf.readUInt32LE(offset) === SEA_BLOB_MAGIC };
}

/** Format, architecture, SEA blob and fuse of an executable's bytes; throws if it is none of ELF, Mach-O, PE. */
export function describeExecutable(buf: Buffer): ExecutableDescription {
  if (buf.readUInt32BE(0) === 0x7f454c46) return describeElf(buf);
  if (buf.readUInt32LE(0) === 0xfeedfacf) return describeMachO(buf);
  if (buf.toString('latin1', 0, 2) === 'MZ') return describePe(buf);
  throw new Error(`not an ELF, 64-bit Mach-O or PE file (starts ${buf.subarray(0, 4).toString('hex')})`);
}

function describeElf(buf: Buffer): ExecutableDescription {
  if (buf[4] !== 2 || buf[5] !== 1) throw new Error('ELF: not 64-bit little-endian');
  const machine = buf.readUInt16LE(18);
  const arch = ({ 62: 'amd64', 183: 'arm64' } as Record<number, ExecutableArch>)[machine];
  if (!arch) throw new Error(`ELF: e_machine ${machine} is neither x86-64 (62) nor AArch64 (183)`);
  const phoff = Number(buf.readBigUInt64LE(32));
  const phentsize = buf.readUInt16LE(54);
  let seaBlob: ExecutableDescription['seaBlob'];
  for (let i = 0, n = buf.readUInt16LE(56); i < n; i++) {
    const ph = phoff + i * phentsize;
    if (buf.readUInt32LE(ph) !== 4) continue; // PT_NOTE
    const start = Number(buf.readBigUInt64LE(ph + 8));
    const end = start + Number(buf.readBigUInt64LE(ph + 32));
    // Elf64_Nhdr: namesz, descsz, type; name and desc each padded to 4 bytes.
    for (let note = start; note + 12 <= end;) {
      const namesz = buf.readUInt32LE(note);
      const descsz = buf.readUInt32LE(note + 4);
      const name = buf.toString('latin1', note + 12, note + 12 + namesz).replace(/\0+$/, '');
      const desc = note + 12 + align4(namesz);
      if (name === 'NODE_SEA_BLOB') seaBlob = blobAt(buf, 'PT_NOTE note NODE_SEA_BLOB', desc, descsz);
      note = desc + align4(descsz);
    }
  }
  return { format: 'elf', arch, seaBlob, fuse: describeFuse(buf) };
}

const align4 = (n: number) => (n + 3) & ~3;
const cString = (buf: Buffer, start: number, end: number) => buf.toString('latin1', start, end).replace(/\0.*$/s, '');

interface MachOSegment {
  readonly name: string;
  readonly command: number;
  readonly fileoff: number;
  readonly filesize: number;
  readonly vmsize: number;
  readonly sections: { readonly name: string; readonly offset: number; readonly size: number }[];
}

interface MachO {
  readonly cputype: number;
  readonly filetype: number;
  readonly segments: MachOSegment[];
  readonly codeSignature?: { readonly dataoff: number; readonly datasize: number };
}

function readMachO(buf: Buffer): MachO {
  const segments: MachOSegment[] = [];
  let codeSignature: MachO['codeSignature'];
  let at = 32; // mach_header_64
  for (let i = 0, n = buf.readUInt32LE(16); i < n; i++) {
    const cmd = buf.readUInt32LE(at);
    if (cmd === 0x19) {
      // LC_SEGMENT_64 (72 bytes), then nsects section_64 (80 bytes each)
      const sections = [];
      for (let s = 0, ns = buf.readUInt32LE(at + 64); s < ns; s++) {
        const sec = at + 72 + s * 80;
        sections.push({
          name: cString(buf, sec, sec + 16),
          offset: buf.readUInt32LE(sec + 48),
          size: Number(buf.readBigUInt64LE(sec + 40)),
        });
      }
      segments.push({
        name: cString(buf, at + 8, at + 24),
        command: at,
        vmsize: Number(buf.readBigUInt64LE(at + 32)),
        fileoff: Number(buf.readBigUInt64LE(at + 40)),
        filesize: Number(buf.readBigUInt64LE(at + 48)),
        sections,
      });
    } else if (cmd === 0x1d) {
      // LC_CODE_SIGNATURE: linkedit_data_command
      codeSignature = { dataoff: buf.readUInt32LE(at + 8), datasize: buf.readUInt32LE(at + 12) };
    }
    at += buf.readUInt32LE(at + 4);
  }
  return { cputype: buf.readUInt32LE(4), filetype: buf.readUInt32LE(12), segments, codeSignature };
}

function describeMachO(buf: Buffer): ExecutableDescription {
  const macho = readMachO(buf);
  const arch = ({ 0x01000007: 'amd64', 0x0100000c: 'arm64' } as Record<number, ExecutableArch>)[macho.cputype];
  if (!arch) throw new Error(`Mach-O: cputype 0x${macho.cputype.toString(16)} is neither x86_64 nor arm64`);
  const section = macho.segments.find((s) => s.name === 'NODE_SEA')?.sections.find((s) => s.name === '__NODE_SEA_BLOB');
  return {
    format: 'macho',
    arch,
    seaBlob: section && blobAt(buf, 'NODE_SEA,__NODE_SEA_BLOB', section.offset, section.size),
    fuse: describeFuse(buf),
    codeSignature: macho.codeSignature,
  };
}

function describePe(buf: Buffer): ExecutableDescription {
  const pe = buf.readUInt32LE(0x3c);
  if (buf.toString('latin1', pe, pe + 4) !== 'PE\0\0') throw new Error('PE: no PE\\0\\0 signature at e_lfanew');
  const machine = buf.readUInt16LE(pe + 4);
  const arch = ({ 0x8664: 'amd64', 0xaa64: 'arm64' } as Record<number, ExecutableArch>)[machine];
  if (!arch) throw new Error(`PE: machine 0x${machine.toString(16)} is neither AMD64 nor ARM64`);
  const sectionCount = buf.readUInt16LE(pe + 6);
  const optional = pe + 24;
  if (buf.readUInt16LE(optional) !== 0x20b) throw new Error('PE: not PE32+');
  const subsystemNumber = buf.readUInt16LE(optional + 68);
  const subsystem = ({ 2: 'gui', 3: 'console' } as Record<number, string>)[subsystemNumber] ?? String(subsystemNumber);
  // Data directory 2 (resources), after PE32+'s 112 bytes of fields; section headers after the optional header.
  const resourceRva = buf.readUInt32LE(optional + 112 + 2 * 8);
  const sections = optional + buf.readUInt16LE(pe + 20);
  const fileOffset = (rva: number) => {
    for (let i = 0; i < sectionCount; i++) {
      const sh = sections + i * 40;
      const va = buf.readUInt32LE(sh + 12);
      if (rva >= va && rva < va + Math.max(buf.readUInt32LE(sh + 8), buf.readUInt32LE(sh + 16)))
        return rva - va + buf.readUInt32LE(sh + 20);
    }
    throw new Error(`PE: RVA 0x${rva.toString(16)} is in no section`);
  };
  let seaBlob: ExecutableDescription['seaBlob'];
  if (resourceRva) {
    const root = fileOffset(resourceRva);
    // IMAGE_RESOURCE_DIRECTORY (16 bytes, then named then ID entries of 8 bytes); offsets are from the root, the
    // high bit of an entry's offset marks a subdirectory, of its name an IMAGE_RESOURCE_DIR_STRING_U.
    const entries = (dir: number) => {
      const count = buf.readUInt16LE(dir + 12) + buf.readUInt16LE(dir + 14);
      return Array.from({ length: count }, (_, i) => {
        const name = buf.readUInt32LE(dir + 16 + i * 8);
        const target = buf.readUInt32LE(dir + 20 + i * 8);
        const label =
          name & 0x80000000
            ? buf.toString(
                'utf16le',
                root + (name & 0x7fffffff) + 2,
                root + (name & 0x7fffffff) + 2 + 2 * buf.readUInt16LE(root + (name & 0x7fffffff)),
              )
            : name;
        return { label, subdirectory: (target & 0x80000000) !== 0, at: root + (target & 0x7fffffff) };
      });
    };
    const rcdata = entries(root).find((e) => e.label === 10 && e.subdirectory); // RT_RCDATA
    const named = rcdata && entries(rcdata.at).find((e) => e.label === 'NODE_SEA_BLOB' && e.subdirectory);
    const language = named && entries(named.at).find((e) => !e.subdirectory);
    if (language) {
      // IMAGE_RESOURCE_DATA_ENTRY: data RVA, size
      const data = fileOffset(buf.readUInt32LE(language.at));
      seaBlob = blobAt(buf, 'RT_RCDATA resource NODE_SEA_BLOB', data, buf.readUInt32LE(language.at + 4));
    }
  }
  return { format: 'pe', arch, seaBlob, subsystem, fuse: describeFuse(buf) };
}

/** The SEA blob's bytes (a view into `buf`); throws if there is none. */
export function seaBlobOf(buf: Buffer): Buffer {
  const blob = describeExecutable(buf).seaBlob;
  if (!blob) throw new Error('no SEA blob');
  return buf.subarray(blob.offset, blob.offset + blob.size);
}

export interface SignatureReport {
  readonly identifier?: string;
  readonly codeLimit?: number;
  readonly pages?: number;
  /** Everything that does not hold (empty: the ad-hoc signature is valid); page mismatches as "page N: ...". */
  readonly problems: string[];
}

/**
 * Checks a Mach-O's ad-hoc signature as the kernel would: LC_CODE_SIGNATURE at the end of __LINKEDIT, its
 * SuperBlob (CSMAGIC_EMBEDDED_SIGNATURE, big-endian) with one SHA-256 CodeDirectory flagged CS_ADHOC whose
 * code slots hash every 4 KiB page up to the signature (codeLimit), an empty Requirements blob whose hash is
 * in special slot -2, an empty CMS wrapper, and the executable segment (__TEXT) recorded.
 */
export function verifyAdHocSignature(buf: Buffer): SignatureReport {
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => {
    if (!ok) problems.push(problem);
    return ok;
  };
  const macho = readMachO(buf);
  const sig = macho.codeSignature;
  if (!check(sig !== undefined, 'no LC_CODE_SIGNATURE')) return { problems };
  const { dataoff, datasize } = sig!;
  const linkedit = macho.segments.find((s) => s.name === '__LINKEDIT');
  const text = macho.segments.find((s) => s.name === '__TEXT');
  if (!check(linkedit !== undefined && text !== undefined, 'no __LINKEDIT or __TEXT')) return { problems };
  check(dataoff % 16 === 0, `signature offset ${dataoff} is not 16-byte aligned`);
  check(linkedit!.fileoff + linkedit!.filesize === dataoff + datasize, '__LINKEDIT does not end with the signature');
  check(buf.length === dataoff + datasize, `file is ${buf.length} bytes, the signature ends at ${dataoff + datasize}`);
  check(linkedit!.vmsize >= linkedit!.filesize, '__LINKEDIT vmsize is below its filesize');
  if (!check(dataoff + datasize <= buf.length, 'signature past the end of the file')) return { problems };

  const superBlob = buf.subarray(dataoff, dataoff + datasize);
  if (!check(superBlob.readUInt32BE(0) === 0xfade0cc0, 'no CSMAGIC_EMBEDDED_SIGNATURE')) return { problems };
  check(superBlob.readUInt32BE(4) <= datasize, 'SuperBlob longer than LC_CODE_SIGNATURE datasize');
  const slots = new Map<number, Buffer>();
  for (let i = 0, n = superBlob.readUInt32BE(8); i < n; i++) {
    const offset = superBlob.readUInt32BE(16 + i * 8);
    slots.set(superBlob.readUInt32BE(12 + i * 8), superBlob.subarray(offset, offset + superBlob.readUInt32BE(offset + 4)));
  }
  const cd = slots.get(0); // CSSLOT_CODEDIRECTORY
  const requirements = slots.get(2); // CSSLOT_REQUIREMENTS
  const cms = slots.get(0x10000); // CSSLOT_SIGNATURESLOT
  check(requirements?.toString('hex') === 'fade0c010000000c00000000', 'Requirements blob missing or not empty');
  check(cms?.toString('hex') === 'fade0b0100000008', 'CMS blob wrapper missing or not empty (ad-hoc)');
  if (!check(cd?.readUInt32BE(0) === 0xfade0c02, 'no CodeDirectory')) return { problems };

  const version = cd!.readUInt32BE(8);
  const hashOffset = cd!.readUInt32BE(16);
  const identifier = cString(cd!, cd!.readUInt32BE(20), cd!.length);
  const nSpecialSlots = cd!.readUInt32BE(24);
  const pages = cd!.readUInt32BE(28);
  const codeLimit = cd!.readUInt32BE(32);
  const hashSize = cd![36];
  check(version >= 0x20400, `CodeDirectory version 0x${version.toString(16)} has no execSeg fields`);
  check((cd!.readUInt32BE(12) & 0x2) !== 0, 'CodeDirectory flags lack CS_ADHOC');
  check(hashSize === 32 && cd![37] === 2, 'CodeDirectory hash is not SHA-256');
  check(cd![39] === 12, `CodeDirectory page size is 2^${cd![39]}, not 4096`);
  check(codeLimit === dataoff, `codeLimit ${codeLimit} is not the signature offset ${dataoff}`);
  check(pages === Math.ceil(codeLimit / 4096), `${pages} code slots for ${codeLimit} bytes`);
  check(version < 0x20200 || cd!.readUInt32BE(48) === 0, 'ad-hoc signature with a team identifier');
  if (version >= 0x20400) {
    check(Number(cd!.readBigUInt64BE(64)) === text!.fileoff, 'execSegBase is not __TEXT');
    check(Number(cd!.readBigUInt64BE(72)) === text!.filesize, 'execSegLimit is not the size of __TEXT');
    // CS_EXECSEG_MAIN_BINARY, for an MH_EXECUTE
    check(macho.filetype !== 2 || (cd!.readBigUInt64BE(80) & 1n) === 1n, 'execSegFlags lack CS_EXECSEG_MAIN_BINARY');
  }
  const slot = (index: number) => cd!.subarray(hashOffset + index * hashSize, hashOffset + (index + 1) * hashSize);
  const sha256 = (data: Buffer) => createHash('sha256').update(data).digest();
  if (check(nSpecialSlots >= 2, `${nSpecialSlots} special slots: none for the requirements`) && requirements)
    check(slot(-2).equals(sha256(requirements)), 'special slot -2 is not the Requirements blob hash');
  for (let page = 0; page < pages; page++) {
    const hash = sha256(buf.subarray(page * 4096, Math.min((page + 1) * 4096, codeLimit)));
    check(slot(page).equals(hash), `page ${page}: hash mismatch`);
  }
  return { identifier, codeLimit, pages, problems };
}
