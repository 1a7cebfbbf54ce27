/** The Google APIs this library calls. */
export type GoogleService = 'networksecurity' | 'datamigration' | 'migrationcenter';

/** gcloud's endpoint override variable for a service, e.g. `CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY`. */
export function endpointOverrideVariable(service: GoogleService): string {
  return `CLOUDSDK_API_ENDPOINT_OVERRIDES_${service.toUpperCase()}`;
}

/**
 * Root URL of a service, always ending in `/` (the client appends `v1/...`).
 * The override follows gcloud's convention; without it, Google's public endpoint.
 */
export function serviceRootUrl(service: GoogleService, env: NodeJS.ProcessEnv = process.env): string {
  const override = env[endpointOverrideVariable(service)]?.trim();
  const root = override ? override : `https://${service}.googleapis.com/`;
  return root.endsWith('/') ? root : `${root}/`;
}
