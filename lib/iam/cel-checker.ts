import type * as CelJs from '@marcbachmann/cel-js';
import { celNodes, isCelNode, stringLiteral, type CelNode } from './cel-ast';
import { loadCel, withFormFeedsAsSpaces } from './cel-parser';
import {
  API_ATTRIBUTES,
  ATTRIBUTE_FUNCTIONS,
  ATTRIBUTE_OBJECTS,
  ATTRIBUTE_REFERENCE,
  DURATION,
  EXTENSION_FUNCTIONS,
  STANDARD_OVERLOADS_CEL_JS_LACKS,
  TIMESTAMP,
  type AttributeObject,
} from './condition-attributes';
import { editDistance } from './edit-distance';
import { timestampProblem } from './cel-literals';

/**
 * Type checks a condition as Google's IAM environment types it: the
 * attributes and functions of condition-attributes.ts declared in a cel-js
 * Environment (with cel-js's CEL standard library), checked by cel-js's type
 * checker (`Environment.check`), the way Google's CEL compiler (cel-go) checks
 * a condition against its declarations ("undeclared reference", "found no
 * matching overload", ...). cel-js's findings are worded here: what is wrong,
 * where, and what would be right.
 *
 * The environment is as cel-go's default one: aggregate literals may mix
 * types (`[1, "a"]` is a `list(dyn)`), no optional syntax, no undeclared names.
 */

/** Where and what. */
export interface CelTypeFinding {
  /** Offset in the expression (UTF-16 code units). */
  readonly offset: number;
  readonly message: string;
}

/** What type checking found: the first error (Google refuses the condition), and the warnings (Google may). */
export interface CelTypeCheck {
  readonly error?: CelTypeFinding;
  readonly warnings: readonly CelTypeFinding[];
}

let environment: CelJs.Environment | undefined;

/** The IAM conditions environment, built on first use (building one takes a few milliseconds). */
function iamEnvironment(): CelJs.Environment {
  if (environment) return environment;
  const cel = loadCel();
  const env = new cel.Environment({ homogeneousAggregateLiterals: false, unlistedVariablesAreDyn: false, enableOptionalTypes: false });
  for (const object of ATTRIBUTE_OBJECTS) {
    // Only checked, never evaluated: a constructor of its own per type (cel-js keys types by constructor).
    env.registerType(object.type, { ctor: class {}, fields: object.fields });
  }
  for (const object of ATTRIBUTE_OBJECTS) if (!object.path.includes('.')) env.registerVariable(object.path, object.type);
  const never = (): never => {
    throw new Error('IAM conditions are type-checked, not evaluated');
  };
  for (const { signature } of ATTRIBUTE_FUNCTIONS) env.registerFunction(signature, never);
  for (const signature of STANDARD_OVERLOADS_CEL_JS_LACKS) env.registerFunction(signature, never);
  // cel-spec's standard definitions order bytes (`_<_` (bytes, bytes) -> bool, ...); cel-js 8 does not.
  for (const op of ['<', '<=', '>', '>=']) env.registerOperator(`bytes ${op} bytes`, never);
  environment = env;
  return env;
}

/** The CEL type of `expression` (which parses) in the IAM environment, as cel-js writes it (`bool`, `list<int>`), or why it has none. */
export function celType(
  expression: string,
): { readonly type: string; readonly error?: undefined } | { readonly type?: undefined; readonly error: CelTypeFinding } {
  const result = iamEnvironment().check(withFormFeedsAsSpaces(expression));
  if (result.valid) return { type: result.type ?? 'dyn' };
  return { error: describeError(result.error as CelJs.TypeError | CelJs.ParseError | undefined, expression) };
}

/** Type checks the parsed `ast` of `expression` (which parses) as a condition: well typed, and a bool. */
export function checkCelTypes(ast: CelNode, expression: string): CelTypeCheck {
  const typed = celType(expression);
  const warnings = celTypeWarnings(ast);
  if (typed.error) return { error: typed.error, warnings };
  if (typed.type !== 'bool' && typed.type !== 'dyn') {
    return {
      error: {
        offset: ast.start,
        message: `a condition must be true or false, but this expression is ${typeWithArticle(readableTypes(typed.type))}`,
      },
      warnings,
    };
  }
  return { warnings };
}

// ---------------------------------------------------------------------------------------------------------------
// Errors

const TOP_LEVEL = ATTRIBUTE_OBJECTS.filter((object) => !object.path.includes('.') && !object.uncertain).map((object) => object.path);

function describeError(error: CelJs.TypeError | CelJs.ParseError | undefined, expression: string): CelTypeFinding {
  const node = error?.node as CelNode | undefined;
  const offset = error?.range?.start ?? node?.start ?? 0;
  const summary = error?.summary ?? error?.message ?? 'the expression does not type-check';
  const code = (error as { code?: string } | undefined)?.code;
  if (node && isCelNode(node)) {
    const specific =
      code === 'unknown_variable'
        ? unknownVariable(node)
        : code === 'no_such_key'
          ? noSuchKey(node, expression, offset)
          : code === 'no_such_overload'
            ? noSuchOverload(node, expression, summary)
            : code === 'no_matching_overload'
              ? noMatchingOverload(node, expression, summary)
              : undefined;
    if (specific) return specific;
  }
  return { offset, message: readableTypes(summary) };
}

/** `foo`: not an attribute (or, inside a macro, not its variable). */
function unknownVariable(node: CelNode): CelTypeFinding | undefined {
  if (node.op !== 'id' || typeof node.args !== 'string') return undefined;
  const name = node.args;
  const suggestion = closest(name, TOP_LEVEL);
  return {
    offset: node.start,
    message:
      `${quote(name)} is not an attribute of IAM conditions${suggestion ? ` (did you mean ${quote(suggestion)}?)` : ''}: ` +
      `they are ${listed(TOP_LEVEL.map(quote), 'and')} (${ATTRIBUTE_REFERENCE})`,
  };
}

/** `request.tme`: an attribute object without that field. */
function noSuchKey(node: CelNode, expression: string, offset: number): CelTypeFinding | undefined {
  if (node.op !== '.' || !Array.isArray(node.args)) return undefined;
  const [target, key] = node.args as [unknown, unknown];
  if (!isCelNode(target) || typeof key !== 'string') return undefined;
  const path = sourceOf(target, expression).replace(/\s+/g, '');
  const object = ATTRIBUTE_OBJECTS.find((candidate) => candidate.path === path);
  if (!object) return { offset, message: `${quote(path)} has no field ${quote(key)}` };
  const fields = Object.keys(object.fields);
  if (fields.length === 0) {
    const calls = ATTRIBUTE_FUNCTIONS.filter((f) => f.usage.startsWith(`${object.path}.`)).map((f) => quote(f.usage));
    return {
      offset,
      message: `${quote(path)} has no attributes, only functions: ${listed(calls, 'and')} (${ATTRIBUTE_REFERENCE}, "${object.section}")`,
    };
  }
  const suggestion = closest(key, fields);
  return {
    offset,
    message:
      `${quote(path)} has no attribute ${quote(key)}${suggestion ? ` (did you mean ${quote(`${path}.${suggestion}`)}?)` : ''}: ` +
      `Google documents ${describeFields(object)} (${ATTRIBUTE_REFERENCE}, "${object.section}")`,
  };
}

function describeFields(object: AttributeObject): string {
  return listed(
    Object.entries(object.fields).map(([field, type]) => {
      const nested = ATTRIBUTE_OBJECTS.find((candidate) => candidate.type === type);
      return `${quote(`${object.path}.${field}`)} (${
        nested
          ? `with ${listed(
              Object.keys(nested.fields).map((f) => quote(`${nested.path}.${f}`)),
              'and',
            )}`
          : readableTypes(type)
      })`;
    }),
    'and',
  );
}

const RELATIONAL = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** `request.time < "2027-01-01"`: an operator no overload of which takes both operand types. */
function noSuchOverload(node: CelNode, expression: string, summary: string): CelTypeFinding | undefined {
  const match = /^no such overload: (.+)$/.exec(summary);
  if (!match || !Array.isArray(node.args) || node.args.length !== 2) return undefined;
  const [left, right] = node.args as [unknown, unknown];
  const types = match[1].split(` ${node.op} `);
  if (!isCelNode(left) || !isCelNode(right) || types.length !== 2) return undefined;
  const [leftType, rightType] = types.map(readableTypes);
  // The operand to change: a literal, else the right one.
  const wrongIsLeft = isLiteral(left) && !isLiteral(right);
  const [reference, referenceType, wrong, wrongType] = wrongIsLeft
    ? [right, rightType, left, leftType]
    : [left, leftType, right, rightType];
  const referenceText = sourceOf(reference, expression);
  const wrongText = sourceOf(wrong, expression);
  const operands = `CEL has no ${quote(node.op)} for ${typeWithArticle(leftType)} and ${typeWithArticle(rightType)}`;
  const fix = RELATIONAL.has(node.op) ? comparisonFix(referenceType, wrong) : undefined;
  const message = fix
    ? `${quote(referenceText)} is ${typeWithArticle(referenceType)}: compare it with ${quote(fix)}, not ${typeWithArticle(wrongType)} (${operands})`
    : `${quote(referenceText)} is ${typeWithArticle(referenceType)} and ${quote(wrongText)} ${typeWithArticle(wrongType)}: ${operands}`;
  return { offset: wrong.start, message };
}

/** What to compare a value of `type` with, from the literal written in its place when there is one. */
function comparisonFix(type: string, wrong: CelNode): string | undefined {
  const literal = wrong.op === 'value' ? wrong.args : undefined;
  switch (type) {
    case 'timestamp': {
      if (typeof literal === 'string') {
        if (/^\d{4}-\d{2}-\d{2}$/.test(literal) && timestampProblem(`${literal}T00:00:00Z`) === undefined) {
          return `timestamp("${literal}T00:00:00Z")`;
        }
        if (timestampProblem(literal) === undefined) return `timestamp(${JSON.stringify(literal)})`;
      }
      return 'timestamp("2027-01-01T00:00:00Z")';
    }
    case 'duration':
      return typeof literal === 'bigint' || typeof literal === 'number' ? `duration("${literal}s")` : 'duration("3600s")';
    case 'int':
      return typeof literal === 'string' && /^-?\d+$/.test(literal) ? literal : typeof literal === 'number' ? `int(${literal})` : '22';
    case 'uint':
      return typeof literal === 'bigint' && literal >= 0n ? `${literal}u` : '22u';
    case 'double':
      return typeof literal === 'bigint' ? `${literal}.0` : '1.0';
    case 'string':
      return typeof literal === 'bigint' || typeof literal === 'number' || typeof literal === 'boolean'
        ? JSON.stringify(String(literal))
        : undefined;
    case 'bool':
      return 'true';
    default:
      return undefined;
  }
}

/** `resource.name.startWith("x")`, `resource.matchTag("k")`: a function that does not exist, or not for these arguments. */
function noMatchingOverload(node: CelNode, expression: string, summary: string): CelTypeFinding | undefined {
  const match = /^found no matching overload for '(.+)'$/.exec(summary);
  if (!match || !Array.isArray(node.args)) return undefined;
  const receiverCall = node.op === 'rcall';
  const name = node.args[0] as unknown;
  if (typeof name !== 'string' || (node.op !== 'call' && !receiverCall)) return undefined;
  const target = receiverCall ? (node.args[1] as unknown) : undefined;
  const nameOffset = isCelNode(target) ? Math.max(expression.indexOf(name, target.end), node.start) : node.start;
  const called = readableTypes(match[1]);
  const overloads = functionDefinitions().filter(
    (definition) => definition.name === name && Boolean(definition.receiverType) === receiverCall,
  );
  if (overloads.length === 0) {
    const names = [
      ...new Set(
        functionDefinitions()
          .filter((d) => Boolean(d.receiverType) === receiverCall)
          .map((d) => d.name),
      ),
    ].filter((candidate) => !(candidate in EXTENSION_FUNCTIONS));
    const suggestion = closest(name, names);
    const kind = receiverCall ? `a function of ${receiverOf(called)}` : 'a function of CEL or of IAM conditions';
    return {
      offset: nameOffset,
      message: `${quote(`${name}()`)} is not ${kind}${suggestion ? `: did you mean ${quote(`${suggestion}()`)}?` : ''}`,
    };
  }
  const documented = ATTRIBUTE_FUNCTIONS.find((f) => f.signature.includes(`.${name}(`) || f.signature.startsWith(`${name}(`));
  const takes = listed(
    overloads.map((definition) => quote(readableTypes(definition.signature))),
    'or',
  );
  const example = documented ? `, e.g. ${quote(documented.usage)}` : '';
  return { offset: nameOffset, message: `no overload of ${quote(`${name}()`)} takes ${quote(called)}: it is ${takes}${example}` };
}

/** `string` of `string.startWith(string)`. */
function receiverOf(called: string): string {
  const dot = called.lastIndexOf('.', called.indexOf('('));
  return dot < 0 ? 'this value' : typeWithArticle(called.slice(0, dot));
}

interface FunctionDefinition {
  readonly name: string;
  readonly signature: string;
  readonly receiverType: string | null;
}

let definitions: readonly FunctionDefinition[] | undefined;

function functionDefinitions(): readonly FunctionDefinition[] {
  definitions ??= (iamEnvironment().getDefinitions().functions as FunctionDefinition[]).filter(
    (definition) => !definition.signature.includes('optional') && !definition.signature.includes('Namespace'),
  );
  return definitions;
}

// ---------------------------------------------------------------------------------------------------------------
// Warnings

/** What Google may refuse: an `api.getAttribute` key it does not document, a function outside CEL's standard library, an uncertain attribute. */
function celTypeWarnings(ast: CelNode): CelTypeFinding[] {
  const warnings: CelTypeFinding[] = [];
  for (const node of celNodes(ast)) {
    if (node.op === 'rcall' && Array.isArray(node.args)) {
      const [name, target, args] = node.args as [unknown, unknown, unknown];
      if (name === 'getAttribute' && isIdentifier(target, 'api') && Array.isArray(args)) {
        const warning = apiAttributeWarning(args as unknown[], node);
        if (warning) warnings.push(warning);
      } else if (typeof name === 'string' && name in EXTENSION_FUNCTIONS && !(name === 'bind' && !isIdentifier(target, 'cel'))) {
        warnings.push({
          offset: isCelNode(target) ? Math.max(node.start, expressionOffsetOf(name, target)) : node.start,
          message:
            `${quote(`${name}()`)} is from ${EXTENSION_FUNCTIONS[name]}, not CEL's standard library: ` +
            'Google does not document it for IAM conditions and may refuse the condition',
        });
      }
    }
    if (node.op === '.' && Array.isArray(node.args)) {
      const [target] = node.args as [unknown];
      const object = ATTRIBUTE_OBJECTS.find((candidate) => candidate.uncertain && isIdentifier(target, candidate.path));
      if (object) warnings.push({ offset: node.start, message: `${object.uncertain} (${ATTRIBUTE_REFERENCE}, "${object.section}")` });
    }
  }
  return warnings;
}

function apiAttributeWarning(args: readonly unknown[], call: CelNode): CelTypeFinding | undefined {
  const [key] = args;
  const documented = listed(Object.keys(API_ATTRIBUTES).map(quote), 'and');
  const literal = stringLiteral(key);
  const where = isCelNode(key) ? key.start : call.start;
  if (literal === undefined) {
    return { offset: where, message: `api.getAttribute() names its attribute with a string literal, e.g. ${documented.split(' and ')[0]}` };
  }
  if (literal in API_ATTRIBUTES) return undefined;
  return {
    offset: where,
    message:
      `Google's reference documents the api.getAttribute() keys ${documented}, not ${quote(literal)}: ` +
      `a service may provide it, or Google may refuse the condition (${ATTRIBUTE_REFERENCE}, "API attributes")`,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Wording

const TYPE_NAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [new RegExp(TIMESTAMP.replace(/\./g, '\\.'), 'g'), 'timestamp'],
  [new RegExp(DURATION.replace(/\./g, '\\.'), 'g'), 'duration'],
  ...ATTRIBUTE_OBJECTS.map((object) => [new RegExp(`${object.type.replace(/\./g, '\\.')}\\b`, 'g'), object.path] as const),
];

/** cel-js's type names as a condition's author knows them: `timestamp`, `request`. */
function readableTypes(text: string): string {
  return TYPE_NAMES.reduce((result, [pattern, name]) => result.replace(pattern, name), text);
}

function typeWithArticle(type: string): string {
  if (ATTRIBUTE_OBJECTS.some((object) => object.path === type)) return `the ${type} object`;
  if (type === 'null' || type === 'null_type') return 'null';
  if (type === 'dyn') return 'a value of any type';
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

function isLiteral(node: CelNode): boolean {
  if (node.op === 'value' || node.op === 'list' || node.op === 'map') return true;
  if (node.op === '-_' && isCelNode(node.args) && node.args.op === 'value') return true;
  if (node.op !== 'call' || !Array.isArray(node.args)) return false;
  const [name, args] = node.args as [unknown, unknown];
  return (name === 'timestamp' || name === 'duration') && Array.isArray(args) && args.every((arg) => isCelNode(arg) && arg.op === 'value');
}

/** Where the name of a receiver call starts: after its target, past the dot (the AST has no position for it). */
function expressionOffsetOf(name: string, target: CelNode): number {
  const source = (target as { input?: string }).input;
  return typeof source === 'string' ? source.indexOf(name, target.end) : target.end + 1;
}

function isIdentifier(node: unknown, name: string): boolean {
  return isCelNode(node) && node.op === 'id' && node.args === name;
}

function sourceOf(node: CelNode, expression: string): string {
  const text = expression.slice(node.start, node.end);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

function quote(text: string): string {
  return `\`${text}\``;
}

function listed(items: readonly string[], conjunction: 'and' | 'or'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}

/** The candidate nearest `word`, when near enough to be a slip (at most a third of its letters, at least one). */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best === word ? undefined : best;
}
