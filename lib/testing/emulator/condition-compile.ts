import { parseCel } from '../../iam/cel-parser';
import { conditionRefusal } from '../../iam/condition';
import { lintCondition } from '../../iam/condition-lint';
import { positionAt } from '../../iam/source-excerpt';
import type { Expr } from '../../iam/types';
import { invalidArgument } from './api-error';

/**
 * What Google's setIamPolicy does with a binding's condition: it compiles the
 * expression (parses it and type checks it against IAM's attributes) and runs
 * the ERROR-level checks of its IAM policy linter, and either failing is a 400
 * INVALID_ARGUMENT (an ERROR "causes the setPolicy operation to fail":
 * https://cloud.google.com/iam/docs/linting-policies; ConditionCompileCheck
 * is "a compilation error"). A timestamp or duration literal Google's CEL
 * cannot parse is refused too (lib/iam/cel-literals.ts).
 * The checks are lib/iam's, the same the constructs run at synth; only the
 * wording is the emulator's, with positions as Google's CEL compiler (cel-go)
 * writes them: `<input>:line:column`.
 */
export function checkConditionCompiles(role: string, condition: Expr): void {
  const { expression } = condition;
  const which = `Condition ${JSON.stringify(condition.title)} of role ${role}`;
  const parsed = parseCel(expression);
  if (!parsed.ok) {
    const { offset, message } = parsed.error;
    throw invalidArgument(`${which} does not compile: ERROR: ${location(expression, offset)}: Syntax error: ${message}`);
  }
  const finding = lintCondition(parsed.ast, expression);
  if (finding) {
    const where = finding.offset === undefined ? '' : ` at ${location(expression, finding.offset)}`;
    throw invalidArgument(`${which} fails the IAM policy linter's ${finding.unit}${where}: ${finding.message}`);
  }
  const refusal = conditionRefusal(parsed.ast, expression);
  if (refusal) throw invalidArgument(`${which} does not compile: ERROR: ${location(expression, refusal.offset)}: ${refusal.message}`);
}

function location(expression: string, offset: number): string {
  const { line, column } = positionAt(expression, offset);
  return `<input>:${line}:${column}`;
}
