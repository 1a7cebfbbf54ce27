import { loadCredentials, type Credentials } from './credentials';
import { GoogleApiError } from './errors';
import type { AuthResponse } from './google-auth';
import { sanitize } from './redact';
import { connectionErrorCode, isFailFastConnectionError } from './retry-policy';
import { endpointOverrideVariable, serviceRootUrl, type GoogleService } from './services';

/** The largest answer read; a bigger one fails (an IAM policy is at most a few hundred KiB). */
export const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;

/** Options of a `GoogleRestClient`. */
export interface GoogleRestClientOptions {
  /** @default - `GOOGLE_OAUTH_ACCESS_TOKEN`, else `GOOGLE_CREDENTIALS`, else Application Default Credentials (see credentials.ts) */
  readonly accessToken?: string;
  /** Where credentials and endpoint overrides are read. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Per-request timeout. @default 60000 */
  readonly timeoutMs?: number;
  /** @default 'cdktf-google-iam' */
  readonly userAgent?: string;
  /** @default MAX_RESPONSE_BYTES */
  readonly maxResponseBytes?: number;
}

/** One REST call: which API, which path below its root, how. */
export interface RestRequest {
  /** The API, e.g. `networksecurity` (lowercase letters and digits). */
  readonly service: GoogleService;
  /** Relative to the service root, e.g. `v1/projects/p/...:getIamPolicy`. */
  readonly path: string;
  /** @default 'GET' */
  readonly method?: 'GET' | 'POST' | 'PUT';
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
}

/**
 * One authenticated JSON call to a Google REST API, one attempt: retrying is
 * the caller's decision (a read-modify-write must redo the whole cycle, not
 * one request), so gaxios' own retries are off. Failures become
 * GoogleApiError (CredentialsError when no token could be had). A 2xx answer
 * must be a JSON object: anything else (an HTML page, an empty body, a bare
 * string or array) fails, so nothing is ever built on it.
 */
export class GoogleRestClient {
  private readonly env: NodeJS.ProcessEnv;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly accessToken?: string;
  private readonly maxResponseBytes: number;
  private credentials?: Promise<Credentials>;

  constructor(options: GoogleRestClientOptions = {}) {
    this.env = options.env ?? process.env;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.userAgent = options.userAgent ?? 'cdktf-google-iam';
    this.accessToken = options.accessToken;
    this.maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  }

  /**
   * Loads google-auth-library and the credentials, and fetches a token, ahead
   * of the first request. Unusable credentials fail here; a token endpoint that
   * does not answer is left for the request to report (and its caller to retry).
   */
  public async authenticate(): Promise<void> {
    const credentials = await this.loadCredentials();
    await credentials.requestHeaders().catch(() => undefined);
  }

  public async request<T>(request: RestRequest): Promise<T> {
    const method = request.method ?? 'GET';
    const context = `${method} ${request.path}`;
    const url = serviceRootUrl(request.service, this.env) + request.path.replace(/^\//, '');
    const credentials = await this.loadCredentials();
    const token = /^Bearer (.+)$/i.exec((await credentials.requestHeaders()).get('authorization') ?? '')?.[1];
    const secrets = [token, ...credentials.secrets];
    let response: AuthResponse;
    let text: string;
    try {
      response = await credentials.client.request({
        url,
        method,
        params: definedOnly(request.query),
        data: request.body,
        headers: { 'User-Agent': this.userAgent },
        timeout: this.timeoutMs,
        retry: false,
        // Never follow a redirect: the token would go with it, or a write be answered by another host.
        redirect: 'manual',
        maxRedirects: 0,
        responseType: 'stream',
        validateStatus: () => true,
      });
      text = await readCapped(response, this.maxResponseBytes);
    } catch (error) {
      if (error instanceof GoogleApiError)
        throw new GoogleApiError(error.httpStatus, error.status, error.apiMessage, context, error.failureKind);
      // google-auth-library throws GaxiosError for a token it could not refresh mid-request.
      const failed = (error as { response?: { status?: number; data?: unknown } }).response;
      if (failed?.status)
        throw GoogleApiError.fromResponse(failed.status, isStream(failed.data) ? undefined : failed.data, context, secrets);
      const code = connectionErrorCode(error);
      if (isFailFastConnectionError(code))
        throw GoogleApiError.unreachable(code, new URL(url).host, this.endpointSource(request.service), context);
      throw GoogleApiError.network(error, context, secrets);
    }
    if (response.status >= 300 && response.status < 400) {
      (response.data as { destroy?: () => void } | null)?.destroy?.();
      throw GoogleApiError.redirected(response.status, response.headers.get('location'), context);
    }
    if (response.status < 200 || response.status >= 300)
      throw GoogleApiError.fromResponse(response.status, parseJson(text) ?? text, context, secrets);
    const body = parseJson(text);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw notGoogleJson(response, text, context, secrets);
    return body as T;
  }

  /** Where a service's address comes from, for messages: its override variable, or Google's default. */
  private endpointSource(service: GoogleService): string {
    const variable = endpointOverrideVariable(service);
    const value = this.env[variable]?.trim();
    return value
      ? `${variable}=${JSON.stringify(sanitize(value, [], 200))}`
      : `Google's default endpoint for ${service} (set ${variable} to use another)`;
  }

  private loadCredentials(): Promise<Credentials> {
    if (!this.credentials) {
      const loading = loadCredentials(this.accessToken, this.env);
      // A failed load is not kept: the next attempt reads the configuration again.
      loading.catch(() => {
        if (this.credentials === loading) this.credentials = undefined;
      });
      this.credentials = loading;
    }
    return this.credentials;
  }
}

/** The body as text, refusing (and dropping the connection of) an answer bigger than `maxBytes`. */
async function readCapped(response: AuthResponse, maxBytes: number): Promise<string> {
  const tooLarge = (size: string) =>
    GoogleApiError.malformed(
      response.status,
      `the endpoint answered with ${size}, more than the ${maxBytes} bytes accepted; refusing to read it`,
    );
  const declared = Number(response.headers.get('content-length') ?? NaN);
  const stream = response.data as (AsyncIterable<Buffer> & { destroy?: () => void }) | null | undefined;
  if (declared > maxBytes) {
    stream?.destroy?.();
    throw tooLarge(`${declared} bytes`);
  }
  if (!stream || typeof stream === 'string') return stream ?? '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += chunk.length;
    if (size > maxBytes) {
      stream.destroy?.();
      throw tooLarge(`over ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}

function notGoogleJson(response: AuthResponse, text: string, context: string, secrets: readonly (string | undefined)[]): GoogleApiError {
  const contentType = sanitize(response.headers.get('content-type') ?? 'none', [], 100);
  const size = Buffer.byteLength(text);
  const parsed = parseJson(text);
  const what =
    text.trim() === ''
      ? 'an empty body'
      : parsed === undefined
        ? 'a body that is not JSON'
        : `JSON that is not an object (${Array.isArray(parsed) ? 'an array' : parsed === null ? 'null' : typeof parsed})`;
  const excerpt = text.trim() === '' ? '' : `; it begins: ${JSON.stringify(sanitize(text, secrets, 120))}`;
  return GoogleApiError.malformed(
    response.status,
    `the endpoint answered HTTP ${response.status} with ${what}, not Google's JSON (content type ${contentType}, ${size} bytes)${excerpt}. ` +
      'A proxy, captive portal or wrong endpoint override may be in the way; nothing was done with the answer',
    context,
  );
}

function isStream(data: unknown): boolean {
  return typeof (data as { pipe?: unknown } | undefined)?.pipe === 'function';
}

function definedOnly(query: RestRequest['query']): Record<string, string> | undefined {
  if (!query) return undefined;
  const entries = Object.entries(query)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => [k, String(v)]);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
