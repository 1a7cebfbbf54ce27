import { Unknown, type CtyObject, type CtyValue } from './cty';

/** Whether a value is known (null is known: an unset attribute). */
export function isKnown(value: CtyValue | undefined): boolean {
  return !(value instanceof Unknown);
}

/** A known string, else undefined (null and unknown alike). */
export function stringOf(value: CtyValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A known object, else undefined. */
export function objectOf(value: CtyValue | undefined): CtyObject | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Map) && !(value instanceof Unknown)
    ? value
    : undefined;
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
