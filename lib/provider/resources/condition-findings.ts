import { checkGrantConditions } from '../../iam/condition';
import type { Grant } from '../../iam/grant';
import { IamValidationError } from '../../iam/errors';
import { attributePath } from '../errors';
import { knownValue } from '../framework/cty-values';
import type { Diagnostics } from '../framework/diagnostics';

/**
 * The warnings of a grant's conditions (lib/iam/condition.ts: what Google may
 * refuse although its attribute reference does not make it certain, e.g. an
 * `api.getAttribute` key it does not document), as the constructs report them
 * at synth. What Google refuses for certain is one of the grant's refusals
 * (validateGrantValues). Reported inside a plan or apply walk
 * (`providerConfigured`) only, as the role warnings are (role-findings.ts):
 * Terraform would print a warning of both validations twice.
 */
export function reportConditionWarnings(diagnostics: Diagnostics, grant: Grant, providerConfigured: boolean): void {
  if (!providerConfigured) return;
  for (const warning of checkGrantConditions(grant, knownValue)) {
    diagnostics.warning(
      'IAM condition Google may refuse',
      `${warning.field}: ${warning.reason} (got ${IamValidationError.show(warning.expression)})`,
      attributePath(warning.field),
    );
  }
}
