/**
 * The parsed expression's tree (cel-parser.ts makes it) and walks over it.
 */

/** A node of the parsed expression: its operator and operands. */
export interface CelNode {
  readonly op: string;
  readonly args: unknown;
  /** Where the node's text starts and ends in the expression (UTF-16 code units). */
  readonly start: number;
  readonly end: number;
}

/** Where and why the expression does not parse. */
export interface CelSyntaxError {
  /** Offset in the expression (UTF-16 code units). */
  readonly offset: number;
  readonly message: string;
}

/** Whether an operand is a node (operands are nodes, lists of nodes, names or literals). */
export function isCelNode(value: unknown): value is CelNode {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'string' && 'args' in value;
}

/**
 * Every node of the parsed expression, the root first, depth first. A
 * literal's value is never walked into (a bytes literal is an object too).
 */
export function* celNodes(root: unknown): Generator<CelNode> {
  if (Array.isArray(root)) {
    for (const item of root) yield* celNodes(item);
    return;
  }
  if (!isCelNode(root)) return;
  yield root;
  if (root.op !== 'value') yield* celNodes(root.args);
}

/** A receiver-style call `target.name(args)`, e.g. `x.hasOnly([...])`. */
export interface MethodCall {
  readonly node: CelNode;
  readonly target: unknown;
  readonly args: readonly unknown[];
}

/** The receiver-style calls of `name` in the expression. */
export function* methodCalls(root: CelNode, name: string): Generator<MethodCall> {
  for (const node of celNodes(root)) {
    if (node.op !== 'rcall' || !Array.isArray(node.args)) continue;
    const [called, target, args] = node.args as [unknown, unknown, unknown];
    if (called === name && Array.isArray(args)) yield { node, target, args };
  }
}

/** A literal (`"a"`, `1`, `-1`, `true`, `null`, ...): what CEL calls a constant. cel-go folds the sign of `-1` into the literal. */
export function isConstant(node: unknown, expression: string): boolean {
  if (!isCelNode(node)) return false;
  if (node.op === 'value') return true;
  return node.op === '-_' && isSignedLiteral(node, expression);
}

/** `-` written right before a numeric literal (whitespace allowed, no parenthesis): one literal to cel-go's grammar, as `-? DIGIT+`. */
export function isSignedLiteral(minus: CelNode, expression: string): boolean {
  const operand = minus.args;
  if (minus.op !== '-_' || !isCelNode(operand) || operand.op !== 'value') return false;
  if (typeof operand.args !== 'bigint' && typeof operand.args !== 'number') return false;
  return /^-[\t\n\f\r ]*$/.test(expression.slice(minus.start, operand.start));
}

/** A string literal's value, or undefined when the node is something else. */
export function stringLiteral(node: unknown): string | undefined {
  return isCelNode(node) && node.op === 'value' && typeof node.args === 'string' ? node.args : undefined;
}
