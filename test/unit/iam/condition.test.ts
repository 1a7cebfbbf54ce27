import { checkConditionAllowed, countLogicalOperators, validateCondition } from '../../../lib/iam/condition';
import type { ConditionInput } from '../../../lib/iam/types';
import { validationError } from './expect-error';

const TIME = 'request.time < timestamp("2030-01-01T00:00:00Z")';
// Operands of IAM's own attributes: an undeclared name (`a0`) is refused as Google's CEL compiler refuses it.
const chain = (operands: number, operator = '&&'): string =>
  Array.from({ length: operands }, (_, i) => `resource.name == "a${i}"`).join(` ${operator} `);

describe('validateCondition accepts SPEC 2.4 conditions', () => {
  test.each<[string, ConditionInput, ConditionInput]>([
    ['title and expression', { expression: TIME, title: 'expires' }, { expression: TIME, title: 'expires' }],
    [
      'with description',
      { expression: TIME, title: 't', description: 'until 2030' },
      { expression: TIME, title: 't', description: 'until 2030' },
    ],
    ['empty description', { expression: TIME, title: 't', description: '' }, { expression: TIME, title: 't', description: '' }],
    [
      'resource name prefix',
      { expression: 'resource.name.startsWith("projects/p/locations/global/authorizationPolicies/")', title: 't' },
      { expression: 'resource.name.startsWith("projects/p/locations/global/authorizationPolicies/")', title: 't' },
    ],
    [
      'multi-line with comment',
      { expression: `${TIME} &&\n  // only prod\n  resource.type == "x"`, title: 't' },
      { expression: `${TIME} &&\n  // only prod\n  resource.type == "x"`, title: 't' },
    ],
    ['12 logical operators', { expression: chain(13), title: 't' }, { expression: chain(13), title: 't' }],
    // Google documents no length limit for a condition's title or description: none is guessed.
    ['a 300-character title', { expression: TIME, title: 'x'.repeat(300) }, { expression: TIME, title: 'x'.repeat(300) }],
    [
      'a 1,000-character description',
      { expression: TIME, title: 't', description: 'é'.repeat(1000) },
      { expression: TIME, title: 't', description: 'é'.repeat(1000) },
    ],
    ['single-quoted strings', { expression: "resource.name == 'x'", title: 't' }, { expression: "resource.name == 'x'", title: 't' }],
    ['both quote styles', { expression: `'a' + "b" == "ab"`, title: 't' }, { expression: `'a' + "b" == "ab"`, title: 't' }],
    // cel-spec langdef.md: WHITESPACE ::= [\t\n\f\r ]+
    [
      'form feed as whitespace',
      { expression: 'resource.name == "a" &&\fresource.type == "b"', title: 't' },
      { expression: 'resource.name == "a" &&\fresource.type == "b"', title: 't' },
    ],
  ])('%s', (_name, input, expected) => {
    expect(validateCondition(input)).toEqual(expected);
  });

  test('drops fields outside the input shape', () => {
    const input = { expression: TIME, title: 't', extra: 1 } as unknown as ConditionInput;
    expect(validateCondition(input)).toEqual({ expression: TIME, title: 't' });
  });
});

describe('validateCondition rejects', () => {
  test.each<[string, unknown, string, RegExp]>([
    ['not an object', 'request.time < x', 'condition', /expected an object with expression, title/],
    ['null', null, 'condition', /expected an object/],
    ['an array', [TIME], 'condition', /expected an object/],
    ['missing expression', { title: 't' }, 'condition.expression', /a CEL expression is required/],
    ['empty expression', { expression: '', title: 't' }, 'condition.expression', /a CEL expression is required/],
    ['blank expression', { expression: ' \n ', title: 't' }, 'condition.expression', /a CEL expression is required/],
    ['non-string expression', { expression: true, title: 't' }, 'condition.expression', /a CEL expression is required/],
    ['missing title', { expression: TIME }, 'condition.title', /a title is required/],
    ['blank title', { expression: TIME, title: '  ' }, 'condition.title', /a title is required/],
    ['non-string description', { expression: TIME, title: 't', description: 5 }, 'condition.description', /expected a string/],
    [
      '13 && operators',
      { expression: chain(14), title: 't' },
      'condition.expression',
      /^the expression has 13 logical operators \(&& and \|\|\); Google allows at most 12 \(Google's IAM policy linter: ConditionComplexityCheck\)$/,
    ],
    [
      '13 mixed operators',
      { expression: `(${chain(7, '||')}) && (${chain(7)})`, title: 't' },
      'condition.expression',
      /has 13 logical operators/,
    ],
  ])('%s', (_name, input, field, reason) => {
    const error = validationError(() => validateCondition(input as ConditionInput));
    expect(error.field).toBe(field);
    expect(error.reason).toMatch(reason);
  });

  test('uses the given field as prefix', () => {
    expect(validationError(() => validateCondition({ expression: 'a &&', title: 't' }, 'grants[2].condition')).field).toBe(
      'grants[2].condition.expression',
    );
  });
});

describe('CEL syntax errors say where, with a caret under the spot', () => {
  test.each<[string, string, string]>([
    // expression, summary, position excerpt
    ['a &&', 'Unexpected token: EOF', 'line 1, column 5:\n  a &&\n      ^'],
    ['a + "unterminated', 'Unterminated string', 'line 1, column 5:\n  a + "unterminated\n      ^'],
    ['request.time < )', 'Unexpected token: RPAREN', 'line 1, column 16:\n  request.time < )\n                 ^'],
    [`${TIME} &&\n  resource.name ==`, 'Unexpected token: EOF', 'line 2, column 19:\n    resource.name ==\n                    ^'],
    ['a &&\n\tb @ c', 'Unexpected character: @', 'line 2, column 4:\n  \tb @ c\n  \t  ^'],
    ['x ||\n  (y &&\n  z', 'Expected RPAREN, got EOF', 'line 3, column 4:\n    z\n     ^'],
  ])('%j', (expression, summary, excerpt) => {
    const error = validationError(() => validateCondition({ expression, title: 't' }));
    expect(error.field).toBe('condition.expression');
    expect(error.value).toBe(expression);
    expect(error.reason).toBe(`not valid CEL: ${summary} at ${excerpt}`);
  });
});

describe('the line and column are where the token the message names starts', () => {
  test.each<[string, string, string]>([
    // The issue's condition: column 50 is the `a` of `and`, and the message names `and` (cel-js named its `d`).
    [`${TIME} and true`, "Unexpected 'and' after a complete expression", `line 1, column 50:\n  ${TIME} and true\n  ${' '.repeat(49)}^`],
    ['a &&\n  b or c', "Unexpected 'or' after a complete expression", 'line 2, column 5:\n    b or c\n      ^'],
    ['(a and b)', "Expected RPAREN, got IDENTIFIER 'and'", 'line 1, column 4:\n  (a and b)\n     ^'],
    ['f(x, "s" "t")', 'Expected RPAREN, got STRING \'"t"\'', 'line 1, column 10:\n  f(x, "s" "t")\n           ^'],
  ])('%j', (expression, summary, excerpt) => {
    const reason = validationError(() => validateCondition({ expression, title: 't' })).reason;
    expect(reason.split('\n  hint:')[0]).toBe(`not valid CEL: ${summary} at ${excerpt}`);
    const { line, column } = /line (?<line>\d+), column (?<column>\d+)/.exec(reason)!.groups!;
    const token = /'(.+)'/.exec(summary)![1];
    expect(
      expression
        .split('\n')
        [Number(line) - 1].slice(Number(column) - 1)
        .startsWith(token),
    ).toBe(true);
  });
});

describe("a syntax error with another language's operators gets a hint", () => {
  test.each<[string, string, readonly string[]]>([
    // Google's ConditionCompileCheck example (https://cloud.google.com/iam/docs/linting-policies).
    ['true=false', 'Unexpected character: =', ['CEL compares with ==; a single = is not an operator']],
    ['a and b', "Unexpected 'and' after a complete expression", ["CEL's logical operators are &&, || and !: write && for and"]],
    ['a or b', "Unexpected 'or' after a complete expression", ["CEL's logical operators are &&, || and !: write || for or"]],
    ['not a', "Unexpected 'a' after a complete expression", ["CEL's logical operators are &&, || and !: write ! for not"]],
    [
      "a = 'x' or not b",
      'Unexpected character: =',
      ["CEL's logical operators are &&, || and !: write || for or, ! for not", 'CEL compares with ==; a single = is not an operator'],
    ],
  ])('%j', (expression, summary, hints) => {
    const error = validationError(() => validateCondition({ expression, title: 't' }));
    expect(error.reason.startsWith(`not valid CEL: ${summary} at line 1, column `)).toBe(true);
    expect(error.reason.split('\n').slice(3)).toEqual(hints.map((hint) => `  hint: ${hint}`));
  });

  test.each([
    ['a word inside a string', 'x == "a and b" &&'],
    ['a field named or', 'a.or &&'],
    ['an = inside a string or comment', "x == '=' && // a = b\n  y =="],
    ['<= and !=', 'a <= b && c != d &&'],
  ])('no hint for %s', (_name, expression) => {
    const error = validationError(() => validateCondition({ expression, title: 't' }));
    expect(error.reason).toMatch(/^not valid CEL: /);
    expect(error.reason).not.toMatch(/hint:/);
  });
});

describe('countLogicalOperators counts the parsed AST', () => {
  test.each<[string, number]>([
    ['true', 0],
    [TIME, 0],
    ['a && b', 1],
    ['a || b && c', 2],
    ['!(a && b) || c', 2],
    ['"a && b || c" == x', 0],
    ["'&&' + \"||\" == r'&&'", 0],
    ['a == b // && || in a comment', 0],
    ['x.exists(y, y > 1 && y < 5)', 1],
    ['[a && b, c || d][0]', 2],
    ['{"k": a && b}["k"] || c', 2],
    ['a ? b && c : d || e', 2],
    ['f(a && b, c || d && e)', 3],
    [chain(13), 12],
    [chain(20, '||'), 19],
  ])('%j → %i', (expression, count) => {
    expect(countLogicalOperators(expression)).toBe(count);
  });

  test('a syntax error is an IamValidationError on the given field', () => {
    const error = validationError(() => countLogicalOperators('a &&', 'expr'));
    expect(error.field).toBe('expr');
    expect(error.reason).toMatch(/^not valid CEL: Unexpected token: EOF at line 1, column 5:/);
  });
});

describe('checkConditionAllowed', () => {
  test.each<[string, readonly string[]]>([
    ['roles/networksecurity.admin', ['user:a@example.com']],
    ['projects/my-project/roles/custom', ['group:g@example.com', 'domain:example.com']],
    ['roles/browser', []],
  ])('allows %s with %j', (role, members) => {
    expect(() => checkConditionAllowed(role, members)).not.toThrow();
  });

  test.each<[string, readonly string[], unknown, RegExp]>([
    ['roles/owner', ['user:a@example.com'], 'roles/owner', /cannot be used with the basic role roles\/owner/],
    ['roles/editor', [], 'roles/editor', /basic role roles\/editor/],
    ['roles/viewer', ['user:a@example.com'], 'roles/viewer', /basic role roles\/viewer/],
    ['roles/datamigration.editor', ['user:a@example.com', 'allUsers'], 'allUsers', /cannot be used with allUsers/],
    ['roles/datamigration.editor', ['allAuthenticatedUsers'], 'allAuthenticatedUsers', /cannot be used with allAuthenticatedUsers/],
  ])('refuses %s with %j', (role, members, value, reason) => {
    const error = validationError(() => checkConditionAllowed(role, members, 'condition'));
    expect(error.field).toBe('condition');
    expect(error.value).toBe(value);
    expect(error.reason).toMatch(reason);
  });
});
