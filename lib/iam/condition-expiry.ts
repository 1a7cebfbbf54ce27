import { isCelNode, stringLiteral, type CelNode } from './cel-ast';
import { parseCel } from './cel-parser';

/**
 * Whether a condition can still be true, judged from its comparisons of
 * `request.time` with `timestamp("...")` literals and the clock: time only
 * moves on, so once `now` is past `T`, `request.time < T` is false for good and
 * `request.time > T` true for good. `&&`, `||` and `!` combine them; anything
 * else may be true or false, and so is the expression unless those decide it
 * (Google's linter reports the same as EffectiveTimeRangeCheck).
 */

/** Why an expression can no longer be true: the comparison that decided it, as written, and its time. */
export interface Expiry {
  /** The comparison's text, e.g. `request.time < timestamp("2024-01-01T00:00:00Z")`. */
  readonly comparison: string;
  /** The timestamp's literal, e.g. `2024-01-01T00:00:00Z`. */
  readonly time: string;
}

type Truth = { readonly value: boolean; readonly why?: Expiry } | undefined;

/** The expiry of `expression` at `now`, or undefined when it may still be true (or does not parse: the validators say why). */
export function conditionExpiry(expression: string, now: Date): Expiry | undefined {
  const parsed = parseCel(expression);
  if (!parsed.ok) return undefined;
  const truth = evaluate(parsed.ast, expression, now.getTime());
  return truth && !truth.value ? truth.why : undefined;
}

const MIRRORED: Readonly<Record<string, string>> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

function evaluate(node: CelNode, expression: string, now: number): Truth {
  const args = Array.isArray(node.args) ? (node.args as unknown[]) : [node.args];
  const operand = (i: number): Truth => (isCelNode(args[i]) ? evaluate(args[i] as CelNode, expression, now) : undefined);
  switch (node.op) {
    case '&&': {
      const [a, b] = [operand(0), operand(1)];
      if (a && !a.value) return a;
      if (b && !b.value) return b;
      return a && b ? { value: true } : undefined;
    }
    case '||': {
      const [a, b] = [operand(0), operand(1)];
      if (a?.value || b?.value) return { value: true };
      return a && b ? { value: false, why: a.why ?? b.why } : undefined;
    }
    case '!_': {
      const a = operand(0);
      return a ? { value: !a.value, why: a.why } : undefined;
    }
    case '<':
    case '<=':
    case '>':
    case '>=':
      return comparison(node, args, expression, now);
    default:
      return undefined;
  }
}

/** `request.time OP timestamp("T")` (either side), once `now` decides it for good. */
function comparison(node: CelNode, args: readonly unknown[], expression: string, now: number): Truth {
  const [left, right] = args;
  let op = node.op;
  let time: string | undefined;
  if (isRequestTime(left)) time = timestampLiteral(right);
  else if (isRequestTime(right)) {
    time = timestampLiteral(left);
    op = MIRRORED[op];
  }
  if (time === undefined) return undefined;
  const t = Date.parse(time);
  if (Number.isNaN(t)) return undefined;
  const why: Expiry = { comparison: expression.slice(node.start, node.end), time };
  // request.time is `now` or later from here on.
  if ((op === '<' && t <= now) || (op === '<=' && t < now)) return { value: false, why };
  if ((op === '>' && t < now) || (op === '>=' && t <= now)) return { value: true, why };
  return undefined;
}

function isRequestTime(node: unknown): boolean {
  if (!isCelNode(node) || node.op !== '.' || !Array.isArray(node.args)) return false;
  const [target, field] = node.args as [unknown, unknown];
  return field === 'time' && isCelNode(target) && target.op === 'id' && target.args === 'request';
}

/** The literal of `timestamp("...")`, or undefined. */
function timestampLiteral(node: unknown): string | undefined {
  if (!isCelNode(node) || node.op !== 'call' || !Array.isArray(node.args)) return undefined;
  const [name, callArgs] = node.args as [unknown, unknown];
  if (name !== 'timestamp' || !Array.isArray(callArgs) || callArgs.length !== 1) return undefined;
  return stringLiteral(callArgs[0]);
}
