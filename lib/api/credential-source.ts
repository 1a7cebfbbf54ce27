import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The Terraform google provider's `credentials` variables, in its order. */
export const CREDENTIALS_VARIABLES = ['GOOGLE_CREDENTIALS', 'GOOGLE_CLOUD_KEYFILE_JSON', 'GCLOUD_KEYFILE_JSON'] as const;

/** Where the credentials come from: the first source that is set, as the Terraform google provider picks it. */
export type CredentialSource =
  | { readonly kind: 'token'; readonly label: string; readonly token: string }
  | { readonly kind: 'json'; readonly label: string; readonly text: string; readonly file?: string }
  | { readonly kind: 'metadata'; readonly label: string };

/** The source in use and every source looked at before it, in order, for error messages. */
export interface ResolvedSource {
  readonly source: CredentialSource;
  /** e.g. `GOOGLE_OAUTH_ACCESS_TOKEN: not set; GOOGLE_CREDENTIALS (JSON content) (used)` (the accessToken option appears only when given) */
  readonly tried: string;
}

/** `GOOGLE_IMPERSONATE_SERVICE_ACCOUNT` (and `GOOGLE_IMPERSONATE_SERVICE_ACCOUNT_DELEGATES`). */
export interface Impersonation {
  readonly targetPrincipal: string;
  /** As the IAM Credentials API takes them: `projects/-/serviceAccounts/{email}`. */
  readonly delegates: readonly string[];
}

/**
 * Configuration that cannot work; `tried` lists the sources looked at, in
 * order, up to the one that failed. credentials.ts turns it into a CredentialsError.
 */
export class CredentialConfigError extends Error {
  constructor(
    message: string,
    public readonly tried?: string,
  ) {
    super(message);
  }
}

/**
 * Picks the credentials the way the Terraform google provider does:
 * 1. an access token: the `accessToken` option, else `GOOGLE_OAUTH_ACCESS_TOKEN`;
 * 2. a credentials JSON, as a file path or the JSON itself: `GOOGLE_CREDENTIALS`,
 *    `GOOGLE_CLOUD_KEYFILE_JSON`, `GCLOUD_KEYFILE_JSON`;
 * 3. Application Default Credentials: `GOOGLE_APPLICATION_CREDENTIALS`,
 *    gcloud's `application_default_credentials.json`, the metadata server.
 * The first one set is used, even if it turns out unusable (no falling
 * through to the next, as with the provider). Reads files, never the network.
 */
export function resolveCredentialSource(env: NodeJS.ProcessEnv, accessToken?: string): ResolvedSource {
  const tried: string[] = [];
  let current = '';
  const used = (source: CredentialSource): ResolvedSource => ({ source, tried: [...tried, `${source.label} (used)`].join('; ') });
  try {
    current = 'the accessToken option';
    if (accessToken !== undefined) {
      if (!accessToken.trim()) throw new CredentialConfigError('the accessToken option is empty');
      return used({ kind: 'token', label: current, token: accessToken.trim() });
    }

    current = 'GOOGLE_OAUTH_ACCESS_TOKEN';
    const tokenVariable = nonEmpty(env[current]);
    if (tokenVariable) {
      const { text, file } = pathOrContents(tokenVariable, env);
      const label = file ? `${current} (file ${file})` : current;
      if (!text.trim()) throw new CredentialConfigError(`${label} is empty`);
      return used({ kind: 'token', label, token: text.trim() });
    }
    tried.push(`${current}: not set`);

    for (const variable of CREDENTIALS_VARIABLES) {
      current = variable;
      const value = nonEmpty(env[variable]);
      if (!value) {
        tried.push(`${variable}: not set`);
        continue;
      }
      const { text, file } = pathOrContents(value, env);
      return used({ kind: 'json', label: file ? `${variable} (file ${file})` : `${variable} (JSON content)`, text, file });
    }

    current = 'GOOGLE_APPLICATION_CREDENTIALS';
    const adcFile = nonEmpty(env[current]);
    if (adcFile) {
      const file = path.resolve(expandHome(adcFile, env));
      const label = `${current} (file ${file})`;
      return used({ kind: 'json', label, text: readCredentialsFile(file, label), file });
    }
    tried.push(`${current}: not set`);

    current = "gcloud's application default credentials";
    const wellKnown = gcloudAdcFile(env);
    if (wellKnown && fs.existsSync(wellKnown)) {
      const label = `${current} (file ${wellKnown})`;
      return used({ kind: 'json', label, text: readCredentialsFile(wellKnown, label), file: wellKnown });
    }
    tried.push(`${current}: ${wellKnown ? `no file ${wellKnown}` : 'no CLOUDSDK_CONFIG, HOME or APPDATA to find it by'}`);

    return used({ kind: 'metadata', label: 'the metadata server' });
  } catch (error) {
    if (!(error instanceof CredentialConfigError)) throw error;
    throw new CredentialConfigError(error.message, [...tried, `${current} (used)`].join('; '));
  }
}

/**
 * The impersonation asked for, if any; throws for a malformed value.
 *
 * `GOOGLE_IMPERSONATE_SERVICE_ACCOUNT` is one service account, as the
 * Terraform google provider reads it (`HandleSDKDefaults`). The provider has
 * no variable for delegates (only the provider block's
 * `impersonate_service_account_delegates`), and gcloud writes the whole
 * chain into one value instead (`--impersonate-service-account` /
 * `CLOUDSDK_AUTH_IMPERSONATE_SERVICE_ACCOUNT`: `a,b,target`, the last one
 * impersonated); neither is read here. The delegates go in this library's
 * own `GOOGLE_IMPERSONATE_SERVICE_ACCOUNT_DELEGATES`, comma-separated, in
 * chain order (the caller must be a token creator on the first), as emails
 * or `projects/-/serviceAccounts/{email}`.
 */
export function impersonation(env: NodeJS.ProcessEnv): Impersonation | undefined {
  const target = nonEmpty(env.GOOGLE_IMPERSONATE_SERVICE_ACCOUNT)?.trim();
  const delegates = (env.GOOGLE_IMPERSONATE_SERVICE_ACCOUNT_DELEGATES ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  if (!target) {
    if (delegates.length)
      throw new CredentialConfigError('GOOGLE_IMPERSONATE_SERVICE_ACCOUNT_DELEGATES is set but GOOGLE_IMPERSONATE_SERVICE_ACCOUNT is not');
    return undefined;
  }
  if (target.includes(',')) {
    throw new CredentialConfigError(
      'GOOGLE_IMPERSONATE_SERVICE_ACCOUNT takes one service account (as the Terraform google provider reads it); ' +
        'put the delegation chain in GOOGLE_IMPERSONATE_SERVICE_ACCOUNT_DELEGATES, comma-separated, in order',
    );
  }
  for (const account of [target, ...delegates]) {
    if (!/^[^\s/,]+$/.test(account.replace(/^projects\/-\/serviceAccounts\//, ''))) {
      throw new CredentialConfigError(`impersonation: ${JSON.stringify(account)} is not a service account email or unique id`);
    }
  }
  return {
    targetPrincipal: target.replace(/^projects\/-\/serviceAccounts\//, ''),
    delegates: delegates.map((d) => (d.startsWith('projects/') ? d : `projects/-/serviceAccounts/${d}`)),
  };
}

/**
 * The `x-goog-user-project` header, in the provider's precedence:
 * `GOOGLE_BILLING_PROJECT` when `USER_PROJECT_OVERRIDE` is true, else
 * `GOOGLE_CLOUD_QUOTA_PROJECT` (the client libraries' variable), else none
 * here (a credentials file's own `quota_project_id` then applies).
 */
export function quotaProject(env: NodeJS.ProcessEnv): string | undefined {
  const override = nonEmpty(env.USER_PROJECT_OVERRIDE)?.trim();
  if (override !== undefined && !/^(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)$/.test(override)) {
    throw new CredentialConfigError(`USER_PROJECT_OVERRIDE: expected true or false (got ${JSON.stringify(override)})`);
  }
  const billing = nonEmpty(env.GOOGLE_BILLING_PROJECT)?.trim();
  if (billing && override && /^(1|t|T|TRUE|true|True)$/.test(override)) return billing;
  return nonEmpty(env.GOOGLE_CLOUD_QUOTA_PROJECT)?.trim();
}

/** gcloud's well-known ADC file, as google-auth-library finds it (`CLOUDSDK_CONFIG`, else the platform's config directory). */
export function gcloudAdcFile(env: NodeJS.ProcessEnv): string | undefined {
  const name = 'application_default_credentials.json';
  if (nonEmpty(env.CLOUDSDK_CONFIG)) return path.join(env.CLOUDSDK_CONFIG!, name);
  if (process.platform === 'win32') return env.APPDATA ? path.join(env.APPDATA, 'gcloud', name) : undefined;
  return env.HOME ? path.join(env.HOME, '.config', 'gcloud', name) : undefined;
}

/**
 * The provider's path-or-contents rule (`verify.PathOrContents`): a value
 * naming an existing file (`~` expanded) is that file's text, anything else
 * is the value itself.
 */
function pathOrContents(value: string, env: NodeJS.ProcessEnv): { text: string; file?: string } {
  const candidate = expandHome(value, env);
  let isFile = false;
  try {
    isFile = fs.statSync(candidate, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    // ENAMETOOLONG and the like: JSON or a token, not a path.
  }
  if (!isFile) return { text: value };
  const file = path.resolve(candidate);
  return { text: readCredentialsFile(file, file), file };
}

function readCredentialsFile(file: string, label: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CredentialConfigError(`${label} cannot be read${code ? ` (${code})` : ''}`);
  }
}

function expandHome(value: string, env: NodeJS.ProcessEnv): string {
  return value === '~' || value.startsWith('~/') ? path.join(env.HOME ?? os.homedir(), value.slice(1)) : value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
