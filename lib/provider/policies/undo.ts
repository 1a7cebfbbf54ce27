import { applyEdits, findBinding, hasMember, type PolicyEdit } from '../../iam/policy-edit';
import { IamValidationError } from '../../iam/errors';
import type { Policy } from '../../iam/types';
import { samePolicy } from './policy-compare';

/**
 * The edits that take back what `edits` changed in `before` (the policy as it
 * was just before them), and nothing else: a member added is removed, a
 * binding set gets its earlier members back (or goes, if it did not exist), a
 * policy's bindings and audit configs return to what they were. What `edits`
 * found already so is not theirs to undo and is left alone.
 */
export function undoEdits(before: Policy, edits: readonly PolicyEdit[]): PolicyEdit[] {
  return edits.flatMap((edit): PolicyEdit[] => {
    switch (edit.kind) {
      case 'addMember':
        return hasMember(before, edit.role, edit.member, edit.condition)
          ? []
          : [{ kind: 'removeMember', role: edit.role, member: edit.member, condition: edit.condition }];
      case 'removeMember':
        return hasMember(before, edit.role, edit.member, edit.condition)
          ? [{ kind: 'addMember', role: edit.role, member: edit.member, condition: edit.condition }]
          : [];
      case 'setBinding':
      case 'removeBinding': {
        const earlier = findBinding(before, edit.role, edit.condition);
        return earlier
          ? [{ kind: 'setBinding', role: edit.role, members: earlier.members ?? [], condition: edit.condition }]
          : [{ kind: 'removeBinding', role: edit.role, condition: edit.condition }];
      }
      case 'replaceBindings':
        return [{ kind: 'replaceBindings', bindings: (before.bindings ?? []).map((b) => ({ ...b, members: b.members ?? [] })) }];
      case 'replaceAuditConfigs':
        return [{ kind: 'replaceAuditConfigs', auditConfigs: before.auditConfigs ?? [] }];
    }
  });
}

/** Whether `edits` would change nothing in `policy`: what they declare is in effect there. */
export function editsInEffect(policy: Policy, edits: readonly PolicyEdit[]): boolean {
  try {
    return samePolicy(applyEdits(policy, edits), policy);
  } catch (error) {
    if (error instanceof IamValidationError) return false;
    throw error;
  }
}
