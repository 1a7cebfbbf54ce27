import { Unknown, type CtyObject, type CtyValue } from '../framework/cty';

/** Whether a value is known (null is known: an unset attribute). */
export function isKnown(value: CtyValue | undefined): boolean {
  return !(value instanceof Unknown);
}

/** A known string, else undefined (null and unknown alike). */
export function stringOf(value: CtyValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A known list or set of strings, else undefined. */
export function stringsOf(value: CtyValue | undefined): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

/** A known object, else undefined. */
export function objectOf(value: CtyValue | undefined): CtyObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Map) && !(value instanceof Unknown)
    ? (value as CtyObject)
    : undefined;
}

/** A known list of objects, else undefined. */
export function objectsOf(value: CtyValue | undefined): CtyObject[] | undefined {
  return Array.isArray(value) && value.every((v) => objectOf(v) !== undefined) ? (value as CtyObject[]) : undefined;
}

/** Structural equality of two values (unknowns are equal to nothing). */
export function sameValue(a: CtyValue | undefined, b: CtyValue | undefined): boolean {
  if (a instanceof Unknown || b instanceof Unknown) return false;
  if (a === b || ((a === null || a === undefined) && (b === null || b === undefined))) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  if (a instanceof Map || b instanceof Map) {
    return a instanceof Map && b instanceof Map && a.size === b.size && [...a].every(([k, v]) => sameValue(v, b.get(k)));
  }
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => sameValue((a as CtyObject)[k], (b as CtyObject)[k]));
}

/**
 * A value for lib's validators, which skip what `isKnown` says is unknown:
 * null (unset) becomes undefined, anything else (an Unknown included) is passed as it is.
 */
export function partial<T>(value: CtyValue | undefined): T {
  return (value === null ? undefined : value) as T;
}

/** `isKnown` for lib's validators, which take `unknown`. */
export const knownValue = (value: unknown): boolean => isKnown(value as CtyValue);
