import { shortDigest } from './digest';

/**
 * Identity: which binding, which policy. Every comparison and map key that
 * stands for one binding or one policy is computed here, so validation,
 * policy edits, the grant key (grant.ts) and the provider's resources cannot
 * disagree about it.
 *
 * The policy key and the condition tag are persisted (in the grant key, a
 * digest of which ends each grant's Terraform resource name): they must stay
 * byte-identical across releases, or an upgrade would replace (revoke and
 * re-grant) every user's grants. test/unit/iam/identity.test.ts pins them.
 */

/** The fields of a condition that identify a binding (`google.type.Expr` without `location`). */
export interface ConditionIdentity {
  readonly expression: string;
  readonly title?: string;
  readonly description?: string;
}

/** A binding as declared or as read from Google: its role and optional condition. */
export interface BindingLike {
  readonly role: string;
  readonly condition?: ConditionIdentity;
}

/**
 * Which binding of a policy. Google keys a binding by its role and its
 * condition's title, description and expression: a missing title or
 * description equals an empty one, `location` and other fields do not count,
 * and titles compare case-sensitively. No condition is an identity of its own,
 * which no condition (not even an empty one) shares.
 */
export class BindingIdentity {
  public static of(role: string, condition?: ConditionIdentity): BindingIdentity {
    return new BindingIdentity(role, condition);
  }

  public static ofBinding(binding: BindingLike): BindingIdentity {
    return new BindingIdentity(binding.role, binding.condition);
  }

  /** For maps and sets: equal exactly when Google treats the two bindings as one. Not persisted. */
  public readonly key: string;

  private constructor(
    public readonly role: string,
    public readonly condition: ConditionIdentity | undefined,
  ) {
    this.key = `${role}\n${conditionKey(condition)}`;
  }

  /** Whether `binding` (declared, or read from Google) is this binding. */
  public matches(binding: BindingLike): boolean {
    return BindingIdentity.ofBinding(binding).key === this.key;
  }

  /**
   * The condition as it ends a grant key (persisted): `|if:<title>:<digest>`,
   * the title cleaned to safe characters (for people reading addresses), and
   * 12 hex digits over the whole condition (for uniqueness); empty without one.
   */
  public get conditionTag(): string {
    if (this.condition === undefined) return '';
    const title = (this.condition.title ?? '').replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 40);
    return `|if:${title}:${shortDigest(conditionKey(this.condition), 12)}`;
  }
}

/** Where an IAM policy is served: the API, the version spoken and the resource's full name. */
export interface PolicyAddress {
  /** The API's host name without `.googleapis.com`, e.g. `secretmanager`. */
  readonly service: string;
  /** e.g. `v1`, `v1beta1`. */
  readonly apiVersion: string;
  /** The resource's full name, the path segment before `:getIamPolicy`. */
  readonly name: string;
}

/**
 * Which IAM policy. A policy is its service and resource name: two API
 * versions of one service serve the same policy, so ownership and principal
 * limits count across them.
 */
export class PolicyIdentity {
  public static of(address: PolicyAddress): PolicyIdentity {
    return new PolicyIdentity(address.service, address.name);
  }

  private constructor(
    public readonly service: string,
    public readonly name: string,
  ) {}

  /** `{service}:{name}`: for maps, and (persisted) the head of every grant key. */
  public get key(): string {
    return `${this.service}:${this.name}`;
  }

  /** For maps: one binding of this policy. Not persisted. */
  public bindingKey(binding: BindingIdentity): string {
    return JSON.stringify([this.key, binding.key]);
  }
}

function conditionKey(condition: ConditionIdentity | undefined): string {
  if (condition === undefined) return 'unconditional';
  return `conditional:${JSON.stringify([condition.title ?? '', condition.description ?? '', condition.expression])}`;
}
