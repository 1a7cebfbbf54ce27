/** A binding's condition as read (`google.type.Expr`): all four fields, empty strings when absent. */
export interface IamPolicyCondition {
  /** Textual expression in Common Expression Language syntax. */
  readonly expression: string;
  /** Short title of the expression; `''` when absent. */
  readonly title: string;
  /** Longer description of the expression; `''` when absent. */
  readonly description: string;
  /** Location of the expression for error reporting; `''` when absent. */
  readonly location: string;
}

/** Principals bound to a role, optionally under a condition. */
export interface IamPolicyBinding {
  /** Role assigned to the members, e.g. `roles/networksecurity.addressGroupUser`. */
  readonly role: string;
  /** Principals, e.g. `user:alice@example.com`; `[]` when absent. */
  readonly members: string[];
  /**
   * The condition of the binding, with all four fields. Absent on an
   * unconditional binding (an empty condition would read as a condition
   * with an empty expression, which Google rejects when written back).
   * @default - unconditional
   */
  readonly condition?: IamPolicyCondition;
}

/** Logging for one type of permission. */
export interface IamAuditLogConfig {
  /** `LOG_TYPE_UNSPECIFIED`, `ADMIN_READ`, `DATA_WRITE` or `DATA_READ`; `''` when absent. */
  readonly logType: string;
  /** Identities that do not cause logging for this type of permission; `[]` when absent. */
  readonly exemptedMembers: string[];
}

/** Cloud audit logging configuration of one service (`allServices` covers all). */
export interface IamAuditConfig {
  /** A service name, e.g. `networksecurity.googleapis.com`, or `allServices`; `''` when absent. */
  readonly service: string;
  /** Logging per type of permission; `[]` when absent. */
  readonly auditLogConfigs: IamAuditLogConfig[];
}

/**
 * A resource's IAM policy as the lookups read it (getAddressGroupIamPolicy, getIamPolicy, ...). Missing strings read
 * as `''`, numbers as `0`, lists as `[]`; a resource with no policy reads as
 * `{ auditConfigs: [], bindings: [], etag: 'ACAB', version: 0 }`.
 */
export interface IamPolicy {
  /** Cloud audit logging configuration; `[]` when absent. */
  readonly auditConfigs: IamAuditConfig[];
  /** Principals bound to roles; `[]` when absent. */
  readonly bindings: IamPolicyBinding[];
  /** Concurrency token of this version of the policy. */
  readonly etag: string;
  /** Policy format: 0, 1 or 3; 0 when absent. */
  readonly version: number;
}
