import { googleAuthModule, type AuthClient } from './google-auth';

export const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/** Where a project id may come from, in the order the Google SDKs and the Terraform provider look. */
export const PROJECT_VARIABLES = ['GOOGLE_CLOUD_PROJECT', 'GOOGLE_PROJECT', 'GCLOUD_PROJECT', 'CLOUDSDK_CORE_PROJECT'] as const;

/**
 * An authenticated HTTP client: an explicit access token (or
 * `GOOGLE_OAUTH_ACCESS_TOKEN`, as the Terraform google provider reads it)
 * wins; otherwise Application Default Credentials.
 */
export async function authClient(accessToken: string | undefined, env: NodeJS.ProcessEnv): Promise<AuthClient> {
  const token = accessToken ?? env.GOOGLE_OAUTH_ACCESS_TOKEN;
  if (token) {
    const client = new (googleAuthModule().OAuth2Client)();
    client.setCredentials({ access_token: token });
    return client;
  }
  const GoogleAuth = googleAuthModule().googleAuthClass();
  return new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE], keyFilename: env.GOOGLE_APPLICATION_CREDENTIALS }).getClient();
}

/**
 * The default project: the environment first, then the project of the ADC
 * key file. Never probes the metadata server (which can hang off Google Cloud).
 */
export async function defaultProject(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  for (const name of PROJECT_VARIABLES) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  if (!env.GOOGLE_APPLICATION_CREDENTIALS) return undefined;
  const GoogleAuth = googleAuthModule().googleAuthClass();
  try {
    return (await new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE], keyFilename: env.GOOGLE_APPLICATION_CREDENTIALS }).getProjectId()) || undefined;
  } catch {
    return undefined;
  }
}
