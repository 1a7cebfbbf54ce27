import { celNodes, isCelNode, isConstant, methodCalls, stringLiteral, type CelNode } from './cel-ast';
import { formatCount } from './format';
import { MAX_HAS_ONLY_VALUES, MAX_LOGICAL_OPERATORS } from './limits';

/**
 * The ERROR-level checks of Google's IAM policy linter that apply to one
 * condition: an ERROR "causes the setPolicy operation to fail"
 * (https://cloud.google.com/iam/docs/linting-policies, "Supported validation
 * units"; lintPolicy's Severity enum). Each rule carries the linter's
 * validation unit name, so a message says which of Google's rules it is.
 *
 * ConditionCompileCheck ("a compilation error as a result of invalid CEL
 * syntax") is parseCel's; its type-checking half needs Google's attribute
 * declarations, which are not published as data. The WARNING units
 * (DateTimeCheck, DateTimeRangeCheck, EffectiveTimeRangeCheck,
 * ResourceServiceLiteralCheck, ResourceTypeLiteralCheck,
 * RestrictedAttributesCheck) do not make setIamPolicy fail and are left out.
 */
export interface LintFinding {
  /** The linter's validation unit, e.g. `HasOnlyListLengthCheck`. */
  readonly unit: string;
  /** Where in the expression (UTF-16 code units); undefined for the whole expression. */
  readonly offset?: number;
  readonly message: string;
}

interface LintRule {
  readonly unit: string;
  readonly check: (ast: CelNode, expression: string) => Omit<LintFinding, 'unit'> | undefined;
}

/** The attribute whose default must be `[]` (DrgGetAttributeDefaultValueCheck). */
const MODIFIED_GRANTS_BY_ROLE = 'iam.googleapis.com/modifiedGrantsByRole';

const RULES: readonly LintRule[] = [
  {
    // "The condition expression contains more than the maximum of 12 logic operators."
    unit: 'ConditionComplexityCheck',
    check: (ast) => {
      const operators = countLogicalOperatorsIn(ast);
      if (operators <= MAX_LOGICAL_OPERATORS) return undefined;
      return {
        message: `the expression has ${formatCount(operators)} logical operators (&& and ||); Google allows at most ${MAX_LOGICAL_OPERATORS}`,
      };
    },
  },
  {
    // "calls api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', V), where V is any value other than an empty list, []."
    unit: 'DrgGetAttributeDefaultValueCheck',
    check: (ast) => {
      for (const call of methodCalls(ast, 'getAttribute')) {
        const [key, fallback] = call.args;
        if (!isCelNode(call.target) || call.target.op !== 'id' || call.target.args !== 'api') continue;
        if (stringLiteral(key) !== MODIFIED_GRANTS_BY_ROLE || isEmptyList(fallback)) continue;
        return {
          offset: isCelNode(fallback) ? fallback.start : call.node.start,
          message: `api.getAttribute('${MODIFIED_GRANTS_BY_ROLE}', ...) takes only an empty list, [], as its default value`,
        };
      }
      return undefined;
    },
  },
  {
    // "calls hasOnly(List<T>), where the type T is not a constant type, such as a string or integer. The hasOnly() function accepts only a list of constants."
    unit: 'HasOnlyListConstCheck',
    check: (ast, expression) => {
      for (const call of methodCalls(ast, 'hasOnly')) {
        const [list] = call.args;
        if (!isCelNode(list) || list.op !== 'list') {
          return {
            offset: isCelNode(list) ? list.start : call.node.start,
            message: 'hasOnly() takes a list of constants, e.g. hasOnly(["a", "b"])',
          };
        }
        const variable = (list.args as readonly unknown[]).find((item) => !isConstant(item, expression));
        if (variable !== undefined) {
          return {
            offset: isCelNode(variable) ? variable.start : list.start,
            message: `hasOnly() takes a list of constants (literals such as "a" or 1); ${describeSource(variable, expression)} is not one`,
          };
        }
      }
      return undefined;
    },
  },
  {
    // "calls hasOnly(List<T>), and List<T> contains more than the maximum of 10 elements."
    unit: 'HasOnlyListLengthCheck',
    check: (ast) => {
      for (const call of methodCalls(ast, 'hasOnly')) {
        const [list] = call.args;
        if (!isCelNode(list) || list.op !== 'list') continue;
        const count = (list.args as readonly unknown[]).length;
        if (count > MAX_HAS_ONLY_VALUES) {
          return {
            offset: list.start,
            message: `hasOnly() lists ${formatCount(count)} values; Google allows at most ${MAX_HAS_ONLY_VALUES}`,
          };
        }
      }
      return undefined;
    },
  },
];

/** The first ERROR the linter would report on the parsed condition, or undefined. */
export function lintCondition(ast: CelNode, expression: string): LintFinding | undefined {
  for (const rule of RULES) {
    const finding = rule.check(ast, expression);
    if (finding) return { unit: rule.unit, ...finding };
  }
  return undefined;
}

/** `&&` and `||` in the parsed expression, so that operators inside string literals or comments do not count. */
export function countLogicalOperatorsIn(ast: CelNode): number {
  let count = 0;
  for (const node of celNodes(ast)) if (node.op === '&&' || node.op === '||') count++;
  return count;
}

function isEmptyList(node: unknown): boolean {
  return isCelNode(node) && node.op === 'list' && Array.isArray(node.args) && node.args.length === 0;
}

/** The source text of an operand, for messages. */
function describeSource(node: unknown, expression: string): string {
  return isCelNode(node) ? expression.slice(node.start, node.end) : String(node);
}
