import { celSyntaxHints } from './cel-hints';
import type { CelNode } from './cel-ast';
import { checkCelTypes, type CelTypeFinding } from './cel-checker';
import { celLiteralError } from './cel-literals';
import { parseCel } from './cel-parser';
import { countLogicalOperatorsIn, lintCondition } from './condition-lint';
import { IamValidationError } from './errors';
import type { Grant } from './grant';
import type { IsKnown } from './types';
import { isBasicRole } from './role';
import { describePosition } from './source-excerpt';
import type { ConditionInput } from './types';

/** Principals that may never be bound under a condition. */
const UNCONDITIONAL_PRINCIPALS: ReadonlySet<string> = new Set(['allUsers', 'allAuthenticatedUsers']);

/**
 * Validates a condition as a user writes it: `expression` and `title`
 * required ("The condition's title is required, but the description is
 * optional": https://cloud.google.com/iam/docs/conditions-overview), the
 * expression valid CEL as Google parses it, free of the errors Google's
 * policy linter reports (condition-lint.ts), its timestamp and duration
 * literals ones Google's CEL can parse (cel-literals.ts), and well typed in
 * Google's IAM conditions environment (cel-checker.ts, the attributes of
 * condition-attributes.ts): an undeclared attribute, an operator or function
 * applied to the wrong types, a result that is not a bool. Returns a copy
 * holding only those three fields. What Google may refuse but its reference
 * does not make certain is a warning: conditionWarnings.
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
    const refusal = conditionRefusal(ast, expression);
    if (refusal) throw new IamValidationError(`${field}.expression`, expression, describeRefusal(expression, refusal));
  }
  return description === undefined ? { expression, title } : { expression, title, description };
}

/** Why Google refuses the parsed condition once it parses and passes the linter's ERRORs: a bad literal or a type error. */
export function conditionRefusal(ast: CelNode, expression: string): CelTypeFinding | undefined {
  return celLiteralError(ast) ?? checkCelTypes(ast, expression).error;
}

/** A refusal as validateCondition words it: what is wrong and what would be right, then where, with a caret. */
export function describeRefusal(expression: string, refusal: CelTypeFinding): string {
  return `not a valid IAM condition: ${refusal.message} at ${describePosition(expression, refusal.offset)}`;
}

/** What Google may refuse in a condition although its reference does not make it certain. */
export interface ConditionWarning {
  /** The field that holds the expression: `condition.expression`, `bindings[2].condition.expression`. */
  readonly field: string;
  readonly expression: string;
  /** What, where (with a caret) and why. */
  readonly reason: string;
}

/**
 * The warnings of an expression that validateCondition accepts (none for one
 * it refuses): an `api.getAttribute` key Google does not document, a
 * function outside CEL's standard library, an attribute documented for other
 * policies (cel-checker.ts).
 */
export function conditionWarnings(expression: string, field = 'condition.expression'): ConditionWarning[] {
  const parsed = parseCel(expression);
  if (!parsed.ok || lintCondition(parsed.ast, expression) || celLiteralError(parsed.ast)) return [];
  const { error, warnings } = checkCelTypes(parsed.ast, expression);
  if (error) return [];
  return warnings.map((warning) => ({
    field,
    expression,
    reason: `${warning.message} at ${describePosition(expression, warning.offset)}`,
  }));
}

/** The condition warnings of every known condition of `grant`, each naming its field as validateGrantValues does. */
export function checkGrantConditions(grant: Grant, isKnown: IsKnown = () => true): ConditionWarning[] {
  const of = (condition: ConditionInput | undefined, prefix: string): ConditionWarning[] =>
    condition !== undefined &&
    condition !== null &&
    typeof condition === 'object' &&
    isKnown(condition) &&
    typeof condition.expression === 'string' &&
    isKnown(condition.expression)
      ? conditionWarnings(condition.expression, `${prefix}condition.expression`)
      : [];
  const entries = (list: unknown, field: string): ConditionWarning[] =>
    isKnown(list) && Array.isArray(list)
      ? (list as readonly ({ readonly condition?: ConditionInput } | null)[]).flatMap((entry, i) =>
          entry !== null && typeof entry === 'object' && isKnown(entry) ? of(entry.condition, `${field}[${i}].`) : [],
        )
      : [];
  switch (grant.mode) {
    case 'member':
    case 'binding':
      return of(grant.condition, '');
    case 'policy':
      return entries(grant.bindings, 'bindings');
    case 'members':
      return entries(grant.grants, 'grants');
    case 'memberRoles':
      return entries(grant.roles, 'roles');
  }
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
