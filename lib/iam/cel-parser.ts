import type * as CelJs from '@marcbachmann/cel-js';
import type { CelNode, CelSyntaxError } from './cel-ast';
import { celGoSyntaxError } from './cel-go-syntax';

/**
 * The CEL parser (@marcbachmann/cel-js), loaded on first use so that
 * requiring this library stays cheap. Only this file and cel-checker.ts (its
 * type checker) know the package; the rest of lib/iam sees the small shapes
 * of cel-ast.ts, which keep the package's types out of the public
 * declarations.
 *
 * Google parses conditions with cel-go; where cel-js parses differently,
 * parseCel follows cel-go (see cel-go-syntax.ts and the form feed below).
 *
 * The package is an ES module and a build-time dependency: the published
 * package carries a CommonJS copy of it, dist/vendor/cel.js
 * (`npm run bundle:vendor`), and loads that. A source checkout that has not
 * been built loads the package itself (Jest turns it into CommonJS, see
 * jest.config.js), so the unit tests need no build.
 */

/** A parsed expression, or where and why it does not parse. */
export type CelParseResult = { readonly ok: true; readonly ast: CelNode } | { readonly ok: false; readonly error: CelSyntaxError };

/** The package's module (cel-checker.ts uses its Environment). */
export type CelModule = typeof CelJs;

let celModule: CelModule | undefined;

/* eslint-disable @typescript-eslint/no-require-imports */
/** The package, loaded on first use: the bundled copy, or the package itself in a checkout not yet built. */
export function loadCel(): CelModule {
  if (!celModule) {
    try {
      celModule = require('../../dist/vendor/cel.js') as CelModule;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'MODULE_NOT_FOUND') throw error;
      celModule = require('@marcbachmann/cel-js') as CelModule;
    }
  }
  return celModule;
}
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * CEL's whitespace includes form feed (cel-spec langdef.md: `WHITESPACE ::=
 * [\t\n\f\r ]+`; cel-go's CEL.g4 lexer: `'\u000C'`); cel-js refuses it. A
 * space in its place parses the same everywhere: between tokens it is
 * whitespace too, and in a string literal or comment both are ordinary
 * characters. Offsets stay the same.
 */
export function withFormFeedsAsSpaces(expression: string): string {
  return expression.replace(/\f/g, ' ');
}

/** Parses a CEL expression as Google's parser (cel-go) does; a syntax error is returned, anything else thrown. */
export function parseCel(expression: string): CelParseResult {
  const cel = loadCel();
  try {
    const ast = cel.parse(withFormFeedsAsSpaces(expression)).ast as CelNode;
    const error = celGoSyntaxError(ast, expression);
    return error ? { ok: false, error } : { ok: true, ast };
  } catch (e) {
    if (!(e instanceof cel.ParseError)) throw e;
    const offset = e.range?.start ?? e.node?.pos ?? 0;
    return { ok: false, error: { offset, message: syntaxMessage(e.summary, expression.slice(offset, e.range?.end ?? offset)) } };
  }
}

/**
 * cel-js's message, naming the token its position points at. After a complete
 * expression, cel-js names the last character of the next token (`a and b`:
 * "Unexpected character: 'd'", while the position is the `a` of `and`); a
 * token it names by its type alone ("got IDENTIFIER") gets its text too.
 */
function syntaxMessage(summary: string, token: string): string {
  if (token === '') return summary;
  const shown = `'${token.length > 40 ? `${token.slice(0, 40)}…` : token}'`;
  if (/^Unexpected character: '.'$/.test(summary)) return `Unexpected ${shown} after a complete expression`;
  if (/, got [A-Z_]+$/.test(summary) && !summary.endsWith(', got EOF')) return `${summary} ${shown}`;
  return summary;
}
