import { celNodes, isCelNode, isSignedLiteral, type CelNode, type CelSyntaxError } from './cel-ast';

/**
 * What Google's CEL parser (cel-go) refuses while parsing and cel-js accepts,
 * found on cel-js's tree. Both cases are in cel-go's own parser tests
 * (parser/parser_test.go, as @bufbuild/cel-spec's testdata/parsing carries
 * them): `has(m)` → "invalid argument to has() macro" and
 * `0xFFFFFFFFFFFFFFFFF` → "invalid int literal".
 */
export function celGoSyntaxError(ast: CelNode, expression: string): CelSyntaxError | undefined {
  const nodes = [...celNodes(ast)];
  const negated = new Set(nodes.filter((node) => isSignedLiteral(node, expression)).map((minus) => minus.args));
  for (const node of nodes) {
    const error = hasMacroError(node) ?? intLiteralError(node, expression, negated.has(node));
    if (error) return error;
  }
  return undefined;
}

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/**
 * `has(e.f)` tests a field's presence: cel-go's macro (parser/macro.go,
 * makeHas) takes only a field selection as its argument; cel-spec
 * langdef.md, Macros: "has(e.f)".
 */
function hasMacroError(node: CelNode): CelSyntaxError | undefined {
  if (node.op !== 'call' || !Array.isArray(node.args)) return undefined;
  const [name, args] = node.args as [unknown, unknown];
  if (name !== 'has' || !Array.isArray(args) || args.length !== 1) return undefined;
  const [argument] = args as unknown[];
  if (isCelNode(argument) && argument.op === '.') return undefined;
  return {
    offset: isCelNode(argument) ? argument.start : node.start,
    message: 'invalid argument to has(): it takes a field selection, e.g. has(m.f)',
  };
}

/**
 * An int literal must fit int64: cel-go's VisitInt (parser/parser.go) parses
 * it with strconv.ParseInt(text, base, 64), the sign included when `-` is
 * written before the literal (cel-spec langdef.md: `INT_LIT ::= -? DIGIT+ |
 * -? 0x HEXDIGIT+`; "int: 64-bit signed integers"). cel-js keeps any size as a
 * BigInt and fails only when evaluating.
 */
function intLiteralError(node: CelNode, expression: string, negated: boolean): CelSyntaxError | undefined {
  if (node.op !== 'value' || typeof node.args !== 'bigint') return undefined;
  const value = negated ? -node.args : node.args;
  if (value >= INT64_MIN && value <= INT64_MAX) return undefined;
  const text = `${negated ? '-' : ''}${expression.slice(node.start, node.end)}`;
  return { offset: node.start, message: `the int literal ${text} is outside the 64-bit range of CEL's int (${INT64_MIN} to ${INT64_MAX})` };
}
