import { DefaultTokenResolver, StringConcat, Token, Tokenization } from 'cdktf';
import type { IConstruct } from 'constructs';

/**
 * Renders a JSON-like value (strings, numbers, booleans, lists, objects)
 * that may hold cdktf tokens as the text of one Terraform expression, with
 * every literal string escaped as an HCL string literal (quotes, backslashes,
 * control characters, and `${` / `%{`, which Terraform would read as
 * templates) and every token as the expression it stands for.
 *
 * cdktf's own `Fn.jsonencode` does not escape quotes or backslashes inside
 * the strings it writes, nor `%{`; this is why grants holding tokens are
 * written with this instead.
 */
export function terraformExpression(value: unknown, scope: IConstruct): string {
  if (typeof value === 'string') return stringExpression(value, scope);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return 'null';
  if (Token.isUnresolved(value)) return bareExpression(value, scope);
  if (Array.isArray(value)) return `[${value.map((item) => terraformExpression(item, scope)).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${stringLiteral(k)} = ${terraformExpression(v, scope)}`)
    .join(', ')}}`;
}

/**
 * Terraform reads every string of a configuration as a template, so a
 * literal `${` or `%{` (a CEL string literal, a condition title) must be
 * written as `$${` / `%%{`; Terraform turns them back when it evaluates the
 * value. In a string that also holds cdktf tokens (values only Terraform
 * knows), only the literal text around the tokens is escaped: the tokens
 * become Terraform expressions and must stay as they are.
 */
export function escapeTemplate(text: string): string {
  if (!Token.isUnresolved(text)) return escapeLiteral(text);
  const tokens = [...new Set(Tokenization.reverseString(text).tokens.map((token) => Token.asString(token)))];
  if (tokens.length === 0) return escapeLiteral(text);
  const pattern = new RegExp(`(${tokens.map(regexQuote).join('|')})`);
  const parts = text.split(pattern);
  return parts.map((part, i) => (i % 2 === 1 ? part : beforeInterpolation(escapeLiteral(part), i + 1 < parts.length))).join('');
}

/** True when any string, list or object inside `value` is (or holds) a token. */
export function holdsTokens(value: unknown): boolean {
  if (Token.isUnresolved(value)) return true;
  if (Array.isArray(value)) return value.some(holdsTokens);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsTokens);
  return false;
}

/** An HCL string literal for `text`, with no interpolation in it. */
export function stringLiteral(text: string): string {
  return `"${escapeInLiteral(text)}"`;
}

function stringExpression(text: string, scope: IConstruct): string {
  if (!Token.isUnresolved(text)) return stringLiteral(text);
  const markers = [...new Set(Tokenization.reverseString(text).tokens.map((token) => Token.asString(token)))];
  const pattern = new RegExp(`(${markers.map(regexQuote).join('|')})`);
  const split = text.split(pattern);
  const parts = split.map((part, i) =>
    i % 2 === 1 ? `\${${bareExpression(part, scope)}}` : beforeInterpolation(escapeInLiteral(part), i + 1 < split.length),
  );
  return `"${parts.join('')}"`;
}

/** The expression a token stands for, without `${ }`; a token that resolves to plain text becomes a literal. */
function bareExpression(token: unknown, scope: IConstruct): string {
  const resolved = Tokenization.resolve(token, { scope, preparing: false, resolver: new DefaultTokenResolver(new StringConcat()) });
  if (typeof resolved !== 'string') return terraformExpression(resolved, scope);
  const single = /^\$\{([\s\S]*)\}$/.exec(resolved);
  if (single && !single[1].includes('${')) return single[1];
  // Several interpolations or literal text around one: already a template, as cdktf wrote it.
  return resolved.includes('${') ? `"${resolved.replace(/"/g, '\\"')}"` : stringLiteral(resolved);
}

/** JSON's string escapes are valid in HCL; templates are escaped on top. */
function escapeInLiteral(text: string): string {
  return escapeLiteral(JSON.stringify(text).slice(1, -1));
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

function escapeLiteral(text: string): string {
  return text.replace(/\$\{/g, '$$${').replace(/%\{/g, '%%{');
}

function regexQuote(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
