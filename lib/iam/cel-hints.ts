/**
 * Hints for a condition that does not parse, for mistakes people carry over
 * from SQL and other languages: `and`, `or`, `not` for CEL's `&&`, `||`, `!`,
 * and `=` for `==`. Only called once parsing failed, so a field named `or`
 * (`a.or`) or an `=` in a string never gets here on its own.
 */

const CEL_OPERATOR: Readonly<Record<string, string>> = { and: '&&', or: '||', not: '!' };

/**
 * String literals (quoted, triple-quoted) and `//` comments, roughly as
 * CEL's lexer finds them: good enough to not hint at words inside them.
 */
const LITERALS_AND_COMMENTS = /"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\/\/[^\n]*/g;
/** `and`, `or`, `not` as words of their own, not a field (`a.or`) nor part of a name. */
const WORD_OPERATORS = /(?<![.\w])(and|or|not)(?!\w)/g;
/** An `=` that is not part of `==`, `!=`, `<=` or `>=`. */
const SINGLE_EQUALS = /(?<![=!<>])=(?!=)/;

/** The hints for a syntax error in `expression`, one line each; empty when none applies. */
export function celSyntaxHints(expression: string): string[] {
  const code = expression.replace(LITERALS_AND_COMMENTS, (literal) => ' '.repeat(literal.length));
  const hints: string[] = [];
  const words = [...new Set(code.match(WORD_OPERATORS) ?? [])];
  if (words.length > 0) {
    const replacements = words.map((word) => `${CEL_OPERATOR[word]} for ${word}`).join(', ');
    hints.push(`CEL's logical operators are &&, || and !: write ${replacements}`);
  }
  if (SINGLE_EQUALS.test(code)) hints.push('CEL compares with ==; a single = is not an operator');
  return hints;
}
