/**
 * Readers for JSON from Google APIs: a missing or mistyped field becomes the
 * empty value of its type, and fields nobody asked for are simply not read,
 * so new API fields never break a lookup.
 */
export type WireObject = Readonly<Record<string, unknown>>;

/** An object, or `{}` for anything else. */
export function wireObject(value: unknown): WireObject {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as WireObject) : {};
}

/** A string, or `''` for anything else. */
export function wireString(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Numbers may arrive as JSON numbers or, for 64-bit fields, as strings. */
export function wireNumber(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : 0;
}

/** `true` only for `true`. */
export function wireBoolean(value: unknown): boolean {
  return value === true;
}

/** A list with each item mapped, or `[]` for anything else. */
export function wireList<T>(value: unknown, map: (item: unknown) => T): T[] {
  return Array.isArray(value) ? value.map(map) : [];
}

/** The string-valued entries of an object (a map of labels, say). */
export function wireStringMap(value: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(wireObject(value)).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/** An optional nested message: undefined when absent, mapped otherwise. */
export function wireOptional<T>(value: unknown, map: (item: unknown) => T): T | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? map(value) : undefined;
}
