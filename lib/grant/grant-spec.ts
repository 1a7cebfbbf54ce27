import type { PolicyEdit } from '../iam/policy-edit';
import type { ConditionInput } from '../iam/types';

/**
 * A grant as it is stored in its `terraform_data` (see grant-trigger.ts):
 * everything the runner needs, at create and at destroy time (destroy
 * provisioners may only read `self`).
 */
export interface GrantSpec {
  /** `GrantResourceType.key`. */
  readonly type: string;
  /** `member` adds/removes the listed principals; `binding` owns the whole member list. */
  readonly mode: 'member' | 'binding';
  /** Full resource name, e.g. `projects/p/locations/global/authorizationPolicies/ap`. */
  readonly resource: string;
  readonly role: string;
  readonly members: readonly string[];
  readonly condition?: ConditionInput;
  /**
   * Names the grant in the runner's progress lines: `{construct type} {construct path}`.
   * @default - the resource type's name
   */
  readonly label?: string;
}

export type GrantAction = 'apply' | 'remove';

/** The policy edit that carries out `action` for `spec`. */
export function grantEdit(spec: GrantSpec, action: GrantAction): PolicyEdit {
  const { role, condition } = spec;
  if (spec.mode === 'binding') {
    return action === 'apply'
      ? { kind: 'setBinding', role, members: spec.members, condition }
      : { kind: 'removeBinding', role, condition };
  }
  const [member] = spec.members;
  return action === 'apply'
    ? { kind: 'addMember', role, member, condition }
    : { kind: 'removeMember', role, member, condition };
}

/**
 * Terraform-style id, as terraform-provider-google builds it:
 * member `{resource}/{role}/{member}`, binding `{resource}/{role}`,
 * each followed by `/{title}/{description}/{expression}` when conditional.
 */
export function grantId(spec: Pick<GrantSpec, 'mode' | 'resource' | 'role' | 'members' | 'condition'>): string {
  const parts = [spec.resource, spec.role];
  if (spec.mode === 'member') parts.push(spec.members[0]);
  if (spec.condition) {
    parts.push(spec.condition.title, spec.condition.description ?? '', spec.condition.expression);
  }
  return parts.join('/');
}

/** One line for logs and errors: `roles/x on projects/.../ap [if "title"]`. */
export function describeGrant(spec: GrantSpec): string {
  const condition = spec.condition ? ` (condition ${JSON.stringify(spec.condition.title)})` : '';
  return `${spec.role}${condition} on ${spec.resource}`;
}

/** Parses and checks the spec handed to the runner; throws with a plain message. */
export function parseGrantSpec(json: string | undefined): GrantSpec {
  if (!json) throw new Error('no grant spec: the environment variable CDKTF_GOOGLE_IAM_GRANT is empty');
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw new Error(`grant spec is not JSON: ${(e as Error).message}`);
  }
  const spec = value as Partial<GrantSpec>;
  const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
  if (
    typeof value !== 'object' || value === null ||
    !isString(spec.type) || !isString(spec.resource) || !isString(spec.role) ||
    (spec.mode !== 'member' && spec.mode !== 'binding') ||
    !Array.isArray(spec.members) || !spec.members.every(isString) ||
    (spec.mode === 'member' && spec.members.length !== 1) ||
    (spec.label !== undefined && typeof spec.label !== 'string')
  ) {
    throw new Error(`grant spec is malformed: ${json}`);
  }
  return spec as GrantSpec;
}
