import { validateServiceName } from './resource-validation';

/**
 * A Google API by its host name's first label, e.g. `networksecurity` for
 * `networksecurity.googleapis.com`: lowercase letters and digits.
 */
export type GoogleService = string;

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/** The service, checked: it becomes a host name and a variable name. */
function serviceName(service: GoogleService): string {
  validateServiceName(service);
  return service;
}

/** gcloud's endpoint override variable for a service, e.g. `CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY`. */
export function endpointOverrideVariable(service: GoogleService): string {
  return `CLOUDSDK_API_ENDPOINT_OVERRIDES_${serviceName(service).toUpperCase()}`;
}

/**
 * Root URL of a service, always ending in `/` (the client appends `v1/...`).
 * The override follows gcloud's convention; without it, Google's public
 * endpoint. An override must be `https://`, or plain `http://` to a loopback
 * host (127.0.0.0/8, ::1, localhost), such as a local emulator: credentials
 * travel with every request.
 */
export function serviceRootUrl(service: GoogleService, env: NodeJS.ProcessEnv = process.env): string {
  const variable = endpointOverrideVariable(service);
  const override = env[variable]?.trim();
  if (!override) return `https://${service}.googleapis.com/`;
  const url = parseOverride(variable, override);
  const root = `${url.origin}${url.pathname}`;
  return root.endsWith('/') ? root : `${root}/`;
}

function parseOverride(variable: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `${variable}: not a URL (got ${JSON.stringify(value)}); expected a root URL such as https://networksecurity.example.com/`,
    );
  }
  const shown = JSON.stringify(`${url.protocol}//${url.host}${url.pathname}`);
  if (url.username || url.password || url.search || url.hash) {
    throw new Error(`${variable}: a root URL takes no user name, password, query or fragment (got ${shown}…)`);
  }
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.test(url.hostname)) return url;
  if (url.protocol === 'http:') {
    throw new Error(
      `${variable}: plain http:// is only allowed to a loopback host (127.0.0.0/8, ::1, localhost), since credentials travel with every request; use https:// (got ${shown})`,
    );
  }
  throw new Error(`${variable}: expected an https:// URL (got ${shown})`);
}
