import { BindingIdentity } from '../../iam/identity';
import type { PolicyEdit } from '../../iam/policy-edit';
import { comparisonKey } from '../../iam/principal';

/**
 * What one provider process has granted on one policy during its run: the
 * members its creates and updates added, and the bindings they set. Within
 * one apply, a grant the configuration declares at one address must survive
 * the delete of the same grant at another (a literal turned into a
 * reference, a `create_before_destroy` replacement), whichever of the two
 * Terraform runs first; so a delete's removals leave alone what was granted
 * here. A later create or update supersedes what an earlier one recorded.
 */
export class GrantedHere {
  /** Binding key (role and condition) → comparison keys of the members added. */
  private readonly members = new Map<string, Set<string>>();
  /** Binding key → comparison keys of the members a binding was set to. */
  private readonly bindings = new Map<string, Set<string>>();

  /** Records the edits of a create or update that Google took. */
  public record(edits: readonly PolicyEdit[]): void {
    for (const edit of edits) {
      if (edit.kind === 'replaceBindings' || edit.kind === 'replaceAuditConfigs') continue;
      const key = BindingIdentity.of(edit.role, edit.condition).key;
      if (edit.kind === 'addMember') this.membersOf(key).add(comparisonKey(edit.member));
      else if (edit.kind === 'removeMember') this.members.get(key)?.delete(comparisonKey(edit.member));
      else if (edit.kind === 'setBinding') this.bindings.set(key, new Set(edit.members.map(comparisonKey)));
      else {
        this.bindings.delete(key);
        this.members.delete(key);
      }
    }
  }

  /** A delete's edits without the removals that would take away what was granted here. */
  public keep(edits: readonly PolicyEdit[]): PolicyEdit[] {
    return edits.filter((edit) => {
      if (edit.kind === 'removeMember') {
        const key = BindingIdentity.of(edit.role, edit.condition).key;
        const member = comparisonKey(edit.member);
        return !(this.members.get(key)?.has(member) || this.bindings.get(key)?.has(member));
      }
      if (edit.kind === 'removeBinding') {
        const key = BindingIdentity.of(edit.role, edit.condition).key;
        return !this.bindings.has(key) && !(this.members.get(key)?.size ?? 0);
      }
      return true;
    });
  }

  private membersOf(key: string): Set<string> {
    let members = this.members.get(key);
    if (!members) this.members.set(key, (members = new Set()));
    return members;
  }
}
