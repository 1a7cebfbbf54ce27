import { createPublicKey, randomBytes, verify, type KeyObject } from 'crypto';
import type * as http from 'http';
import { ApiError } from './api-error';

/** One call to an emulated auth endpoint. Identities, never secrets. */
export interface AuthCall {
  readonly endpoint: 'oauth2.token' | 'sts.token' | 'iamcredentials.generateAccessToken' | 'oidc.token';
  /** Who asked, e.g. `serviceAccount:deployer@p.iam.gserviceaccount.com`, `token:emulator-access-token`. */
  readonly caller: string;
  /** The identity of the token handed out; absent when the call was refused. */
  readonly issuedTo?: string;
  /** generateAccessToken's delegation chain, as sent. */
  readonly delegates?: readonly string[];
  /** The scopes asked for, space-separated. */
  readonly scope?: string;
  /** The HTTP status answered. */
  readonly status: number;
}

/** An API request whose token was accepted: whose token it was, and the quota project it named. */
export interface ApiCaller {
  readonly identity: string;
  readonly userProject?: string;
}

const OAUTH_TOKEN_PATH = '/token';
const STS_TOKEN_PATH = '/sts/v1/token';
const OIDC_TOKEN_PATH = '/github-oidc/token';
const GENERATE_ACCESS_TOKEN_PATH = /^\/iamcredentials\/v1\/projects\/-\/serviceAccounts\/([^/:]+):generateAccessToken$/;
/** gtoken signs for Google's token URL, whatever URL the request then goes to. */
const OAUTH_AUDIENCES = ['https://oauth2.googleapis.com/token', 'https://www.googleapis.com/oauth2/v4/token'];
const TOKEN_LIFETIME_SECONDS = 3600;

class OAuthError extends Error {
  constructor(
    public readonly code: number,
    public readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

/**
 * Stand-ins for Google's token endpoints, so every credential type runs its
 * real google-auth-library flow against the emulator:
 * - `POST /token`: OAuth 2 (`oauth2.googleapis.com/token`): a service account's
 *   signed JWT (RS256, checked against the key registered with
 *   `addServiceAccount`) or an authorized user's refresh token;
 * - `POST /sts/v1/token`: STS token exchange for workload identity federation
 *   (`addExternalSubject`);
 * - `GET /github-oidc/token`: a CI's OIDC token URL (GitHub Actions'
 *   `ACTIONS_ID_TOKEN_REQUEST_URL`), the subject token's source;
 * - `POST /iamcredentials/v1/projects/-/serviceAccounts/{email}:generateAccessToken`.
 * The API then accepts only the tokens issued here and those accepted
 * explicitly (the emulator's fixed token, any token its `env()` handed out).
 */
export class AuthEndpoints {
  private readonly tokens = new Map<string, string>();
  private readonly serviceAccountKeys = new Map<string, KeyObject>();
  private readonly users = new Map<string, { clientId: string; clientSecret: string; user: string }>();
  private readonly subjects = new Map<string, { audience: string; subject: string }>();
  /** Refusals echo the request they refuse (as some identity providers and proxies do), secrets included: for redaction tests. */
  public echoRequestsInErrors = false;
  private readonly oidcRequestTokens = new Map<string, string>();
  private calls: AuthCall[] = [];
  private callers: ApiCaller[] = [];

  constructor(
    acceptedTokens: readonly string[],
    private readonly deniedTokens: ReadonlySet<string> = new Set(),
  ) {
    for (const token of acceptedTokens) this.acceptToken(token);
  }

  /** Accepts a bearer token on API calls (and generateAccessToken). */
  public acceptToken(token: string, identity = `token:${token}`): void {
    this.tokens.set(token, identity);
  }

  /** A service account whose key files may sign JWTs for `POST /token` (the public half of the key). */
  public addServiceAccount(email: string, publicKey: string | KeyObject): void {
    this.serviceAccountKeys.set(email, typeof publicKey === 'string' ? createPublicKey(publicKey) : publicKey);
  }

  /** An `authorized_user` (gcloud's ADC file): its refresh token is exchanged at `POST /token`. */
  public addAuthorizedUser(user: string, credentials: { clientId: string; clientSecret: string; refreshToken: string }): void {
    this.users.set(credentials.refreshToken, { clientId: credentials.clientId, clientSecret: credentials.clientSecret, user });
  }

  /** A workload identity pool (`audience`) that trusts `subjectToken`, the external identity's OIDC token. */
  public addExternalSubject(audience: string, subjectToken: string, subject = 'repo:example/app:ref:refs/heads/main'): void {
    this.subjects.set(subjectToken, { audience, subject });
  }

  /** A CI job's OIDC request token, answered at `GET /github-oidc/token` with `{"value": subjectToken}`. */
  public addOidcRequestToken(requestToken: string, subjectToken: string): void {
    this.oidcRequestTokens.set(requestToken, subjectToken);
  }

  /** Auth endpoint calls since the start (or `clearLog()`), oldest first. */
  public authCalls(): AuthCall[] {
    return [...this.calls];
  }

  /** API requests whose token was accepted, oldest first. */
  public apiCallers(): ApiCaller[] {
    return [...this.callers];
  }

  public clearLog(): void {
    this.calls = [];
    this.callers = [];
  }

  /** Answers a request to one of the auth endpoints; false for any other path. */
  public serve(method: string, url: URL, headers: http.IncomingHttpHeaders, body: string, res: http.ServerResponse): boolean {
    const path = decodeURIComponent(url.pathname);
    const impersonated = GENERATE_ACCESS_TOKEN_PATH.exec(path);
    if (method === 'POST' && path === OAUTH_TOKEN_PATH) this.answer(res, () => this.oauthToken(form(body, headers)));
    else if (method === 'POST' && path === STS_TOKEN_PATH) this.answer(res, () => this.stsToken(form(body, headers)));
    else if (method === 'GET' && path === OIDC_TOKEN_PATH) this.answer(res, () => this.oidcToken(headers));
    else if (method === 'POST' && impersonated) this.answer(res, () => this.generateAccessToken(impersonated[1], headers, body));
    else return false;
    return true;
  }

  /** An API call's bearer token must be one issued or accepted here. */
  public authorizeApiCall(token: string, headers: http.IncomingHttpHeaders): void {
    const identity = this.tokens.get(token);
    if (!identity) {
      throw new ApiError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
    }
    const userProject = headers['x-goog-user-project'];
    this.callers.push({ identity, ...(typeof userProject === 'string' ? { userProject } : {}) });
  }

  private oauthToken(params: URLSearchParams): unknown {
    const grant = params.get('grant_type');
    if (grant === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      const { email, scope } = this.verifyAssertion(params.get('assertion') ?? '');
      return this.issue('oauth2.token', `serviceAccount:${email}`, `serviceAccount:${email}`, { scope });
    }
    if (grant === 'refresh_token') {
      const user = this.users.get(params.get('refresh_token') ?? '');
      if (!user || user.clientId !== params.get('client_id') || user.clientSecret !== params.get('client_secret')) {
        this.log({ endpoint: 'oauth2.token', caller: `client:${params.get('client_id') ?? ''}`, status: 400 });
        throw new OAuthError(400, 'invalid_grant', 'Bad Request');
      }
      return this.issue('oauth2.token', `user:${user.user}`, `user:${user.user}`, {});
    }
    throw new OAuthError(400, 'unsupported_grant_type', `Invalid grant_type: ${grant ?? ''}`);
  }

  private verifyAssertion(assertion: string): { email: string; scope: string } {
    const [header, payload, signature] = assertion.split('.');
    const claims = decodeJwtPart(payload) as { iss?: string; aud?: string; scope?: string; exp?: number } | undefined;
    const key = claims?.iss ? this.serviceAccountKeys.get(claims.iss) : undefined;
    const caller = `serviceAccount:${claims?.iss ?? ''}`;
    const refuse = (description: string) => {
      this.log({ endpoint: 'oauth2.token', caller, status: 400 });
      return new OAuthError(400, 'invalid_grant', description);
    };
    if (!claims || (decodeJwtPart(header) as { alg?: string } | undefined)?.alg !== 'RS256' || !signature)
      throw refuse('Invalid JWT: malformed assertion.');
    if (!key) throw refuse('Invalid grant: account not found');
    if (!verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), key, Buffer.from(signature, 'base64url')))
      throw refuse('Invalid JWT Signature.');
    if (!OAUTH_AUDIENCES.includes(claims.aud ?? '')) throw refuse('Invalid JWT: Failed audience check.');
    if (!claims.exp || claims.exp * 1000 < Date.now())
      throw refuse('Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.');
    if (!claims.scope) throw refuse('Invalid OAuth scope or ID token audience provided.');
    return { email: claims.iss!, scope: claims.scope };
  }

  private stsToken(params: URLSearchParams): unknown {
    if (params.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange') {
      throw new OAuthError(400, 'unsupported_grant_type', 'Invalid grant_type.');
    }
    const audience = params.get('audience') ?? '';
    const subject = this.subjects.get(params.get('subject_token') ?? '');
    if (!subject || subject.audience !== audience) {
      this.log({ endpoint: 'sts.token', caller: `audience:${audience}`, status: 400 });
      const echo = this.echoRequestsInErrors ? ` (request: ${params.toString()})` : '';
      throw new OAuthError(400, 'invalid_grant', `The audience in the ID Token does not match the expected audience.${echo}`);
    }
    const principal = `principal:${audience.replace(/^\/\/iam\.googleapis\.com\//, '')}/subject/${subject.subject}`;
    const scope = params.get('scope') ?? undefined;
    const token = this.newToken(principal);
    this.log({ endpoint: 'sts.token', caller: principal, issuedTo: principal, scope, status: 200 });
    return {
      access_token: token,
      issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_SECONDS,
    };
  }

  private oidcToken(headers: http.IncomingHttpHeaders): unknown {
    const requestToken = /^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1] ?? '';
    const subjectToken = this.oidcRequestTokens.get(requestToken);
    this.log({ endpoint: 'oidc.token', caller: 'ci-job', status: subjectToken ? 200 : 401 });
    if (!subjectToken) throw new OAuthError(401, 'unauthorized', 'Bad credentials');
    return { value: subjectToken };
  }

  private generateAccessToken(email: string, headers: http.IncomingHttpHeaders, body: string): unknown {
    const token = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1] ?? '';
    const caller = this.tokens.get(token) ?? 'unknown';
    const request = parseJsonObject(body) as { delegates?: unknown; scope?: unknown; lifetime?: unknown };
    const delegates = Array.isArray(request.delegates) ? request.delegates.map(String) : [];
    const scope = Array.isArray(request.scope) ? request.scope.map(String).join(' ') : undefined;
    const refuse = (error: ApiError) => {
      this.log({ endpoint: 'iamcredentials.generateAccessToken', caller, delegates, scope, status: error.code });
      return error;
    };
    if (this.deniedTokens.has(token))
      throw refuse(
        new ApiError(403, 'PERMISSION_DENIED', `Permission 'iam.serviceAccounts.getAccessToken' denied on resource (or it may not exist).`),
      );
    if (!this.tokens.has(token)) throw refuse(new ApiError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'));
    if (!scope) throw refuse(new ApiError(400, 'INVALID_ARGUMENT', 'Scope required.'));
    const badDelegate = delegates.find((d) => !/^projects\/-\/serviceAccounts\/[^/]+$/.test(d));
    if (badDelegate !== undefined)
      throw refuse(
        new ApiError(400, 'INVALID_ARGUMENT', 'Delegates must be of the form projects/-/serviceAccounts/{ACCOUNT_EMAIL_OR_UNIQUEID}.'),
      );
    const identity = `serviceAccount:${email}`;
    const accessToken = this.newToken(identity);
    this.log({ endpoint: 'iamcredentials.generateAccessToken', caller, issuedTo: identity, delegates, scope, status: 200 });
    return { accessToken, expireTime: new Date(Date.now() + TOKEN_LIFETIME_SECONDS * 1000).toISOString() };
  }

  private issue(endpoint: AuthCall['endpoint'], caller: string, identity: string, extra: { scope?: string }): unknown {
    const token = this.newToken(identity);
    this.log({ endpoint, caller, issuedTo: identity, ...extra, status: 200 });
    return { access_token: token, expires_in: TOKEN_LIFETIME_SECONDS, token_type: 'Bearer' };
  }

  private newToken(identity: string): string {
    const token = `emulator-issued-${randomBytes(18).toString('base64url')}`;
    this.tokens.set(token, identity);
    return token;
  }

  private log(call: AuthCall): void {
    this.calls.push(call);
  }

  private answer(res: http.ServerResponse, produce: () => unknown): void {
    let status = 200;
    let body: unknown;
    try {
      body = produce();
    } catch (error) {
      if (error instanceof OAuthError) {
        status = error.code;
        body = { error: error.error, error_description: error.message };
      } else {
        const apiError =
          error instanceof ApiError ? error : new ApiError(400, 'INVALID_ARGUMENT', String((error as Error)?.message ?? error));
        status = apiError.code;
        body = apiError.body();
      }
    }
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }
}

function form(body: string, headers: http.IncomingHttpHeaders): URLSearchParams {
  if ((headers['content-type'] ?? '').includes('application/json')) {
    return new URLSearchParams(
      Object.entries(parseJsonObject(body)).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
    );
  }
  return new URLSearchParams(body);
}

function parseJsonObject(body: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new ApiError(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
}

function decodeJwtPart(part: string | undefined): unknown {
  try {
    return part ? JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) : undefined;
  } catch {
    return undefined;
  }
}
