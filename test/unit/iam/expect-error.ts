import { IamValidationError } from '../../../lib/iam/errors';
import { thrownBy } from '../../support/rejection';

/** Returns the IamValidationError a call throws; fails when it throws nothing or something else. */
export function validationError(call: () => unknown): IamValidationError {
  return thrownBy(call, IamValidationError);
}
