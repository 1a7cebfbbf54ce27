import type { IConstruct } from 'constructs';
import { IamValidationError } from '../iam/errors';
import { callerField, callerShapes } from './caller-language';

/**
 * A synth-time error of a construct or lookup: the construct path (or the
 * method), the field and the offending value, and why. Every construct and
 * lookup throws this type, so tests and callers can tell a validation error
 * from any other; the message is worded in one place.
 *
 * TypeScript/JavaScript only (jsii cannot represent a subclass of the
 * built-in `Error`): other languages get the same message in the error
 * their jsii runtime raises.
 *
 * @jsii ignore extends the built-in Error
 */
export class ConstructValidationError extends Error {
  constructor(
    /** Construct path, or `GoogleLookups.<method>` for the Direct-form lookups. */
    public readonly where: string,
    /** The property or argument that is wrong, e.g. `member` or `condition.expression`. */
    public readonly field: string,
    /** The value that was given. */
    public readonly value: unknown,
    /** Why it is wrong, and what is expected instead. */
    public readonly reason: string,
  ) {
    super(validationMessage(where, field, value, reason));
    this.name = 'ConstructValidationError';
  }
}

/**
 * `stack/Grant: member: <reason> (got "value")`: the text of every validation error and warning, the field
 * spelt as the calling language spells it (`condition.expression`, Python's `options_requested_policy_version`).
 */
export function validationMessage(where: string | IConstruct, field: string, value: unknown, reason: string): string {
  const place = typeof where === 'string' ? where : where.node.path;
  return `${place}: ${callerField(field)}: ${callerShapes(reason)} (got ${IamValidationError.show(value)})`;
}

/** Runs `check`; an IamValidationError from the IAM domain becomes a ConstructValidationError at `where`. */
export function checkAt<T>(where: string | IConstruct, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof IamValidationError)) throw error;
    throw new ConstructValidationError(typeof where === 'string' ? where : where.node.path, error.field, error.value, error.reason);
  }
}
