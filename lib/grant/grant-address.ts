import { shortDigest } from '../iam/digest';
import { grantKey, type Grant } from '../iam/grant';
import { PolicyIdentity } from '../iam/identity';

/**
 * The Terraform name of a grant's resource (persisted: its address in the
 * state), made of what it grants, its identity (lib/iam/identity.ts), rather
 * than of the construct's path: renaming or moving a construct changes
 * nothing in Terraform. A path-based address would make a rename a delete of
 * the old address and a create of the new one, which Terraform runs in either
 * order: the delete could revoke what the create had just granted.
 *
 * A binding's identity leaves its members out and a policy's is its resource,
 * so changing them is an update in place (one write). The name shows the
 * resource's id, the role, the member and the condition's title; a digest of
 * the whole identity keeps it unique, e.g.
 * `ap_networksecurity_viewer_user_alice_example_com_1a2b3c4d`.
 */
export function grantResourceName(grant: Grant, label = ''): string {
  const parts = [lastSegment(grant.resource.name)];
  // A bulk grant is named by its label (the construct's id): its entries change in place.
  let identity = grantKey(grant);
  if (grant.mode === 'policy') parts.push('policy');
  else if (grant.mode === 'members') {
    parts.push('members', label);
    identity = `${PolicyIdentity.of(grant.resource).key}|members|${label}`;
  } else if (grant.mode === 'memberRoles') parts.push('roles', grant.member.toLowerCase());
  else {
    parts.push(lastSegment(grant.role));
    if (grant.mode === 'member') parts.push(grant.member.toLowerCase());
    if (grant.condition) parts.push(grant.condition.title);
  }
  const readable = parts
    .join('_')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .slice(0, 120)
    .replace(/_+$/, '');
  return `${/^[A-Za-z_]/.test(readable) ? '' : '_'}${readable}_${shortDigest(identity, 8)}`;
}

/** `projects/p/secrets/db` → `db`; `roles/x.viewer` → `x.viewer`. */
function lastSegment(path: string): string {
  return path.split('/').pop() ?? path;
}
