/**
 * A value made fit for the log: sensitive attributes (credentials, tokens)
 * replaced, unknowns named, maps as plain objects. Nothing else of a
 * configuration or a state is ever logged.
 */
import { Unknown, type CtyObject, type CtyValue } from '../framework/cty';
import type { Attribute } from '../framework/schema';

export const REDACTED = '(sensitive value)';

/** `value` (an object of `attributes`) as JSON-ready data, every sensitive attribute that is set replaced by REDACTED. */
export function redact(value: CtyObject | null, attributes: readonly Attribute[]): unknown {
  if (value === null) return null;
  const out: Record<string, unknown> = {};
  for (const attribute of attributes) {
    const v = value[attribute.name] ?? null;
    if (attribute.sensitive && v !== null) out[attribute.name] = REDACTED;
    else if (attribute.nested) out[attribute.name] = nested(v, attribute.nested.attributes);
    else out[attribute.name] = plain(v);
  }
  return out;
}

function nested(value: CtyValue, attributes: readonly Attribute[]): unknown {
  if (Array.isArray(value)) return value.map((element) => nested(element, attributes));
  if (value === null || value instanceof Unknown || typeof value !== 'object' || value instanceof Map) return plain(value);
  return redact(value, attributes);
}

function plain(value: CtyValue): unknown {
  if (value instanceof Unknown) return '(known after apply)';
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}
