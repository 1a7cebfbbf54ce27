import { editDistance } from './edit-distance';
import { isBasicRole } from './role';
import { rolesGrantableOn, type RoleTarget } from './role-grantability';
import type { PredefinedRole } from './role-table';

/**
 * The real roles a message about a role names instead: those it is most likely
 * a misspelling of, and the nearest that can be granted on the resource type,
 * by edit distance (role-check.ts words the messages).
 */

/** How many roles a message names. */
const NAMED = 3;
/** An unknown role this close (in edits) to a real one is taken for a misspelling of it. */
const MISSPELLING = 3;

/**
 * The real roles `role` is most likely a misspelling of: those within MISSPELLING
 * edits, the nearest first (at most NAMED of them), grantable on the target if
 * any such is; basic roles count (`roles/viwer`).
 */
export function misspellingOf(role: string, target: RoleTarget | undefined): string[] {
  const close = (roles: readonly PredefinedRole[]) =>
    roles
      .filter((r) => !isServiceAgentRole(r.name))
      .map((r) => ({ name: r.name, distance: editDistance(role, r.name) }))
      .filter((r) => r.distance <= MISSPELLING)
      .sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  const onTarget = close(rolesGrantableOn(target));
  const candidates = onTarget.length > 0 ? onTarget : close(rolesGrantableOn(undefined));
  return candidates
    .filter((r) => r.distance === candidates[0].distance)
    .slice(0, NAMED)
    .map((r) => r.name);
}

/**
 * The NAMED roles to suggest instead of `role` on `target`: grantable there,
 * current, neither basic nor a service agent's; those of `role`'s own service
 * first, then those of the target's (only these when `related`), then the
 * rest, each by how close their names are.
 */
export function nearest(role: string, target: RoleTarget | undefined, related = false): string[] {
  const rank = (name: string) => (serviceOf(name) === serviceOf(role) ? 0 : serviceOf(name) === target?.service ? 1 : 2);
  return rolesGrantableOn(target)
    .filter((r) => !isBasicRole(r.name) && !isServiceAgentRole(r.name) && r.stage !== 'DEPRECATED')
    .map((r) => ({ name: r.name, rank: rank(r.name), distance: editDistance(role, r.name) }))
    .filter((r) => !related || r.rank < 2)
    .sort((a, b) => a.rank - b.rank || a.distance - b.distance || a.name.localeCompare(b.name))
    .slice(0, NAMED)
    .map((r) => r.name);
}

/** The service a predefined role's name starts with: `roles/networksecurity.viewer` → `networksecurity`. */
function serviceOf(role: string): string {
  return /^roles\/([^.]+)\./.exec(role)?.[1] ?? '';
}

/** Roles Google made for its own service agents (`roles/run.serviceAgent`, `roles/networksecurity.authzServiceAgent`): never what a user means. */
function isServiceAgentRole(role: string): boolean {
  return /serviceagent/i.test(role);
}
