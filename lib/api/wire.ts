/**
 * Readers for JSON from Google APIs. A field Google did not send reads as
 * `undefined` (null in Terraform), never as an empty value: absent and empty
 * stay apart, as terraform-plugin-framework providers keep them. A value of
 * the wrong type reads as absent too, and fields nobody asked for are simply
 * not read, so new API fields never break a lookup.
 */
export type WireObject = Readonly<Record<string, unknown>>;

/** An object, or `{}` for anything else: what a message's fields are read from. */
export function wireObject(value: unknown): WireObject {
  return isMessage(value) ? (value as WireObject) : {};
}

/** A string; undefined for anything else. */
export function wireString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Numbers may arrive as JSON numbers or, for 64-bit fields, as strings; undefined for anything else. */
export function wireNumber(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** A boolean; undefined for anything else. */
export function wireBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** A list with each item mapped; undefined for anything else. */
export function wireList<T>(value: unknown, map: (item: unknown) => T): T[] | undefined {
  return Array.isArray(value) ? value.map(map) : undefined;
}

/** The strings of a list (other items are left out); undefined when it is not a list. */
export function wireStringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

/** The string-valued entries of an object (a map of labels, say); undefined when it is not an object. */
export function wireStringMap(value: unknown): Record<string, string> | undefined {
  if (!isMessage(value)) return undefined;
  return Object.fromEntries(Object.entries(value as WireObject).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/** A nested message, mapped; undefined when absent. */
export function wireMessage<T>(value: unknown, map: (message: WireObject) => T): T | undefined {
  return isMessage(value) ? map(value as WireObject) : undefined;
}

/**
 * `value` as JSON text in which every field the mappers read but Google did
 * not send is `null` (they hold it as `undefined`, which JSON.stringify would
 * drop): a Terraform expression can then test `x.csvError == null` instead of
 * failing on a missing attribute.
 */
export function jsonWithNulls(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (v === undefined ? null : v));
}

function isMessage(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
