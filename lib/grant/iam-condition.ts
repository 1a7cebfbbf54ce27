/**
 * An IAM condition on a binding (SPEC.md 2.4).
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
