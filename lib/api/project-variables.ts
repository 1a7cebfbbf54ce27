/**
 * The project as the environment names it, without reading credentials: what
 * synth-time lookups need, kept apart from credentials.ts so that loading the
 * library does not load the credential chain.
 */

/** Where a project id may come from, in the order the Google SDKs and the Terraform provider look. */
export const PROJECT_VARIABLES = ['GOOGLE_CLOUD_PROJECT', 'GOOGLE_PROJECT', 'GCLOUD_PROJECT', 'CLOUDSDK_CORE_PROJECT'] as const;

/** The first of PROJECT_VARIABLES that is set: the project as far as it is known without reading credentials. */
export function projectFromVariables(env: NodeJS.ProcessEnv): string | undefined {
  for (const name of PROJECT_VARIABLES) {
    const value = env[name]?.trim();
    if (value) return value;
  }
  return undefined;
}
