/**
 * The one error type of the IAM domain: what was wrong (`field`), with which
 * value, and why. Constructs prefix it with their construct path; the runner
 * prints it as is.
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

  /** A value as messages quote it: strings in JSON quotes, anything else as JSON where possible. */
  public static show(value: unknown): string {
    if (typeof value === 'string') return JSON.stringify(value);
    try {
      return JSON.stringify(value) ?? String(value);
    } catch {
      return String(value);
    }
  }
}
