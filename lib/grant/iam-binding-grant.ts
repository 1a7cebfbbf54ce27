import type { Construct } from 'constructs';
import type { ConditionInput } from '../iam/types';
import type { IamCondition } from './iam-condition';
import { conditionOf, IamGrant, type GrantResourceConfig, type GrantResourceFactory, type GrantTarget } from './iam-grant';
import type { IamGrantOptions } from './iam-grant-options';

/** The props every `*IamBinding` construct shares. @internal */
export interface IamBindingFields extends IamGrantOptions {
  readonly role: string;
  readonly members: string[];
  readonly condition?: IamCondition;
}

/** The configuration of a binding resource (`googleiam_*_iam_binding`). @internal */
export interface BindingResourceConfig extends GrantResourceConfig {
  readonly role: string;
  readonly members: string[];
  readonly condition?: ConditionInput;
}

/**
 * The whole member list of one role (and condition): the binding's members
 * become exactly `members`; other roles' bindings are left alone; destroying
 * it removes the binding. Only one binding construct may own a role and
 * condition on a resource.
 *
 * jsii erases this base class: its public members appear on each `*IamBinding` construct.
 *
 * @internal
 */
export abstract class IamBindingGrant extends IamGrant {
  /** The role that is granted. */
  public readonly role: string;
  /** The principals granted the role. */
  public readonly members: string[];
  /**
   * The IAM condition of the binding.
   * @default - unconditional
   */
  public readonly condition?: IamCondition;

  protected constructor(
    scope: Construct,
    id: string,
    target: GrantTarget,
    props: IamBindingFields,
    resourceType: GrantResourceFactory<BindingResourceConfig>,
  ) {
    const { role, members } = props;
    const condition = conditionOf(props.condition);
    super(scope, id, target, { mode: 'binding', resource: target.resource, role, members, condition }, props, (self, rid, base) =>
      resourceType(self, rid, { ...base, role, members, ...(condition ? { condition } : {}) }),
    );
    this.role = role;
    this.members = members;
    this.condition = props.condition;
  }
}
