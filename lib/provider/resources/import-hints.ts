import { distance } from 'fastest-levenshtein';
import type { Binding } from '../../iam/types';

/** How many characters a role may differ by and still be taken for a typo of the one asked for. */
const TYPO_DISTANCE = 3;

/**
 * What an import ID that names nothing may have meant, from the bindings it
 * could have named (a member's, or the policy's): the role under another
 * condition (or none), else roles a few characters away from it, e.g.
 * `roles/x.Viewr` → "roles/x.Viewer". Empty when nothing is that close.
 */
export function nearMisses(role: string, conditionTitle: string, bindings: readonly Binding[]): string[] {
  const sameRole = bindings.filter((b) => b.role === role && (b.condition?.title ?? '') !== conditionTitle);
  if (sameRole.length > 0) {
    return unique(
      sameRole.map(
        (b) => `${role} ${b.condition ? `under the condition titled ${JSON.stringify(b.condition.title)}` : 'without a condition'}`,
      ),
    );
  }
  const close = (other: string) => other !== role && (other.toLowerCase() === role.toLowerCase() || distance(other, role) <= TYPO_DISTANCE);
  return unique(bindings.map((b) => b.role).filter(close));
}

/** `; <lead> a, b and c`, or nothing when there are no near misses. */
export function nearMissHint(lead: string, misses: readonly string[]): string {
  if (misses.length === 0) return '';
  const list = misses.length === 1 ? misses[0] : `${misses.slice(0, -1).join(', ')} and ${misses[misses.length - 1]}`;
  return `; ${lead} ${list}`;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
