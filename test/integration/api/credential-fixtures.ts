/**
 * Credentials files for tests, with keys generated on the spot (never a
 * committed secret), registered with the emulator's auth endpoints.
 */
import { generateKeyPairSync } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { AuthClient } from '../../../lib/api/google-auth';
import type { GoogleApiEmulator } from '../../../lib/testing';

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

export function tempDir(prefix = 'cdktf-google-iam-creds-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function writeJson(dir: string, name: string, value: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
}

/** A `service_account` key file whose public key the emulator knows. */
export function serviceAccountKey(emulator: GoogleApiEmulator, email: string, project = 'key-project'): Record<string, string> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  emulator.auth.addServiceAccount(email, publicKey);
  return {
    type: 'service_account',
    project_id: project,
    private_key_id: 'test-key',
    private_key: privateKey,
    client_email: email,
    client_id: '1',
    token_uri: GOOGLE_TOKEN_URL,
  };
}

/** gcloud's `authorized_user` ADC file (`gcloud auth application-default login`). */
export function authorizedUser(emulator: GoogleApiEmulator, user: string, quotaProjectId?: string): Record<string, string> {
  const credentials = {
    clientId: 'gcloud-client.apps.example.com',
    clientSecret: `client-secret-${process.pid}`,
    refreshToken: `refresh-${user}-${Date.now()}`,
  };
  emulator.auth.addAuthorizedUser(user, credentials);
  return {
    type: 'authorized_user',
    client_id: credentials.clientId,
    client_secret: credentials.clientSecret,
    refresh_token: credentials.refreshToken,
    ...(quotaProjectId ? { quota_project_id: quotaProjectId } : {}),
  };
}

export const POOL_AUDIENCE = '//iam.googleapis.com/projects/123456/locations/global/workloadIdentityPools/ci/providers/github';

/**
 * A workload identity federation config (`external_account`) pointed at the
 * emulator's STS; the subject token comes from a file, or from a CI's OIDC
 * URL as google-github-actions/auth writes it; optionally impersonating.
 */
export function externalAccount(
  emulator: GoogleApiEmulator,
  dir: string,
  options: { source: 'file' | 'github'; impersonate?: string },
): Record<string, unknown> {
  const subjectToken = `header.subject-${Math.random().toString(36).slice(2)}.signature`;
  emulator.auth.addExternalSubject(POOL_AUDIENCE, subjectToken);
  let credentialSource: Record<string, unknown>;
  if (options.source === 'file') {
    credentialSource = { file: path.join(dir, 'oidc-token') };
    fs.writeFileSync(path.join(dir, 'oidc-token'), subjectToken);
  } else {
    const requestToken = `ci-request-token-${Math.random().toString(36).slice(2)}`;
    emulator.auth.addOidcRequestToken(requestToken, subjectToken);
    credentialSource = {
      url: `${emulator.url}/github-oidc/token?audience=${encodeURIComponent(`https://iam.googleapis.com${POOL_AUDIENCE.slice(1)}`)}`,
      headers: { Authorization: `Bearer ${requestToken}` },
      format: { type: 'json', subject_token_field_name: 'value' },
    };
  }
  return {
    type: 'external_account',
    audience: POOL_AUDIENCE,
    subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    token_url: `${emulator.url}/sts/v1/token`,
    credential_source: credentialSource,
    ...(options.impersonate ? { service_account_impersonation_url: generateAccessTokenUrl(emulator, options.impersonate) } : {}),
  };
}

export function generateAccessTokenUrl(emulator: GoogleApiEmulator, email: string): string {
  return `${emulator.endpoint('iamcredentials')}v1/projects/-/serviceAccounts/${email}:generateAccessToken`;
}

/**
 * google-auth-library sends a service account's JWT and an authorized user's
 * refresh token to Google's token URL whatever the file says; point this
 * client's requests there at the emulator instead (the proxy test shows the
 * unredirected request).
 */
export function redirectGoogleTokenUrl(client: AuthClient, emulator: GoogleApiEmulator): void {
  const transporter = (
    client as unknown as {
      transporter: { interceptors: { request: { add(i: { resolved: (c: { url: URL | string }) => unknown }): void } } };
    }
  ).transporter;
  transporter.interceptors.request.add({
    resolved: (config) => {
      if (String(config.url) === GOOGLE_TOKEN_URL) config.url = new URL(`${emulator.url}/token`);
      return config;
    },
  });
}
