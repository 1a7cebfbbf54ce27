/** HTTP statuses worth another attempt: throttling and server-side trouble. */
const TRANSIENT_HTTP = new Set([429, 500, 502, 503, 504]);

/** Google's canonical status names for HTTP codes, for error bodies that lack one. */
const STATUS_BY_HTTP: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  412: 'FAILED_PRECONDITION',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/**
 * A failed Google API call: Google's status (`NOT_FOUND`, `ABORTED`, …), the
 * HTTP code (0 when no response arrived) and Google's message.
 */
export class GoogleApiError extends Error {
  /** From an `{"error": {code, status, message}}` body (or whatever came back instead). */
  public static fromResponse(httpStatus: number, body: unknown, context?: string): GoogleApiError {
    const error = (body as { error?: { status?: unknown; message?: unknown } } | undefined)?.error;
    const status = typeof error?.status === 'string' && error.status ? error.status : (STATUS_BY_HTTP[httpStatus] ?? 'UNKNOWN');
    const message = typeof error?.message === 'string' && error.message
      ? error.message
      : typeof body === 'string' && body ? body.slice(0, 500) : `HTTP ${httpStatus}`;
    return new GoogleApiError(httpStatus, status, message, context);
  }

  /** No HTTP response at all: reset, refused, timed out. Always worth a retry. */
  public static network(cause: unknown, context?: string): GoogleApiError {
    const code = (cause as { code?: string; cause?: { code?: string } })?.cause?.code ?? (cause as { code?: string })?.code;
    const text = (cause as Error)?.message ?? String(cause);
    return new GoogleApiError(0, 'UNAVAILABLE', code ? `${text} (${code})` : text, context);
  }

  public readonly httpStatus: number;
  public readonly status: string;
  public readonly apiMessage: string;

  constructor(httpStatus: number, status: string, apiMessage: string, context?: string) {
    const where = httpStatus === 0 ? 'no response' : `HTTP ${httpStatus}`;
    super(`${status} (${where}): ${apiMessage}${context ? ` [${context}]` : ''}`);
    this.name = 'GoogleApiError';
    this.httpStatus = httpStatus;
    this.status = status;
    this.apiMessage = apiMessage;
  }

  /** An etag mismatch: redo the whole read-modify-write. */
  public get conflict(): boolean {
    return this.httpStatus === 409 || this.httpStatus === 412 || this.status === 'ABORTED';
  }

  /** Conflicts, throttling, server errors and lost connections are retried; the rest fail at once. */
  public get retryable(): boolean {
    return this.conflict || this.httpStatus === 0 || TRANSIENT_HTTP.has(this.httpStatus);
  }
}
