import * as fs from 'fs';

/**
 * Writes `content` to `file` unless it already holds it, through a temporary
 * file and a rename, so that a Terraform running from an earlier install
 * never sees half a file; then sets `mode` if given.
 * @returns whether the file was written
 */
export function writeIfChanged(file: string, content: Buffer | string, mode?: number): boolean {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  let current: Buffer | undefined;
  try {
    current = fs.readFileSync(file);
  } catch {
    current = undefined;
  }
  const changed = !current || !current.equals(bytes);
  if (changed) {
    const temp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, bytes, { mode });
    fs.renameSync(temp, file);
  }
  if (mode !== undefined && (fs.statSync(file).mode & 0o777) !== mode) fs.chmodSync(file, mode);
  return changed;
}
