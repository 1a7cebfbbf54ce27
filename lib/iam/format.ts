/** Small text helpers shared by the validation messages of the IAM domain. */

/** `1501` → `"1,501"`: counts in messages read like Google's documentation. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** `counted(1, 'grant')` → `1 grant`, `counted(2, 'principal')` → `2 principals`; `plural` for the irregular ones. */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}

/** Quotes a value for a message the way the error type prints values. */
export function quote(value: string): string {
  return JSON.stringify(value);
}

/** True when the string holds any whitespace (space, tab, newline, ...). */
export function hasWhitespace(value: string): boolean {
  return /\s/.test(value);
}
