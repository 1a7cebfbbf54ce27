/**
 * The ERROR-level units of Google's IAM policy linter that apply to one
 * condition, each with the example condition Google's page gives for it
 * (https://cloud.google.com/iam/docs/linting-policies, "Linting examples").
 * The column is 1-based; Google's locationOffset, where the page gives one,
 * is noted beside it.
 */
import { validateCondition } from '../../../lib/iam/condition';
import { validationError } from './expect-error';

const refusal = (expression: string): string => validationError(() => validateCondition({ expression, title: 't' })).reason;
const accepts = (expression: string): void => {
  expect(validateCondition({ expression, title: 't' })).toEqual({ expression, title: 't' });
};

test("Google's example with no validation issues is accepted", () => {
  accepts('1 < 2');
});

test('ConditionCompileCheck: Google\'s example "true=false" does not parse', () => {
  expect(refusal('true=false')).toMatch(/^not valid CEL: Unexpected character: = at line 1, column 5:/);
});

describe('ConditionComplexityCheck: at most 12 logical operators', () => {
  test("Google's example (13 ||) is refused", () => {
    const expression = '1<2 || 2<3 || 3<4 || 4<5 || 5<6 || 6<7 || 7<8 || 8<9 || 9<10 || 10<11 || 11<12 || 12<13 || 13<14 || 14<15';
    expect(refusal(expression)).toBe(
      "the expression has 13 logical operators (&& and ||); Google allows at most 12 (Google's IAM policy linter: ConditionComplexityCheck)",
    );
  });

  test('12 are accepted', () => {
    accepts('1<2 || 2<3 || 3<4 || 4<5 || 5<6 || 6<7 || 7<8 || 8<9 || 9<10 || 10<11 || 11<12 || 12<13 || 13<14');
  });
});

describe("DrgGetAttributeDefaultValueCheck: api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', []) only", () => {
  test("Google's example (default ['roles/viewer']) is refused, at the default", () => {
    const expression = "api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', ['roles/viewer']).hasOnly(['roles/editor'])";
    expect(refusal(expression)).toBe(
      "api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', ...) takes only an empty list, [], as its default value " +
        "(Google's IAM policy linter: DrgGetAttributeDefaultValueCheck) at line 1, column 61:\n" + // Google: locationOffset 60
        `  ${expression}\n` +
        `  ${' '.repeat(60)}^`,
    );
  });

  test.each([
    "api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', []).hasOnly(['roles/editor'])",
    // Another attribute may take any default.
    "api.getAttribute('somekey', ['x']).hasOnly(['x'])",
  ])('accepts %j', (expression) => {
    accepts(expression);
  });
});

describe('HasOnlyListConstCheck: hasOnly() takes a list of constants', () => {
  test("Google's example (resource.name in the list) is refused, at the variable", () => {
    const expression = "api.getAttribute('somekey', []).hasOnly(['somevalue', resource.name])";
    expect(refusal(expression)).toMatch(
      /^hasOnly\(\) takes a list of constants \(literals such as "a" or 1\); resource\.name is not one \(Google's IAM policy linter: HasOnlyListConstCheck\) at line 1, column 55:/,
    );
  });

  test.each([
    "api.getAttribute('somekey', []).hasOnly([1, -2, 'x', \"y\", true, null, 2.5])",
    "api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', []).hasOnly(['roles/compute.admin', 'roles/storage.admin'])",
  ])('accepts %j', (expression) => {
    accepts(expression);
  });

  test.each([
    ["api.getAttribute('k', []).hasOnly(roles)", /hasOnly\(\) takes a list of constants, e\.g\. hasOnly\(\["a", "b"\]\)/],
    ["api.getAttribute('k', []).hasOnly([['a']])", /\['a'\] is not one/],
    ["api.getAttribute('k', []).hasOnly(['a' + 'b'])", /'a' \+ 'b' is not one/],
  ])('refuses %j', (expression, reason) => {
    expect(refusal(expression)).toMatch(reason);
    expect(refusal(expression)).toMatch(/HasOnlyListConstCheck/);
  });
});

describe('HasOnlyListLengthCheck: hasOnly() lists at most 10 values', () => {
  test("Google's example (11 values) is refused, at the list", () => {
    const expression = "api.getAttribute('somekey', []).hasOnly([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])";
    expect(refusal(expression)).toBe(
      "hasOnly() lists 11 values; Google allows at most 10 (Google's IAM policy linter: HasOnlyListLengthCheck) at line 1, column 41:\n" + // Google: locationOffset 39, the call's parenthesis
        `  ${expression}\n` +
        `  ${' '.repeat(40)}^`,
    );
  });

  test('10 are accepted', () => {
    accepts("api.getAttribute('somekey', []).hasOnly([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])");
  });
});

test('a rule names the field with its prefix', () => {
  const error = validationError(() =>
    validateCondition({ expression: "api.getAttribute('k', []).hasOnly([x])", title: 't' }, 'bindings[1].condition'),
  );
  expect(error.field).toBe('bindings[1].condition.expression');
});
