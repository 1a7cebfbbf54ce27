/**
 * google-auth-library, loaded from the esbuild bundle in dist/vendor on first
 * use: it is not a jsii module, so it ships bundled, and requiring this
 * library must not pay for it unless a Google call is made. esbuild inlines
 * the same file into the runner bundle.
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
  responseType?: 'json' | 'text';
  validateStatus?: (status: number) => boolean;
}

export interface AuthResponse {
  status: number;
  data: unknown;
}

export interface AuthClient {
  request(options: AuthRequestOptions): Promise<AuthResponse>;
}

/** What lib/api/google-auth-vendor.ts, the bundle's entry, exports. */
interface GoogleAuthModule {
  OAuth2Client: new () => AuthClient & { setCredentials(credentials: { access_token: string }): void };
  googleAuthClass(): new (options: { scopes: string[]; keyFilename?: string }) => {
    getClient(): Promise<AuthClient>;
    getProjectId(): Promise<string>;
  };
}

let loaded: GoogleAuthModule | undefined;

export function googleAuthModule(): GoogleAuthModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('../../dist/vendor/google-auth.js') as GoogleAuthModule;
  return loaded;
}
