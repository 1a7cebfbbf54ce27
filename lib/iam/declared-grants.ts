import { BindingIdentity } from './identity';
import type { PolicyEdit } from './policy-edit';
import { comparisonKey } from './principal';

/**
 * What the configuration declares on one policy, as far as one run has
 * seen it: the members every create and update of the run grants, by
 * binding (role + condition). Terraform sends the changes of one apply in an
 * order nobody controls (a grant moved to another address, or to another
 * kind of grant, is a delete at the old one and a create or update at the
 * new one, in either order, together or apart), so a removal never takes
 * away what the run declares: whichever comes second, the declared grant is
 * what remains.
 *
 * It only grows: every create and update of one run is part of the
 * configuration being applied, and a removal (a delete, or the old values of
 * an update) is never a declaration. What the run leaves as it is counts as
 * declared too: an unchanged resource may hold a grant that the delete of an
 * old address also names (left behind by `-target`, or by a failed delete).
 * The provider hears of those from the plan walk, or, in the apply of a
 * saved plan, from the plan file (lib/provider/protocol/saved-plan.ts).
 */
export class DeclaredGrants {
  /** Binding key → the declared members, by comparison key (emails compare case-insensitively), as first spelled. */
  private readonly bindings = new Map<string, Map<string, string>>();

  /** A copy that also declares what `edits` grant (for one batch, before Google has taken it). */
  public with(edits: readonly PolicyEdit[]): DeclaredGrants {
    const copy = new DeclaredGrants();
    for (const [key, members] of this.bindings) copy.bindings.set(key, new Map(members));
    copy.declare(edits);
    return copy;
  }

  /** Records what `edits` grant: added members, a binding's members, a whole policy's bindings, a principal's roles. */
  public declare(edits: readonly PolicyEdit[]): void {
    for (const edit of edits) {
      switch (edit.kind) {
        case 'addMember':
          this.add(BindingIdentity.of(edit.role, edit.condition).key, [edit.member]);
          break;
        case 'setBinding':
          this.add(BindingIdentity.of(edit.role, edit.condition).key, edit.members);
          break;
        case 'replaceBindings':
          for (const binding of edit.bindings) this.add(BindingIdentity.ofBinding(binding).key, binding.members);
          break;
        case 'setMemberRoles':
          for (const role of edit.roles) this.add(BindingIdentity.of(role.role, role.condition).key, [edit.member]);
          break;
        default:
      }
    }
  }

  /**
   * `edits` with their removals sparing what is declared: a member's removal
   * is dropped when the member is declared in that binding; a binding's
   * removal keeps the binding's declared members. Grants pass unchanged.
   */
  public spare(edits: readonly PolicyEdit[]): PolicyEdit[] {
    return edits.flatMap((edit): PolicyEdit[] => {
      if (edit.kind === 'removeMember') {
        const declared = this.bindings.get(BindingIdentity.of(edit.role, edit.condition).key);
        return declared?.has(comparisonKey(edit.member)) ? [] : [edit];
      }
      if (edit.kind === 'removeBinding') {
        const declared = this.bindings.get(BindingIdentity.of(edit.role, edit.condition).key);
        if (!declared?.size) return [edit];
        return [{ ...edit, except: [...new Set([...(edit.except ?? []), ...declared.values()])] }];
      }
      return [edit];
    });
  }

  private add(bindingKey: string, members: readonly string[]): void {
    let declared = this.bindings.get(bindingKey);
    if (!declared) this.bindings.set(bindingKey, (declared = new Map()));
    for (const member of members) {
      const key = comparisonKey(member);
      if (!declared.has(key)) declared.set(key, member);
    }
  }
}
