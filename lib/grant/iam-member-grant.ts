import type { Construct } from 'constructs';
import type { IamCondition } from './iam-condition';
import { conditionOf, IamGrant, type GrantTarget } from './iam-grant';
import type { IamGrantOptions } from './iam-grant-options';

/** The props every `*IamMember` construct shares. @internal */
export interface IamMemberFields extends IamGrantOptions {
  readonly role: string;
  readonly member: string;
  readonly condition?: IamCondition;
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

  protected constructor(scope: Construct, id: string, target: GrantTarget, props: IamMemberFields) {
    super(
      scope,
      id,
      target,
      { mode: 'member', resource: target.resource, role: props.role, member: props.member, condition: conditionOf(props.condition) },
      props,
    );
    this.role = props.role;
    this.member = props.member;
    this.condition = props.condition;
  }
}
