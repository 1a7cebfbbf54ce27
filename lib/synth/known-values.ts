import { Fn, Token } from 'cdktf';

/** True unless the value is a Terraform token: synth-time checks skip what only apply time knows. */
export function isKnown(value: unknown): boolean {
  return value === undefined || !Token.isUnresolved(value);
}

/** True when any string, list or object inside `value` is (or holds) a token. */
export function holdsTokens(value: unknown): boolean {
  if (Token.isUnresolved(value)) return true;
  if (Array.isArray(value)) return value.some(holdsTokens);
  if (typeof value === 'object' && value !== null) return Object.values(value).some(holdsTokens);
  return false;
}

/** The project of a resource name, `projects/{project}/...`; `''` for another name; a Terraform expression for a token. */
export function projectOfName(name: string): string {
  if (!Token.isUnresolved(name)) return /^projects\/([^/]+)(\/|$)/.exec(name)?.[1] ?? '';
  return Fn.replace(name, '/^projects\\/([^/]+)(\\/.*)?$|^.*$/', '$1');
}
