/**
 * parseCel parses as Google's parser (cel-go) does where cel-js alone does
 * not: the has() macro's argument, int literals beyond int64, form feed as
 * whitespace. The refused examples marked "cel-go" are cel-go's own parser
 * tests (parser/parser_test.go, carried by @bufbuild/cel-spec's testdata/parsing).
 */
import { parseCel } from '../../../lib/iam/cel-parser';

const refusal = (expression: string): { offset: number; message: string } | undefined => {
  const parsed = parseCel(expression);
  return parsed.ok ? undefined : parsed.error;
};

describe('has() takes a field selection (cel-go parser/macro.go)', () => {
  test.each(['has(a.b)', 'has(request.auth.claims.email)', 'has(a.b.c) && a'])('accepts %j', (expression) => {
    expect(refusal(expression)).toBeUndefined();
  });

  test.each<[string, number]>([
    ['has(m)', 4], // cel-go: "ERROR: <input>:1:5: invalid argument to has() macro"
    ['has(a[0])', 4],
    ["has(request.auth.claims['x'])", 4],
    ['has(a.b())', 4],
    ['x && has(1)', 9],
  ])('refuses %j, at the argument', (expression, offset) => {
    expect(refusal(expression)).toEqual({ offset, message: 'invalid argument to has(): it takes a field selection, e.g. has(m.f)' });
  });
});

describe('an int literal fits int64 (cel-go parser/parser.go VisitInt; cel-spec INT_LIT ::= -? DIGIT+ | -? 0x HEXDIGIT+)', () => {
  test.each([
    '9223372036854775807',
    '-9223372036854775808',
    '- 9223372036854775808',
    '0x7FFFFFFFFFFFFFFF',
    '-0x8000000000000000',
    '18446744073709551615u',
    'x == -1',
  ])('accepts %j', (expression) => {
    expect(refusal(expression)).toBeUndefined();
  });

  test.each<[string, number, string]>([
    ['0xFFFFFFFFFFFFFFFFF', 0, '0xFFFFFFFFFFFFFFFFF'], // cel-go: "ERROR: <input>:1:1: invalid int literal"
    ['9223372036854775808', 0, '9223372036854775808'],
    ['-9223372036854775809', 1, '-9223372036854775809'],
    ['0x8000000000000000', 0, '0x8000000000000000'],
    // The sign belongs to the literal only when written right before it: these negate an int that is already too large.
    ['-(9223372036854775808)', 2, '9223372036854775808'],
    ['1 - 9223372036854775808', 4, '9223372036854775808'],
  ])('refuses %j', (expression, offset, literal) => {
    expect(refusal(expression)).toEqual({
      offset,
      message: `the int literal ${literal} is outside the 64-bit range of CEL's int (-9223372036854775808 to 9223372036854775807)`,
    });
  });
});

describe("form feed is whitespace (cel-spec langdef.md WHITESPACE ::= [\\t\\n\\f\\r ]+; cel-go CEL.g4 '\\u000C')", () => {
  test.each(['a &&\fb', '\f1 <\f2\f', 'x == "a\fb"'])('accepts %j', (expression) => {
    expect(refusal(expression)).toBeUndefined();
  });

  test('vertical tab is not', () => {
    expect(refusal('a &&\vb')).toMatchObject({ offset: 4 });
  });
});
