/**
 * The CEL parser against a corpus written by others: the parsing cases that
 * @bufbuild/cel-spec extracted from cel-go. A case with an `ast` parsed in
 * cel-go; a case without one failed to parse there (its `error` says why).
 * Cases with both an `ast` and an `error` parsed but failed cel-go's type
 * checker (undeclared `a`, ...): their syntax is valid.
 */
import { tests as parsingSuite } from '@bufbuild/cel-spec/testdata/parsing.js';
import { parseCel } from '../../../lib/iam/cel-parser';

const cases = parsingSuite.tests ?? [];
const parses = (expr: string): boolean => parseCel(expr).ok;

/** Parsed by cel-go, no error at all. */
const valid = cases.filter((c) => c.ast !== undefined && c.error === undefined).map((c) => c.original.expr);
/** Parsed by cel-go, failed only its type checker. */
const checkErrorsOnly = cases.filter((c) => c.ast !== undefined && c.error !== undefined).map((c) => c.original.expr);
/** Refused by cel-go's parser. */
const syntaxErrors = cases.filter((c) => c.ast === undefined).map((c) => c.original.expr);

/**
 * Syntax errors in cel-go that parseCel accepts, by reason. (Two that cel-js
 * itself accepts, `has(m)` and `0xFFFFFFFFFFFFFFFFF`, parseCel refuses as
 * cel-go does: lib/iam/cel-go-syntax.ts.) None of them is a
 * grammar difference that matters for an IAM condition.
 */
const ACCEPTED_SYNTAX_ERRORS: ReadonlyArray<{ readonly reason: string; readonly exprs: readonly string[] }> = [
  {
    // `__result__` is cel-go's internal accumulator name; cel-js names its own differently.
    reason: 'cel-go-specific accumulator variable name',
    exprs: ['[].existsOne(__result__, __result__)', 'm.map(__result__, __result__)', 'm.filter(__result__, false)'],
  },
  {
    // cel-go's tests run its parser with MaxRecursionDepth(32); cel-js's
    // default depth limit is 250. A configured limit, not the grammar.
    reason: "nesting deeper than the recursion limit of cel-go's test configuration (32)",
    exprs: syntaxErrors.filter((expr) => /^(\[{32}|y!=y|1 \+ 2 \+|a\.b\.c\.d|a\[1\]\[2\]|a < 1 < 2)/.test(expr)),
  },
];

/**
 * cel-go parses these; cel-js does not. They are message construction
 * (`Type{field: value}`), which cel-js 8 only accepts for types registered
 * in its environment. IAM conditions never construct messages.
 */
const REFUSED_CHECK_ERROR_CASES: readonly string[] = [
  'foo{ }',
  'foo{ a:b }',
  'foo{ a:b, c:d }',
  'SomeMessage{foo: 5, bar: "xyz"}',
  'TestAllTypes{single_int32: 1, single_int64: 2}',
];

const accepted = new Set(ACCEPTED_SYNTAX_ERRORS.flatMap((group) => group.exprs));

describe('@bufbuild/cel-spec parsing corpus', () => {
  test('has the expected shape', () => {
    expect(cases.length).toBeGreaterThan(150);
    expect(valid.length).toBeGreaterThan(0);
    expect(syntaxErrors.length).toBeGreaterThan(0);
  });

  test.each(valid)('valid: %j parses', (expr) => {
    expect(parses(expr)).toBe(true);
  });

  test.each(checkErrorsOnly.filter((expr) => !REFUSED_CHECK_ERROR_CASES.includes(expr)))('check error only: %j parses', (expr) => {
    expect(parses(expr)).toBe(true);
  });

  test.each(REFUSED_CHECK_ERROR_CASES)('message construction %j: refused by cel-js (list is current)', (expr) => {
    expect(checkErrorsOnly).toContain(expr);
    expect(parses(expr)).toBe(false);
  });

  test.each(syntaxErrors.filter((expr) => !accepted.has(expr)))('syntax error: %j is rejected', (expr) => {
    expect(parses(expr)).toBe(false);
  });

  // The allow-list must stay current: each entry still exists in the corpus and is still accepted.
  test.each(ACCEPTED_SYNTAX_ERRORS.flatMap((group) => group.exprs.map((expr) => [group.reason, expr] as const)))(
    'accepted syntax error (%s): %j',
    (_reason, expr) => {
      expect(syntaxErrors).toContain(expr);
      expect(parses(expr)).toBe(true);
    },
  );

  test('counts', () => {
    const rejected = syntaxErrors.filter((expr) => !parses(expr)).length;
    expect({
      valid: valid.length,
      checkErrorsOnly: checkErrorsOnly.length,
      syntaxErrors: syntaxErrors.length,
      rejected,
      accepted: accepted.size,
    }).toEqual({ valid: 36, checkErrorsOnly: 72, syntaxErrors: 86, rejected: 75, accepted: 11 });
  });
});
