import type { Construct } from 'constructs';
import type { RoleEntry } from '../iam/grant';
import type { ConditionInput } from '../iam/types';
import type { IamCondition } from './iam-condition';
import { conditionOf, IamGrant, type GrantResourceConfig, type GrantResourceFactory, type GrantTarget } from './iam-grant';
import type { IamGrantOptions } from './iam-grant-options';

/** One role of a `*IamMemberRoles` construct's principal, optionally under a condition. */
export interface IamRoleEntryProps {
  /** The role, e.g. `roles/networksecurity.viewer` or a custom role (`projects/{project}/roles/{id}`). */
  readonly role: string;
  /**
   * An IAM condition; the same role under another condition is another role entry.
   * @default - the role is unconditional
   */
  readonly condition?: IamCondition;
}

/** The props every `*IamMemberRoles` construct shares. @internal */
export interface IamMemberRolesFields extends IamGrantOptions {
  readonly member: string;
  readonly roles: IamRoleEntryProps[];
}

/** One `grant` block of a member roles resource's configuration. @internal */
export interface MemberRolesResourceEntry {
  readonly role: string;
  readonly condition?: ConditionInput;
}

/** The configuration of a member roles resource (`googleiam_*_iam_member_roles`). @internal */
export interface MemberRolesResourceConfig extends GrantResourceConfig {
  readonly member: string;
  readonly grant: MemberRolesResourceEntry[];
}

/**
 * Every role one principal holds on one resource: after each apply it holds
 * exactly `roles` there, and **every other role it holds on that policy is
 * removed** (a role added in the console shows in `terraform plan` and the
 * apply removes it); other principals are left alone. Deleting the construct
 * revokes the listed roles.
 *
 * jsii erases this base class: its public members appear on each `*IamMemberRoles` construct.
 *
 * @internal
 */
export abstract class IamMemberRolesGrant extends IamGrant {
  /** The principal whose roles these are. */
  public readonly member: string;
  /** Its roles. */
  public readonly roles: IamRoleEntryProps[];

  protected constructor(
    scope: Construct,
    id: string,
    target: GrantTarget,
    props: IamMemberRolesFields,
    resourceType: GrantResourceFactory<MemberRolesResourceConfig>,
  ) {
    const roles: RoleEntry[] = (props.roles ?? []).map(roleOf);
    const { member } = props;
    super(scope, id, target, { mode: 'memberRoles', resource: target.resource, member, roles }, props, (self, rid, base) =>
      resourceType(self, rid, { ...base, member, grant: roles }),
    );
    this.member = member;
    this.roles = props.roles;
  }
}

function roleOf(entry: IamRoleEntryProps): RoleEntry {
  const condition = conditionOf(entry.condition);
  return { role: entry.role, ...(condition ? { condition } : {}) };
}
