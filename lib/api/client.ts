import type { AuthClient } from './google-auth';
import { authClient } from './credentials';
import { GoogleApiError } from './errors';
import { serviceRootUrl, type GoogleService } from './services';

export interface GoogleRestClientOptions {
  /** @default - `GOOGLE_OAUTH_ACCESS_TOKEN`, else Application Default Credentials */
  readonly accessToken?: string;
  /** Where credentials and endpoint overrides are read. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Per-request timeout. @default 60000 */
  readonly timeoutMs?: number;
  /** @default 'cdktf-google-iam' */
  readonly userAgent?: string;
}

export interface RestRequest {
  readonly service: GoogleService;
  /** Relative to the service root, e.g. `v1/projects/p/...:getIamPolicy`. */
  readonly path: string;
  /** @default 'GET' */
  readonly method?: 'GET' | 'POST';
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
}

/**
 * One authenticated JSON call to a Google REST API, one attempt: retrying is
 * the caller's decision (a read-modify-write must redo the whole cycle, not
 * one request), so gaxios' own retries are off. Failures become GoogleApiError.
 */
export class GoogleRestClient {
  private readonly env: NodeJS.ProcessEnv;
  private readonly timeoutMs: number;
  private readonly userAgent: string;
  private readonly accessToken?: string;
  private auth?: Promise<AuthClient>;

  constructor(options: GoogleRestClientOptions = {}) {
    this.env = options.env ?? process.env;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.userAgent = options.userAgent ?? 'cdktf-google-iam';
    this.accessToken = options.accessToken;
  }

  /** Loads google-auth-library and sets up the credentials ahead of the first request. */
  public async authenticate(): Promise<void> {
    await this.authClient();
  }

  public async request<T>(request: RestRequest): Promise<T> {
    const url = serviceRootUrl(request.service, this.env) + request.path.replace(/^\//, '');
    const context = `${request.method ?? 'GET'} ${request.path}`;
    const client = await this.authClient();
    let response;
    try {
      response = await client.request({
        url,
        method: request.method ?? 'GET',
        params: definedOnly(request.query),
        data: request.body,
        headers: { 'User-Agent': this.userAgent },
        timeout: this.timeoutMs,
        retry: false,
        responseType: 'text',
        validateStatus: () => true,
      });
    } catch (error) {
      // google-auth-library throws GaxiosError for responses it would not accept.
      const failed = (error as { response?: { status?: number; data?: unknown } }).response;
      if (failed?.status) throw GoogleApiError.fromResponse(failed.status, parseJson(failed.data), context);
      throw GoogleApiError.network(error, context);
    }
    const body = parseJson(response.data);
    if (response.status < 200 || response.status >= 300) throw GoogleApiError.fromResponse(response.status, body, context);
    return body as T;
  }

  private authClient(): Promise<AuthClient> {
    return (this.auth ??= authClient(this.accessToken, this.env));
  }
}

function definedOnly(query: RestRequest['query']): Record<string, string> | undefined {
  if (!query) return undefined;
  const entries = Object.entries(query).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]);
  return entries.length ? Object.fromEntries(entries) : undefined;
}

function parseJson(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  if (data === '') return {};
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}
