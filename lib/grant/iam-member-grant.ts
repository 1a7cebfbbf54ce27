import type { Construct } from 'constructs';
import type { ConditionInput } from '../iam/types';
import type { IamCondition } from './iam-condition';
import { conditionOf, IamGrant, type GrantResourceConfig, type GrantResourceFactory, type GrantTarget } from './iam-grant';
import type { IamGrantOptions } from './iam-grant-options';

/** The props every `*IamMember` construct shares. @internal */
export interface IamMemberFields extends IamGrantOptions {
  readonly role: string;
  readonly member: string;
  readonly condition?: IamCondition;
}

/** The configuration of a member resource (`googleiam_*_iam_member`). @internal */
export interface MemberResourceConfig extends GrantResourceConfig {
  readonly role: string;
  readonly member: string;
  readonly condition?: ConditionInput;
}

/**
 * One principal granted one role (and condition), leaving every other grant
 * on the policy alone; destroying it removes only that principal from that
 * role and condition.
 *
 * jsii erases this base class: its public members appear on each `*IamMember` construct.
 *
 * @internal
 */
export abstract class IamMemberGrant extends IamGrant {
  /** The role that is granted. */
  public readonly role: string;
  /** The principal that is granted the role. */
  public readonly member: string;
  /**
   * The IAM condition of the binding.
   * @default - unconditional
   */
  public readonly condition?: IamCondition;

  protected constructor(
    scope: Construct,
    id: string,
    target: GrantTarget,
    props: IamMemberFields,
    resourceType: GrantResourceFactory<MemberResourceConfig>,
  ) {
    const { role, member } = props;
    const condition = conditionOf(props.condition);
    super(scope, id, target, { mode: 'member', resource: target.resource, role, member, condition }, props, (self, rid, base) =>
      resourceType(self, rid, { ...base, role, member, ...(condition ? { condition } : {}) }),
    );
    this.role = role;
    this.member = member;
    this.condition = props.condition;
  }
}
