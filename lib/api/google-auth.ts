/**
 * google-auth-library, loaded from the esbuild bundle in dist/vendor on first
 * use: it is not a jsii module, so it ships bundled, and a provider process
 * that makes no Google call (Terraform starts it for the schema, validation
 * and each plan) must not pay for loading it. esbuild inlines the same file,
 * still loaded on first use, into the provider bundle.
 *
 * Only the few members used here are typed, so none of its types leak into
 * the public API.
 */
export interface AuthRequestOptions {
  url: string;
  method: string;
  params?: Record<string, string>;
  data?: unknown;
  headers?: Record<string, string>;
  timeout?: number;
  retry?: boolean;
  /** `manual`: a 3xx is returned as it is, not followed. */
  redirect?: 'follow' | 'manual' | 'error';
  maxRedirects?: number;
  responseType?: 'json' | 'text' | 'stream';
  validateStatus?: (status: number) => boolean;
}

/** The `Headers` of a response or of the credentials' request metadata. */
export interface AuthHeaders {
  get(name: string): string | null;
}

/** A response as google-auth-library's client returns it. */
export interface AuthResponse {
  status: number;
  data: unknown;
  headers: AuthHeaders;
}

/** An authenticated HTTP client of google-auth-library. */
export interface AuthClient {
  request(options: AuthRequestOptions): Promise<AuthResponse>;
  /** `authorization` (and `x-goog-user-project`), fetching or refreshing a token when needed. */
  getRequestHeaders(url?: string): Promise<AuthHeaders>;
  /** Sent as `x-goog-user-project` on every request. */
  quotaProjectId?: string;
}

/** The options of google-auth-library's `Impersonated` client that this library sets. */
export interface ImpersonatedOptions {
  sourceClient: AuthClient;
  targetPrincipal: string;
  delegates: string[];
  targetScopes: string[];
  lifetime: number;
  endpoint: string;
}

/** What lib/api/google-auth-vendor.ts, the bundle's entry, exports. */
interface GoogleAuthModule {
  OAuth2Client: new () => AuthClient & { setCredentials(credentials: { access_token: string }): void };
  googleAuthClass(): new (options: { scopes: string[]; keyFilename?: string; credentials?: object }) => {
    getClient(): Promise<AuthClient>;
    getProjectId(): Promise<string>;
  };
  impersonatedClass(): new (options: ImpersonatedOptions) => AuthClient;
  computeClass(): new (options: { scopes: string[] }) => AuthClient;
  metadataServerAvailable(): Promise<boolean>;
}

let loaded: GoogleAuthModule | undefined;

/** The bundled google-auth-library, loaded on first use. */
export function googleAuthModule(): GoogleAuthModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('../../dist/vendor/google-auth.js') as GoogleAuthModule;
  return loaded;
}
