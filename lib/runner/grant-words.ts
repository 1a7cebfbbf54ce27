import { grantMembers, type Grant, type GrantAction } from '../iam/grant';

/** "add user:a", "set the members to [...]", … */
export function grantVerb(grant: Grant, action: GrantAction): string {
  const members = grantMembers(grant).join(', ');
  switch (grant.mode) {
    case 'member':
      return action === 'apply' ? `add ${members}` : `remove ${members}`;
    case 'binding':
      return action === 'apply' ? `set the members to [${members}]` : 'remove the binding';
    case 'policy':
      return action === 'apply' ? `set the policy's ${grant.bindings.length} bindings` : 'remove the declared bindings';
  }
}

/** "added user:a", "user:a was already granted", … */
export function grantDone(grant: Grant, action: GrantAction, changed: boolean): string {
  const members = grantMembers(grant).join(', ');
  switch (grant.mode) {
    case 'member':
      if (action === 'apply') return changed ? `added ${members}` : `${members} was already granted`;
      return changed ? `removed ${members}` : `${members} was already absent`;
    case 'binding':
      if (action === 'apply') return changed ? `members set to [${members}]` : `members already [${members}]`;
      return changed ? 'binding removed' : 'binding was already absent';
    case 'policy':
      if (action === 'apply')
        return changed ? `bindings set (${grant.bindings.length})` : `bindings already as declared (${grant.bindings.length})`;
      return changed ? 'declared bindings removed' : 'declared bindings were already absent';
  }
}
