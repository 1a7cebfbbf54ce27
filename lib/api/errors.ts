import { sanitize } from './redact';
import { classifyFailure, connectionErrorCode, FAIL_FAST_CONNECTION_ERRORS, isRetried, type FailureKind } from './retry-policy';

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
 * HTTP code (0 when no response arrived) and Google's message. Every message
 * built from an answer or a library error is sanitized (tokens, keys and
 * `secrets` redacted, control characters removed, at most 1,000 characters).
 * The Direct-form lookups (`GoogleLookups`) reject with it.
 *
 * TypeScript/JavaScript only (jsii cannot represent a subclass of the
 * built-in `Error`): other languages get the same message in the error
 * their jsii runtime raises.
 *
 * @jsii ignore extends the built-in Error
 */
export class GoogleApiError extends Error {
  /** From an `{"error": {code, status, message}}` body (or whatever came back instead). */
  public static fromResponse(
    httpStatus: number,
    body: unknown,
    context?: string,
    secrets: readonly (string | undefined)[] = [],
  ): GoogleApiError {
    const error = (body as { error?: { status?: unknown; message?: unknown } } | undefined)?.error;
    const status =
      typeof error?.status === 'string' && /^[A-Z_]{1,64}$/.test(error.status) ? error.status : (STATUS_BY_HTTP[httpStatus] ?? 'UNKNOWN');
    const message =
      typeof error?.message === 'string' && error.message ? error.message : typeof body === 'string' && body ? body : `HTTP ${httpStatus}`;
    return new GoogleApiError(httpStatus, status, sanitize(message, secrets), context);
  }

  /** No HTTP response at all: reset, timed out (transient), or no connection (see `unreachable`). */
  public static network(cause: unknown, context?: string, secrets: readonly (string | undefined)[] = []): GoogleApiError {
    const code = connectionErrorCode(cause);
    const text = sanitize((cause as Error)?.message ?? String(cause), secrets);
    return new GoogleApiError(0, 'UNAVAILABLE', code ? `${text} (${sanitize(code)})` : text, context, classifyFailure(0, undefined, code));
  }

  /**
   * No connection could be made, for a reason that retrying will not fix
   * soon (retry-policy.ts: `failFast`): the host name does not resolve, or
   * nothing listens there. Failing at once names the host and where its
   * address came from (a typo in an endpoint override would otherwise be
   * retried for minutes).
   */
  public static unreachable(code: string, host: string, setBy: string, context?: string): GoogleApiError {
    const why = FAIL_FAST_CONNECTION_ERRORS[code] ?? 'the connection failed';
    return new GoogleApiError(
      0,
      'UNAVAILABLE',
      `cannot connect to ${sanitize(host)}: ${why} (${code}); the address comes from ${setBy}. Check it; nothing was sent`,
      context,
      'failFast',
    );
  }

  /** A 3xx answer: never followed (credentials would travel with the request, or a write go elsewhere). */
  public static redirected(httpStatus: number, location: string | null, context?: string): GoogleApiError {
    let where = 'nowhere named (no Location header)';
    if (location) {
      try {
        const url = new URL(location);
        where = `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}`;
      } catch {
        where = JSON.stringify(location);
      }
    }
    return new GoogleApiError(
      httpStatus,
      'UNKNOWN',
      `the endpoint answered HTTP ${httpStatus}, a redirect to ${sanitize(where, [], 300)}; IAM calls never follow redirects (the token would go with them), and nothing was sent there. A proxy or a wrong endpoint override may be in the way`,
      context,
      'permanent',
    );
  }

  /**
   * A 2xx answer that is not Google's JSON (a captive portal's page, an empty
   * body, a proxy's error) or not the shape the method returns. Never retried:
   * nothing in it can be trusted, and the same endpoint will answer the same.
   */
  public static malformed(httpStatus: number, what: string, context?: string): GoogleApiError {
    return new GoogleApiError(httpStatus, 'UNKNOWN', what, context, 'permanent');
  }

  /** The HTTP status; 0 when no response arrived. */
  public readonly httpStatus: number;
  /** Google's canonical status, e.g. `NOT_FOUND`, `ABORTED`. */
  public readonly status: string;
  /** Google's message (redacted, capped), without the status and context. */
  public readonly apiMessage: string;
  /** What the failure calls for (retry-policy.ts): a conflict, transient, fail fast, or permanent. */
  public readonly failureKind: FailureKind;

  /** `failureKind` overrides what the HTTP code and status would say, e.g. for errors raised before any request. */
  constructor(httpStatus: number, status: string, apiMessage: string, context?: string, failureKind?: FailureKind) {
    const where = httpStatus === 0 ? 'no response' : `HTTP ${httpStatus}`;
    super(`${status} (${where}): ${apiMessage}${context ? ` [${sanitize(context)}]` : ''}`);
    this.name = 'GoogleApiError';
    this.httpStatus = httpStatus;
    this.status = status;
    this.apiMessage = apiMessage;
    this.failureKind = failureKind ?? classifyFailure(httpStatus, status);
  }

  /** An etag mismatch: redo the whole read-modify-write. */
  public get conflict(): boolean {
    return this.failureKind === 'conflict';
  }

  /** Conflicts, throttling, server errors and lost connections are retried; the rest fail at once. */
  public get retryable(): boolean {
    return isRetried(this.failureKind);
  }
}

/**
 * Credentials missing or unusable, or no access token to be had. The message
 * says which sources were tried, in order, and never holds a secret. Only a
 * token endpoint that did not answer, or answered as a transient failure
 * (retry-policy.ts: `classifyTokenFailure`), is worth a retry.
 *
 * @jsii ignore extends the built-in Error (through GoogleApiError)
 */
export class CredentialsError extends GoogleApiError {
  constructor(message: string, options: { readonly httpStatus?: number; readonly failureKind?: FailureKind } = {}) {
    const httpStatus = options.httpStatus ?? 0;
    super(httpStatus, 'UNAUTHENTICATED', message, undefined, options.failureKind ?? 'permanent');
    this.name = 'CredentialsError';
    this.message = `UNAUTHENTICATED (credentials): ${message}`;
  }
}
