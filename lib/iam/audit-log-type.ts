/**
 * The types of permission an audit config logs (admin writes are always logged): the values of `logType`.
 * String constants rather than a jsii enum, so that every language passes Google's value itself.
 */
export class AuditLogType {
  /** Reads of metadata or configuration, e.g. getIamPolicy. */
  public static readonly ADMIN_READ = 'ADMIN_READ';
  /** Writes of user data. */
  public static readonly DATA_WRITE = 'DATA_WRITE';
  /** Reads of user data. */
  public static readonly DATA_READ = 'DATA_READ';

  private constructor() {}
}

/**
 * The IAM policy versions Google accepts, for `optionsRequestedPolicyVersion`
 * (a number in every language: jsii enums carry names, not numbers).
 */
export class IamPolicyVersion {
  /** Version 0: the same as 1. */
  public static readonly V0 = 0;
  /** Version 1: no conditions; a read of a conditional policy at this version mangles its conditional roles. */
  public static readonly V1 = 1;
  /** Version 3: conditional bindings intact (the default of every read here). */
  public static readonly V3 = 3;

  private constructor() {}
}
