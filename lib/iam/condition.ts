import { celSyntaxHints } from './cel-hints';
import type { CelNode } from './cel-ast';
import { parseCel } from './cel-parser';
import { countLogicalOperatorsIn, lintCondition } from './condition-lint';
import { IamValidationError } from './errors';
import { isBasicRole } from './role';
import { describePosition } from './source-excerpt';
import type { ConditionInput } from './types';

/** Principals that may never be bound under a condition. */
const UNCONDITIONAL_PRINCIPALS: ReadonlySet<string> = new Set(['allUsers', 'allAuthenticatedUsers']);

/**
 * Validates a condition as a user writes it: `expression` and `title`
 * required ("The condition's title is required, but the description is
 * optional": https://cloud.google.com/iam/docs/conditions-overview), the
 * expression valid CEL as Google parses it and free of the errors Google's
 * policy linter reports (condition-lint.ts). Returns a copy holding only
 * those three fields.
 *
 * Google documents no length limit for a condition's title or description
 * (IAM's limits, https://cloud.google.com/iam/quotas, give title and
 * description lengths for custom roles only), so none is checked here.
 *
 * `isKnown` lets a caller skip fields whose value is not known yet (e.g. a
 * Terraform token): each known field is still checked on its own.
 */
export function validateCondition(
  condition: ConditionInput,
  field = 'condition',
  isKnown: (value: unknown) => boolean = () => true,
): ConditionInput {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) {
    throw new IamValidationError(field, condition, 'expected an object with expression, title and an optional description');
  }
  const { expression, title, description } = condition;
  if (isKnown(title)) requireText(title, `${field}.title`, 'a title is required: a short name for what the condition does');
  if (description !== undefined && isKnown(description) && typeof description !== 'string') {
    throw new IamValidationError(`${field}.description`, description, 'expected a string');
  }
  if (isKnown(expression)) {
    requireText(expression, `${field}.expression`, 'a CEL expression is required, e.g. request.time < timestamp("2030-01-01T00:00:00Z")');
    const ast = parseExpression(expression, `${field}.expression`);
    const finding = lintCondition(ast, expression);
    if (finding) {
      const where = finding.offset === undefined ? '' : ` at ${describePosition(expression, finding.offset)}`;
      const reason = `${finding.message} (Google's IAM policy linter: ${finding.unit})${where}`;
      throw new IamValidationError(`${field}.expression`, expression, reason);
    }
  }
  return description === undefined ? { expression, title } : { expression, title, description };
}

/**
 * Counts `&&` and `||` in the parsed expression, so that operators inside
 * string literals or comments do not count. Throws on a syntax error.
 */
export function countLogicalOperators(expression: string, field = 'expression'): number {
  return countLogicalOperatorsIn(parseExpression(expression, field));
}

/**
 * Google refuses a condition on a basic role and on a binding that includes
 * `allUsers` or `allAuthenticatedUsers`. Call only when a condition is present.
 */
export function checkConditionAllowed(role: string, members: readonly string[], field = 'condition'): void {
  if (isBasicRole(role)) {
    throw new IamValidationError(field, role, `a condition cannot be used with the basic role ${role}; use a predefined or custom role`);
  }
  const everyone = members.find((member) => UNCONDITIONAL_PRINCIPALS.has(member));
  if (everyone !== undefined) {
    throw new IamValidationError(
      field,
      everyone,
      `a condition cannot be used with ${everyone}; grant it without a condition or name the principals`,
    );
  }
}

/** The parsed expression; a syntax error says where, with hints for common slips. */
function parseExpression(expression: string, field: string): CelNode {
  const parsed = parseCel(expression);
  if (parsed.ok) return parsed.ast;
  const hints = celSyntaxHints(expression).map((hint) => `\n  hint: ${hint}`);
  const reason = `not valid CEL: ${parsed.error.message} at ${describePosition(expression, parsed.error.offset)}${hints.join('')}`;
  throw new IamValidationError(field, expression, reason);
}

function requireText(value: unknown, field: string, reason: string): asserts value is string {
  if (typeof value !== 'string' || value.trim().length === 0) throw new IamValidationError(field, value, reason);
}
