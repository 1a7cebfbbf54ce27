import type { IConstruct } from 'constructs';
import { checkConditionAllowed, validateCondition } from '../iam/condition';
import { IamValidationError } from '../iam/errors';
import type { Grant } from '../iam/grant';
import { parseGrantPrincipal } from '../iam/principal';
import { validateRole } from '../iam/role';
import type { ConditionInput } from '../iam/types';
import { checkAt } from '../synth/errors';
import { isKnown } from '../synth/known-values';

/**
 * Checks what is known at synth of a grant's roles, principals and
 * conditions; values that are Terraform tokens are left for Google to check
 * at apply time. Errors name the construct path and the props field.
 */
export function validateGrant(scope: IConstruct, grant: Grant): void {
  switch (grant.mode) {
    case 'member':
      validateBinding(scope, grant.role, [grant.member], grant.condition, { prefix: '', members: 'member', member: () => 'member' });
      return;
    case 'binding':
      validateBinding(scope, grant.role, grant.members, grant.condition, { prefix: '', members: 'members', member: (i) => `members[${i}]` });
      return;
    case 'policy':
      grant.bindings.forEach((binding, i) => {
        const prefix = `bindings[${i}].`;
        validateBinding(scope, binding.role, binding.members, binding.condition, { prefix, members: `${prefix}members`, member: (j) => `${prefix}members[${j}]` });
      });
      return;
  }
}

interface Fields {
  readonly prefix: string;
  readonly members: string;
  readonly member: (index: number) => string;
}

function validateBinding(scope: IConstruct, role: string, members: readonly string[], condition: ConditionInput | undefined, fields: Fields): void {
  if (isKnown(role)) checkAt(scope, () => validateRole(role, `${fields.prefix}role`));
  if (isKnown(members)) {
    if (members.length === 0) checkAt(scope, () => { throw new IamValidationError(fields.members, members, 'must list at least one principal'); });
    members.forEach((member, i) => {
      if (isKnown(member)) checkAt(scope, () => parseGrantPrincipal(member, fields.member(i)));
    });
  }
  if (!condition) return;
  checkAt(scope, () => validateCondition(condition, `${fields.prefix}condition`, isKnown));
  if (isKnown(role) && isKnown(members) && members.every(isKnown)) {
    checkAt(scope, () => checkConditionAllowed(role, members, `${fields.prefix}condition`));
  }
}
