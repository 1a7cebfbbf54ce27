/**
 * The library's generated data files (scripts/generate-roles.js) hold their
 * table compressed: it ships twice (in lib/ and in the provider's bundle), and
 * brotli makes it a third of its size. Decompressed on first use only.
 */

/** A data file: its table as JSON, brotli-compressed, in base64, beside its source. */
export interface PackedTable {
  readonly source: string;
  readonly table: string;
}

/* eslint-disable @typescript-eslint/no-require-imports */
/** The table `file` holds. */
export function unpackTable<T>(file: PackedTable): T {
  // zlib is loaded here, not with the module: requiring the library stays as cheap as before.
  const zlib = require('zlib') as typeof import('zlib');
  return JSON.parse(zlib.brotliDecompressSync(Buffer.from(file.table, 'base64')).toString('utf8')) as T;
}
/* eslint-enable @typescript-eslint/no-require-imports */
