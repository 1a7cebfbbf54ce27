import type { Construct } from 'constructs';
import type { MemberEntry } from '../iam/grant';
import type { ConditionInput } from '../iam/types';
import type { IamCondition } from './iam-condition';
import { conditionOf, IamGrant, type GrantResourceConfig, type GrantResourceFactory, type GrantTarget } from './iam-grant';
import type { IamGrantOptions } from './iam-grant-options';

/** One grant of a `*IamMembers` construct: a principal, a role, and optionally a condition. */
export interface IamGrantEntryProps {
  /** The role, e.g. `roles/networksecurity.viewer` or a custom role (`projects/{project}/roles/{id}`). */
  readonly role: string;
  /**
   * The principal granted `role`: `user:{email}`, `serviceAccount:{email}`, `group:{email}`,
   * `domain:{domain}`, `principal://…` or `principalSet://…`.
   */
  readonly member: string;
  /**
   * An IAM condition; the same role under another condition is another grant.
   * @default - the grant is unconditional
   */
  readonly condition?: IamCondition;
}

/** The props every `*IamMembers` construct shares. @internal */
export interface IamMembersFields extends IamGrantOptions {
  readonly grants: IamGrantEntryProps[];
}

/** One `grant` block of a bulk resource's configuration. @internal */
export interface MembersResourceEntry {
  readonly role: string;
  readonly member: string;
  readonly condition?: ConditionInput;
}

/** The configuration of a bulk resource (`googleiam_*_iam_members`). @internal */
export interface MembersResourceConfig extends GrantResourceConfig {
  readonly grant: MembersResourceEntry[];
}

/**
 * Many principals granted roles on one resource, each entry as one
 * `*IamMember` would grant it (non-authoritative: grants made elsewhere are
 * left alone). Adding or removing entries changes only those entries, in one
 * write. One Terraform resource for any number of grants, so a thousand
 * grants cost Terraform one resource's work, not a thousand's.
 *
 * jsii erases this base class: its public members appear on each `*IamMembers` construct.
 *
 * @internal
 */
export abstract class IamMembersGrant extends IamGrant {
  /** The grants. */
  public readonly grants: IamGrantEntryProps[];

  protected constructor(
    scope: Construct,
    id: string,
    target: GrantTarget,
    props: IamMembersFields,
    resourceType: GrantResourceFactory<MembersResourceConfig>,
  ) {
    const entries: MemberEntry[] = (props.grants ?? []).map(entryOf);
    super(scope, id, target, { mode: 'members', resource: target.resource, grants: entries }, props, (self, rid, base) =>
      resourceType(self, rid, { ...base, grant: entries }),
    );
    this.grants = props.grants;
  }
}

function entryOf(entry: IamGrantEntryProps): MemberEntry {
  const condition = conditionOf(entry.condition);
  return { role: entry.role, member: entry.member, ...(condition ? { condition } : {}) };
}
