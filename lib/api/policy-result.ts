/*
 * A resource's IAM policy as the lookups read it: every field of Google's
 * schema, each absent (undefined; None, null or nil in the other languages)
 * when Google did not send it, as the API leaves out what is empty. Four
 * are always there, since an answer without them is not taken for Google's
 * (lib/api/policy-shape.ts): the etag, a binding's role, a condition's
 * expression and an audit config's service.
 */

/** A binding's condition as read (`google.type.Expr`). */
export interface IamPolicyCondition {
  /** Textual expression in Common Expression Language syntax (always there: an answer without it is refused). */
  readonly expression: string;
  /**
   * Short title of the expression.
   * @default - absent: Google did not send it
   */
  readonly title?: string;
  /**
   * Longer description of the expression.
   * @default - absent: Google did not send it
   */
  readonly description?: string;
  /**
   * Location of the expression for error reporting.
   * @default - absent: Google did not send it
   */
  readonly location?: string;
}

/** Principals bound to a role, optionally under a condition. */
export interface IamPolicyBinding {
  /** Role assigned to the members, e.g. `roles/compute.networkUser` (always there: an answer without it is refused). */
  readonly role: string;
  /**
   * Principals, e.g. `user:alice@example.com`.
   * @default - absent: Google did not send any
   */
  readonly members?: string[];
  /**
   * The condition of the binding.
   * @default - absent: an unconditional binding
   */
  readonly condition?: IamPolicyCondition;
}

/** Logging for one type of permission. */
export interface IamAuditLogConfig {
  /**
   * `LOG_TYPE_UNSPECIFIED`, `ADMIN_READ`, `DATA_WRITE` or `DATA_READ`.
   * @default - absent: Google did not send it
   */
  readonly logType?: string;
  /**
   * Identities that do not cause logging for this type of permission.
   * @default - absent: nobody is exempted
   */
  readonly exemptedMembers?: string[];
}

/** Cloud audit logging configuration of one service (`allServices` covers all). */
export interface IamAuditConfig {
  /** A service name, e.g. `networksecurity.googleapis.com`, or `allServices` (always there: an answer without it is refused). */
  readonly service: string;
  /**
   * Logging per type of permission.
   * @default - absent: Google did not send any
   */
  readonly auditLogConfigs?: IamAuditLogConfig[];
}

/**
 * A resource's IAM policy as the lookups read it (getAddressGroupIamPolicy,
 * getIamPolicy, ...). A resource with no policy reads as `{ etag: 'ACAB' }`:
 * Google sends no bindings, no audit configs and no version for it.
 */
export interface IamPolicy {
  /**
   * Cloud audit logging configuration.
   * @default - absent: the policy has none
   */
  readonly auditConfigs?: IamAuditConfig[];
  /**
   * Principals bound to roles.
   * @default - absent: the policy has none
   */
  readonly bindings?: IamPolicyBinding[];
  /** Concurrency token of this version of the policy (always there: an answer without it is refused). */
  readonly etag: string;
  /**
   * Policy format: 0, 1 or 3.
   * @default - absent: Google did not send it (a resource with no policy)
   */
  readonly version?: number;
}
