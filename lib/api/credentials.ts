import * as fs from 'fs';
import {
  CredentialConfigError,
  impersonation,
  quotaProject,
  resolveCredentialSource,
  type CredentialSource,
  type Impersonation,
  type ResolvedSource,
} from './credential-source';
import { CredentialsError } from './errors';
import { googleAuthModule, type AuthClient, type AuthHeaders } from './google-auth';
import { sanitize } from './redact';
import { classifyTokenFailure, connectionErrorCode } from './retry-policy';
import { serviceRootUrl } from './services';
import { projectFromVariables } from './project-variables';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/** The credentials JSON types google-auth-library reads (`GoogleAuth.fromJSON`). */
export const CREDENTIALS_JSON_TYPES = [
  'service_account',
  'authorized_user',
  'external_account',
  'external_account_authorized_user',
  'impersonated_service_account',
  'gdch_service_account',
] as const;

/** The IAM Credentials API, for impersonation; `CLOUDSDK_API_ENDPOINT_OVERRIDES_IAMCREDENTIALS` overrides it. */
export const IAM_CREDENTIALS_SERVICE = 'iamcredentials';

/** A service account token from `generateAccessToken` lives this long (the API's default and maximum without an org policy). */
const IMPERSONATION_LIFETIME_SECONDS = 3600;

/** Loaded credentials: an authenticated client and what to say about it in errors. */
export interface Credentials {
  readonly client: AuthClient;
  /** e.g. `GOOGLE_CREDENTIALS (JSON content), impersonating deployer@p.iam.gserviceaccount.com`; never a secret. */
  readonly description: string;
  /** Values to redact from any message: the access token given, key material of the credentials JSON. */
  readonly secrets: readonly string[];
  /** The request's `authorization` (and `x-goog-user-project`) headers; a token is fetched when needed. Fails with a CredentialsError. */
  requestHeaders(): Promise<AuthHeaders>;
}

/**
 * The credentials a process uses, in the Terraform google provider's order
 * (see `resolveCredentialSource`): an access token, else `GOOGLE_CREDENTIALS`
 * (and its aliases; a path or the JSON), else Application Default
 * Credentials; then `GOOGLE_IMPERSONATE_SERVICE_ACCOUNT` on top, and the
 * quota project. Only an access token's client is loaded at start-up; every
 * other kind loads its google-auth-library module when used.
 */
export async function loadCredentials(accessToken: string | undefined, env: NodeJS.ProcessEnv): Promise<Credentials> {
  let resolved: ResolvedSource | undefined;
  try {
    resolved = resolveCredentialSource(env, accessToken);
    const chain = impersonation(env);
    const quota = quotaProject(env);
    const { client: base, secrets } = await baseClient(resolved, env);
    const client = chain ? impersonate(base, chain, env) : base;
    if (quota) client.quotaProjectId = quota;
    const description = describe(resolved.source, chain);
    const tried = resolved.tried;
    return {
      client,
      description,
      secrets,
      requestHeaders: () =>
        client.getRequestHeaders().catch((error: unknown) => {
          throw tokenError(error, description, tried, secrets);
        }),
    };
  } catch (error) {
    if (error instanceof CredentialsError) throw error;
    const tried = (error as CredentialConfigError).tried ?? resolved?.tried;
    const reason = error instanceof CredentialConfigError ? error.message : sanitize((error as Error)?.message ?? String(error));
    throw new CredentialsError(withSources(reason, tried));
  }
}

/**
 * The default project: the environment first, then the `project_id` of the
 * credentials JSON in use (`GOOGLE_CREDENTIALS`, … or the ADC file). Never
 * probes the network or the metadata server (which can hang off Google Cloud).
 */
export async function defaultProject(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const named = projectFromVariables(env);
  if (named) return named;
  try {
    // An access token says nothing about a project: look at the JSON sources only.
    const { source } = resolveCredentialSource({ ...env, GOOGLE_OAUTH_ACCESS_TOKEN: undefined });
    const projectId = source.kind === 'json' ? (JSON.parse(source.text) as { project_id?: unknown }).project_id : undefined;
    return typeof projectId === 'string' && projectId ? projectId : undefined;
  } catch {
    return undefined;
  }
}

async function baseClient(resolved: ResolvedSource, env: NodeJS.ProcessEnv): Promise<{ client: AuthClient; secrets: string[] }> {
  const { source } = resolved;
  if (source.kind === 'token') {
    const client = new (googleAuthModule().OAuth2Client)();
    client.setCredentials({ access_token: source.token });
    return { client, secrets: [source.token] };
  }
  if (source.kind === 'json') return jsonClient(source, env);
  if (!(await metadataServerAvailable(env))) {
    const why =
      env.METADATA_SERVER_DETECTION?.trim().toLowerCase() === 'none' ? 'not asked (METADATA_SERVER_DETECTION=none)' : 'none answered';
    const tried = resolved.tried.replace(/the metadata server \(used\)$/, `the metadata server: ${why}`);
    throw new CredentialsError(
      withSources(
        'no Google credentials found; set one of them (e.g. run `gcloud auth application-default login`, ' +
          'or set GOOGLE_APPLICATION_CREDENTIALS to a key or workload identity federation file)',
        tried,
      ),
    );
  }
  return { client: new (googleAuthModule().computeClass())({ scopes: [CLOUD_PLATFORM_SCOPE] }), secrets: [] };
}

async function jsonClient(
  source: Extract<CredentialSource, { kind: 'json' }>,
  env: NodeJS.ProcessEnv,
): Promise<{ client: AuthClient; secrets: string[] }> {
  let json: unknown;
  try {
    json = JSON.parse(source.text);
  } catch {
    // JSON.parse's message quotes the input, which may hold a key: say nothing of it.
    throw new CredentialConfigError(
      source.file
        ? `${source.label} is not JSON`
        : `${source.label} is neither the path of a readable file nor credentials JSON (the value is not shown: it may hold a key)`,
    );
  }
  const type = (json as { type?: unknown } | null)?.type;
  if (!json || typeof json !== 'object' || Array.isArray(json) || !CREDENTIALS_JSON_TYPES.includes(type as never)) {
    const got = typeof type === 'string' ? ` (got ${JSON.stringify(sanitize(type, [], 40))})` : '';
    throw new CredentialConfigError(
      `${source.label} is not a credentials JSON: "type" must be one of ${CREDENTIALS_JSON_TYPES.join(', ')}${got}`,
    );
  }
  const secrets = [source.text, ...secretValues(json), ...subjectTokens(json)];
  let client: AuthClient;
  try {
    const GoogleAuth = googleAuthModule().googleAuthClass();
    client = await new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE], credentials: json }).getClient();
  } catch (error) {
    throw new CredentialConfigError(
      `${source.label} (type ${type}) is not usable: ${sanitize((error as Error)?.message ?? String(error), secrets)}`,
    );
  }
  if (type === 'impersonated_service_account') useIamCredentialsOverride(client, env);
  return { client, secrets };
}

function impersonate(source: AuthClient, chain: Impersonation, env: NodeJS.ProcessEnv): AuthClient {
  const Impersonated = googleAuthModule().impersonatedClass();
  return new Impersonated({
    sourceClient: source,
    targetPrincipal: chain.targetPrincipal,
    delegates: [...chain.delegates],
    targetScopes: [CLOUD_PLATFORM_SCOPE],
    lifetime: IMPERSONATION_LIFETIME_SECONDS,
    endpoint: iamCredentialsEndpoint(env),
  });
}

/** `https://iamcredentials.googleapis.com`, or gcloud's override; google-auth-library appends `/v1/…`. */
function iamCredentialsEndpoint(env: NodeJS.ProcessEnv): string {
  try {
    return serviceRootUrl(IAM_CREDENTIALS_SERVICE, env).replace(/\/$/, '');
  } catch (error) {
    throw new CredentialConfigError((error as Error).message);
  }
}

/**
 * google-auth-library builds an `impersonated_service_account` file's client
 * with Google's IAM Credentials endpoint (the file's URL only names the
 * target); point it at the override, when one is set, as `Impersonated` allows.
 */
function useIamCredentialsOverride(client: AuthClient, env: NodeJS.ProcessEnv): void {
  if (!env[`CLOUDSDK_API_ENDPOINT_OVERRIDES_${IAM_CREDENTIALS_SERVICE.toUpperCase()}`]?.trim()) return;
  const impersonated = client as AuthClient & { endpoint?: unknown };
  if (typeof impersonated.endpoint !== 'string') {
    throw new CredentialConfigError(
      "CLOUDSDK_API_ENDPOINT_OVERRIDES_IAMCREDENTIALS cannot be applied to this google-auth-library version's impersonated credentials",
    );
  }
  impersonated.endpoint = iamCredentialsEndpoint(env);
}

async function metadataServerAvailable(env: NodeJS.ProcessEnv): Promise<boolean> {
  if (env.METADATA_SERVER_DETECTION?.trim().toLowerCase() === 'none') return false;
  try {
    return await googleAuthModule().metadataServerAvailable();
  } catch {
    return false;
  }
}

/** A failure to get a token: the token endpoint's refusal is final; no answer, throttling or server trouble may be retried. */
function tokenError(error: unknown, description: string, tried: string, secrets: readonly string[]): CredentialsError {
  const status = (error as { response?: { status?: unknown } })?.response?.status;
  const httpStatus = typeof status === 'number' ? status : 0;
  const reason = sanitize((error as Error)?.message ?? String(error), secrets);
  return new CredentialsError(
    withSources(`could not get an access token with ${description}${httpStatus ? ` (HTTP ${httpStatus})` : ''}: ${reason}`, tried),
    { httpStatus, failureKind: classifyTokenFailure(httpStatus, connectionErrorCode(error)) },
  );
}

function describe(source: CredentialSource, chain: Impersonation | undefined): string {
  if (!chain) return source.label;
  const delegates = chain.delegates.length
    ? ` through ${chain.delegates.map((d) => d.replace(/^projects\/-\/serviceAccounts\//, '')).join(', ')}`
    : '';
  return `${source.label}, impersonating ${chain.targetPrincipal}${delegates} (GOOGLE_IMPERSONATE_SERVICE_ACCOUNT)`;
}

function withSources(reason: string, tried: string | undefined): string {
  return tried ? `${reason.replace(/\.+$/, '')}. Credential sources, in order (the first one set is used): ${tried}` : reason;
}

/**
 * The subject token of a workload identity federation config whose
 * `credential_source` is a file (as google-auth-library will read it, the
 * whole file or one field of its JSON): an STS error may echo it. Tokens from
 * a URL or a program are caught by `sanitize`'s `subject_token` rule.
 */
function subjectTokens(json: unknown): string[] {
  const source = (json as { credential_source?: { file?: unknown; format?: { type?: unknown; subject_token_field_name?: unknown } } })
    ?.credential_source;
  if (typeof source?.file !== 'string') return [];
  let text: string;
  try {
    text = fs.readFileSync(source.file, 'utf8');
  } catch {
    return []; // google-auth-library reports the unreadable file
  }
  const tokens = [text, text.trim()];
  if (source.format?.type === 'json' && typeof source.format.subject_token_field_name === 'string') {
    try {
      const field = (JSON.parse(text) as Record<string, unknown>)[source.format.subject_token_field_name];
      if (typeof field === 'string') tokens.push(field);
    } catch {
      // not JSON: google-auth-library says so
    }
  }
  return tokens;
}

/** Key material anywhere in a credentials JSON (impersonated files nest their source's). */
function secretValues(value: unknown): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) => {
    if (typeof v === 'string' && /^(private_key|client_secret|refresh_token|access_token|token)$/.test(key)) return [v];
    return typeof v === 'object' ? secretValues(v) : [];
  });
}
