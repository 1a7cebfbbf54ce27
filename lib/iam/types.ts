/**
 * The IAM policy as it travels on the wire (Google `google.iam.v1.Policy` JSON).
 *
 * Every interface keeps an index signature: a field this library does not
 * know must survive a read-modify-write untouched.
 */

/** A CEL condition on a binding (`google.type.Expr`). */
export interface Expr {
  readonly expression: string;
  readonly title?: string;
  readonly description?: string;
  readonly location?: string;
  readonly [unknownField: string]: unknown;
}

/** Principals bound to a role, optionally under a condition (`google.iam.v1.Binding`). */
export interface Binding {
  readonly role: string;
  readonly members?: readonly string[];
  readonly condition?: Expr;
  readonly [unknownField: string]: unknown;
}

/** Audit logging of one type of permission (`google.iam.v1.AuditLogConfig`). */
export interface AuditLogConfig {
  readonly logType?: string;
  readonly exemptedMembers?: readonly string[];
  readonly [unknownField: string]: unknown;
}

/** Audit logging of one service (`google.iam.v1.AuditConfig`). */
export interface AuditConfig {
  readonly service: string;
  readonly auditLogConfigs?: readonly AuditLogConfig[];
  readonly [unknownField: string]: unknown;
}

/** An IAM policy (`google.iam.v1.Policy`). */
export interface Policy {
  readonly version?: number;
  readonly etag?: string;
  readonly bindings?: readonly Binding[];
  readonly auditConfigs?: readonly AuditConfig[];
  readonly [unknownField: string]: unknown;
}

/** A condition as a user writes it: a CEL `expression`, a `title` and an optional `description`. */
export interface ConditionInput {
  readonly expression: string;
  readonly title: string;
  readonly description?: string;
}

/**
 * Google's etag of a resource that has never had a policy (`{ "etag": "ACAB" }`).
 * Unlike every other etag it names no single version: a resource deleted and
 * created again answers it again.
 */
export const EMPTY_POLICY_ETAG = 'ACAB';

/** Whether a value is known; the constructs pass "not a Terraform token", the provider "always". */
export type IsKnown = (value: unknown) => boolean;
