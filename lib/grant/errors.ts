import type { IConstruct } from 'constructs';
import { IamValidationError } from '../iam/errors';

/**
 * Every synth-time error of a grant names the construct path, the field and
 * the offending value; this is the one place that words them.
 */
export function validationMessage(scope: IConstruct, field: string, value: unknown, reason: string): string {
  return `${scope.node.path}: ${field}: ${reason} (got ${show(value)})`;
}

/** Runs `check`; an IamValidationError becomes an Error that names the construct path. */
export function checkAt<T>(scope: IConstruct, fieldPrefix: string | undefined, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof IamValidationError)) throw error;
    const field = fieldPrefix && !error.field.startsWith(fieldPrefix) ? `${fieldPrefix}.${error.field}` : error.field;
    throw new Error(validationMessage(scope, field, error.value, error.reason));
  }
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
