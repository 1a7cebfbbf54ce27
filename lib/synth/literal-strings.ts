import { Fn, Token, Tokenization } from 'cdktf';

/**
 * How the provider's L1 classes write strings: the text given is literal
 * and reaches the provider exactly, and only the cdktf tokens inside it
 * (values Terraform knows) are expressions. Terraform reads every
 * configuration string as a template, so a literal `${` or `%{` (a CEL string
 * literal, a condition title) must be escaped; cdktf itself leaves that to
 * the user. The generated classes call these from their mappers.
 */

/** For JSON output: `${` / `%{` in the literal text become `$${` / `%%{`; tokens stay as they are. */
export function jsonLiteral(text: string | undefined): string | undefined {
  if (typeof text !== 'string') return text;
  return splitAtTokens(text)
    .map((part, i, parts) => (i % 2 === 1 ? part : beforeInterpolation(escapeTemplateText(part), i + 1 < parts.length)))
    .join('');
}

/**
 * For HCL output: cdktf's HCL renderer escapes neither backslashes nor (in
 * strings that hold `${`) quotes, so literal text travels base64-encoded
 * inside one expression that Terraform evaluates to the very same string.
 * Plain text that needs no escaping is written as it is.
 */
export function hclLiteral(text: string | undefined): string | undefined {
  if (typeof text !== 'string' || /^[A-Za-z0-9 _.,:;@/+=|~*#()[\]'-]*$/.test(text)) return text;
  const parts = splitAtTokens(text)
    .map((part, i) => (i % 2 === 1 ? part : part === '' ? undefined : Fn.base64decode(Buffer.from(part, 'utf8').toString('base64'))))
    .filter((part): part is string => part !== undefined);
  return parts.length === 1 ? parts[0] : Fn.join('', parts);
}

/** Literal text and tokens alternating (literal first; a token at an odd index). */
function splitAtTokens(text: string): string[] {
  if (!Token.isUnresolved(text)) return [text];
  const tokens = [...new Set(Tokenization.reverseString(text).tokens.map((token) => Token.asString(token)))];
  if (tokens.length === 0) return [text];
  return text.split(new RegExp(`(${tokens.map(regexQuote).join('|')})`));
}

function escapeTemplateText(text: string): string {
  return text.replace(/\$\{/g, '$$${').replace(/%\{/g, '%%{');
}

/**
 * Literal text that an interpolation follows: a `$` (or `%`) at its end would
 * join the interpolation's `${` into `$${` (`%${`), which Terraform reads as
 * the literal text `${`; such a trailing run is written as an interpolation
 * of its own (`${"$"}`), so the value stays a value.
 */
function beforeInterpolation(escaped: string, followed: boolean): string {
  if (!followed) return escaped;
  const run = /[$%]+$/.exec(escaped)?.[0];
  return run ? `${escaped.slice(0, -run.length)}\${"${run}"}` : escaped;
}

function regexQuote(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
