import { Token } from 'cdktf';
import type { GrantSpec } from './grant-spec';

/** How a grant's spec is stored in its `terraform_data` and handed to the runner. */
export interface GrantTrigger {
  /** The `triggers_replace` value: any change to the spec revokes the old grant and grants the new one. */
  readonly triggersReplace: string | object;
  /**
   * The Terraform expression (no `${}` around it) that yields the spec's JSON for the
   * runner's `CDKTF_GOOGLE_IAM_GRANT`, read from `self`: all a destroy provisioner may read.
   */
  readonly specExpression: string;
}

/**
 * A spec known at synth is written out as its JSON text: one string to
 * synthesize and store, where an object costs cdktf a resolve per field (the
 * bulk of a grant's synth time). A spec with tokens stays an object so
 * Terraform fills in the values at apply time, and Terraform encodes it.
 */
export function grantTrigger(spec: GrantSpec): GrantTrigger {
  let hasTokens = false;
  // The spec holds strings, lists of strings and the condition object.
  const escape = (value: unknown): unknown => {
    if ((typeof value === 'string' || Array.isArray(value)) && Token.isUnresolved(value)) {
      hasTokens = true;
      return value; // a token, or a list token: Terraform's to fill in, left as it is
    }
    if (typeof value === 'string') return escapeTemplate(value);
    if (Array.isArray(value)) return value.map(escape);
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, escape(v)]));
    return value;
  };
  const escaped = escape(spec) as object;
  return hasTokens
    ? { triggersReplace: escaped, specExpression: 'jsonencode(self.triggers_replace)' }
    : { triggersReplace: JSON.stringify(escaped), specExpression: 'self.triggers_replace' };
}

/**
 * Terraform reads every string of a JSON configuration as a template, so a
 * literal `${` or `%{` (a CEL string literal, a condition title) is escaped
 * as `$${` / `%%{`; Terraform turns them back when it evaluates the value.
 */
function escapeTemplate(text: string): string {
  return text.replace(/\$\{/g, '$$${').replace(/%\{/g, '%%{');
}
