/** A `google.rpc.BadRequest` field violation, as Google details an INVALID_ARGUMENT. */
interface FieldViolation {
  readonly field?: string;
  readonly description: string;
}

/** An error the emulator answers with, in Google's JSON error shape. */
export class ApiError extends Error {
  constructor(
    public readonly code: number,
    public readonly status: string,
    message: string,
    private readonly violations: readonly FieldViolation[] = [],
  ) {
    super(message);
  }

  public body(): { error: { code: number; message: string; status: string; details?: unknown[] } } {
    const details =
      this.violations.length > 0 ? [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: this.violations }] : undefined;
    return { error: { code: this.code, message: this.message, status: this.status, ...(details ? { details } : {}) } };
  }
}

export const invalidArgument = (message: string) => new ApiError(400, 'INVALID_ARGUMENT', message);
export const notFound = (message: string) => new ApiError(404, 'NOT_FOUND', message);

/**
 * What Google's front end answers for a method it does not serve at a path (a GET where only POST
 * exists): a 404 HTML page, before any API sees the request.
 */
export class FrontEndNotFound extends Error {
  /** HTTP status. */
  public readonly code = 404;
  constructor(public readonly path: string) {
    super(`The requested URL ${path} was not found on this server.`);
  }

  public html(): string {
    return (
      '<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error 404 (Not Found)!!1</title>\n' +
      `  <p><b>404.</b> <ins>That’s an error.</ins>\n  <p>The requested URL <code>${escapeHtml(this.path)}</code> was not found on this server.  <ins>That’s all we know.</ins>\n`
    );
  }
}

export const frontEndNotFound = (path: string) => new FrontEndNotFound(path);

/**
 * Google's answer to a JSON field its schema does not have: 400 INVALID_ARGUMENT,
 * `Invalid JSON payload received. Unknown name "updateMask": Cannot find field.` at the top level,
 * `... Unknown name "foo" at 'policy.bindings[0]': Cannot find field.` below it.
 */
export function rejectUnknownFields(value: unknown, known: readonly string[], where: string): void {
  if (value === undefined) return;
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidArgument(`Invalid value at '${where || 'request'}': expected an object`);
  }
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const description = `Invalid JSON payload received. Unknown name ${JSON.stringify(key)}${where ? ` at '${where}'` : ''}: Cannot find field.`;
    throw new ApiError(400, 'INVALID_ARGUMENT', description, [{ ...(where ? { field: where } : {}), description }]);
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
