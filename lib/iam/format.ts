/** Small text helpers shared by the validation messages of the IAM domain. */

/** `1501` → `"1,501"`: counts in messages read like Google's documentation. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** Quotes a value for a message the way the error type prints values. */
export function quote(value: string): string {
  return JSON.stringify(value);
}

/** True when the string holds any whitespace (space, tab, newline, ...). */
export function hasWhitespace(value: string): boolean {
  return /\s/.test(value);
}
