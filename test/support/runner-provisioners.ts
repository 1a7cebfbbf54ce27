/**
 * Reads a grant's local-exec provisioners back from synthesized Terraform
 * JSON, in either form Terraform accepts (see lib/grant/runner-provisioners.ts):
 * the compact one (one `local-exec` label, `interpreter` and `environment` as
 * single expressions) or cdktf's list of blocks.
 */
export interface LocalExec {
  readonly command: string;
  readonly when?: string;
  readonly interpreter: string[];
  readonly environment: Record<string, string>;
}

export function localExecs(resource: { provisioner?: unknown }): LocalExec[] {
  const { provisioner } = resource;
  const bodies: Record<string, unknown>[] = Array.isArray(provisioner)
    ? provisioner.map((p) => (p as Record<string, Record<string, unknown>>)['local-exec']).filter(Boolean)
    : ([((provisioner ?? {}) as Record<string, unknown>)['local-exec'] ?? []].flat() as Record<string, unknown>[]);
  return bodies.map((body) => ({
    command: body.command as string,
    ...(body.when === undefined ? {} : { when: body.when as string }),
    interpreter: typeof body.interpreter === 'string' ? listExpression(body.interpreter) : (body.interpreter as string[]),
    environment: typeof body.environment === 'string' ? objectExpression(body.environment) : (body.environment as Record<string, string>),
  }));
}

/** `${["a","b"]}` → ['a', 'b']: a tuple of string literals is JSON. */
function listExpression(expression: string): string[] {
  const inner = /^\$\{(\[.*\])\}$/s.exec(expression);
  if (!inner) throw new Error(`not a list expression: ${expression}`);
  return JSON.parse(inner[1]) as string[];
}

/** `${{K = expr, ...}}` → { K: '${expr}' }, the value written as an interpolation, as in a map of strings. */
function objectExpression(expression: string): Record<string, string> {
  const inner = /^\$\{\{(.*)\}\}$/s.exec(expression);
  if (!inner) throw new Error(`not an object expression: ${expression}`);
  return Object.fromEntries(
    inner[1].split(',').map((pair) => {
      const [key, ...value] = pair.split('=');
      return [key.trim(), `\${${value.join('=').trim()}}`];
    }),
  );
}
