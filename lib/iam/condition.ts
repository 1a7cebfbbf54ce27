import { parseCel, type CelNode } from './cel-parser';
import { IamValidationError } from './errors';
import { formatCount } from './format';
import { MAX_LOGICAL_OPERATORS } from './limits';
import { isBasicRole } from './role';
import { describePosition } from './source-excerpt';
import type { ConditionInput } from './types';

/** Google's limits on the text fields of `google.type.Expr` in IAM. */
export const MAX_TITLE_LENGTH = 100;
export const MAX_DESCRIPTION_LENGTH = 256;

const LOGICAL_OPERATORS: ReadonlySet<string> = new Set(['&&', '||']);
/** Principals that may never be bound under a condition. */
const UNCONDITIONAL_PRINCIPALS: ReadonlySet<string> = new Set(['allUsers', 'allAuthenticatedUsers']);

/**
 * Validates a condition as a user writes it: `expression` and
 * `title` required, `description` optional, lengths within Google's limits,
 * the expression valid CEL with at most 12 logical operators. Returns a copy
 * holding only those three fields.
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
  if (isKnown(title)) {
    requireText(title, `${field}.title`, 'a title is required: a short name for what the condition does');
    checkLength(title, `${field}.title`, MAX_TITLE_LENGTH);
  }
  if (description !== undefined && isKnown(description)) {
    if (typeof description !== 'string') throw new IamValidationError(`${field}.description`, description, 'expected a string');
    checkLength(description, `${field}.description`, MAX_DESCRIPTION_LENGTH);
  }
  if (isKnown(expression)) {
    requireText(expression, `${field}.expression`, 'a CEL expression is required, e.g. request.time < timestamp("2030-01-01T00:00:00Z")');
    const operators = countLogicalOperators(expression, `${field}.expression`);
    if (operators > MAX_LOGICAL_OPERATORS) {
      throw new IamValidationError(
        `${field}.expression`,
        expression,
        `the expression has ${formatCount(operators)} logical operators (&& and ||); Google allows at most ${MAX_LOGICAL_OPERATORS}`,
      );
    }
  }
  return description === undefined ? { expression, title } : { expression, title, description };
}

/**
 * Counts `&&` and `||` in the parsed expression, so that operators inside
 * string literals or comments do not count. Throws on a syntax error.
 */
export function countLogicalOperators(expression: string, field = 'expression'): number {
  const parsed = parseCel(expression);
  if (!parsed.ok) {
    throw new IamValidationError(
      field,
      expression,
      `not valid CEL: ${parsed.error.message} at ${describePosition(expression, parsed.error.offset)}`,
    );
  }
  return countInNode(parsed.ast);
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

function requireText(value: unknown, field: string, reason: string): asserts value is string {
  if (typeof value !== 'string' || value.trim().length === 0) throw new IamValidationError(field, value, reason);
}

function checkLength(value: string, field: string, max: number): void {
  const length = [...value].length;
  if (length > max) throw new IamValidationError(field, value, `is ${length} characters long; Google allows at most ${max}`);
}

/** Operands are nodes, lists of nodes, or literals; walking them all finds every nested operator. */
function countInNode(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countInNode(item), 0);
  if (!isNode(value) || value.op === 'value') return 0;
  return (LOGICAL_OPERATORS.has(value.op) ? 1 : 0) + countInNode(value.args);
}

function isNode(value: unknown): value is CelNode {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string' && 'args' in value;
}
