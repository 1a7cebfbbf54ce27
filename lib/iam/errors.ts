import { formatCount } from './format';

/** A list longer than this is summarized in messages: its length and its first values. */
const MAX_LISTED = 5;
/** How many values the summary of a long list shows. */
const SHOWN_OF_LONG_LIST = 3;

/**
 * The one error type of the IAM domain: what was wrong (`field`), with which
 * value, and why. Constructs prefix it with their construct path; the
 * provider reports it as a diagnostic on the attribute.
 */
export class IamValidationError extends Error {
  /** The field that is wrong, e.g. `members[2]` or `condition.expression`. */
  public readonly field: string;
  /** The value that was given. */
  public readonly value: unknown;
  /** Why it is wrong, and what is expected instead. */
  public readonly reason: string;

  constructor(field: string, value: unknown, reason: string) {
    super(`${field}: ${reason} (got ${IamValidationError.show(value)})`);
    this.name = 'IamValidationError';
    this.field = field;
    this.value = value;
    this.reason = reason;
  }

  /**
   * A value as messages quote it: strings in JSON quotes, anything else as
   * JSON where possible. A long list is summarized, `1,600 values, the first
   * 3: "a", "b", "c"` (nested: its first values and `… 1,597 more`), so
   * that a list over a limit does not become a line of thousands of characters.
   */
  public static show(value: unknown): string {
    if (typeof value === 'string') return JSON.stringify(value);
    if (Array.isArray(value) && value.length > MAX_LISTED) {
      const first = value.slice(0, SHOWN_OF_LONG_LIST).map((item) => IamValidationError.show(item));
      return `${formatCount(value.length)} values, the first ${SHOWN_OF_LONG_LIST}: ${first.join(', ')}`;
    }
    try {
      return JSON.stringify(value, summarizeNestedLists) ?? String(value);
    } catch {
      return String(value);
    }
  }
}

function summarizeNestedLists(_key: string, value: unknown): unknown {
  if (!Array.isArray(value) || value.length <= MAX_LISTED) return value;
  return [...value.slice(0, SHOWN_OF_LONG_LIST), `… ${formatCount(value.length - SHOWN_OF_LONG_LIST)} more`];
}
