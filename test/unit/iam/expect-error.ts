import { IamValidationError } from '../../../lib/iam/errors';

/** Returns the IamValidationError a call throws; fails when it throws nothing or something else. */
export function validationError(call: () => unknown): IamValidationError {
  try {
    call();
  } catch (e) {
    if (e instanceof IamValidationError) return e;
    throw e;
  }
  throw new Error('expected an IamValidationError, but nothing was thrown');
}
