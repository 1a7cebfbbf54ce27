/**
 * An IAM condition on a binding: a CEL expression that must hold for the
 * binding to apply, with a title and an optional description (`google.type.Expr`).
 */
export interface IamCondition {
  /** Textual expression in Common Expression Language syntax, e.g. `request.time < timestamp("2030-01-01T00:00:00Z")`. */
  readonly expression: string;
  /** Short string describing the purpose of the expression. */
  readonly title: string;
  /**
   * Longer text describing the expression.
   * @default - no description
   */
  readonly description?: string;
}
