import type * as CelJs from '@marcbachmann/cel-js';

/**
 * The CEL parser (@marcbachmann/cel-js), bundled to CommonJS in
 * dist/vendor/cel.js and loaded on first use so that requiring this library
 * stays cheap. Only this file knows the package; the rest of lib/iam sees the
 * two small shapes below, which keep the package's types out of the public
 * declarations (it is a build-time dependency only).
 */

/** A node of the parsed expression: its operator and operands. */
export interface CelNode {
  readonly op: string;
  readonly args: unknown;
}

/** Where and why the expression does not parse. */
export interface CelSyntaxError {
  /** Offset in the expression (UTF-16 code units). */
  readonly offset: number;
  readonly message: string;
}

/** A parsed expression, or where and why it does not parse. */
export type CelParseResult = { readonly ok: true; readonly ast: CelNode } | { readonly ok: false; readonly error: CelSyntaxError };

type CelModule = typeof CelJs;

let celModule: CelModule | undefined;

function loadCel(): CelModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  celModule ??= require('../../dist/vendor/cel.js') as CelModule;
  return celModule;
}

/** Parses a CEL expression; a syntax error is returned, anything else thrown. */
export function parseCel(expression: string): CelParseResult {
  const cel = loadCel();
  try {
    return { ok: true, ast: cel.parse(expression).ast };
  } catch (e) {
    if (!(e instanceof cel.ParseError)) throw e;
    return { ok: false, error: { offset: e.range?.start ?? e.node?.pos ?? 0, message: e.summary } };
  }
}
