/**
 * The entry of dist/vendor/google-auth.js (esbuild, see package.json
 * `bundle:vendor`): the google-auth-library classes this package uses, each
 * from its own module. The package's index would initialise every credential
 * type it knows (external accounts, AWS, impersonation, gtoken, the metadata
 * server, child_process for gcloud) on load, a large share of the
 * provider's first Google call; an explicit access token only needs OAuth2Client, which
 * is the only module loaded with the bundle. Every other class is required
 * on first use, through the functions below.
 * Not part of the jsii build: google-auth-library's types stay out of the API.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
export { OAuth2Client } from 'google-auth-library/build/src/auth/oauth2client';
import type { Compute } from 'google-auth-library/build/src/auth/computeclient';
import type { GoogleAuth } from 'google-auth-library/build/src/auth/googleauth';
import type { Impersonated } from 'google-auth-library/build/src/auth/impersonated';

/** Application Default Credentials, and every credentials JSON type (`new GoogleAuth({credentials}).getClient()`). */
export function googleAuthClass(): typeof GoogleAuth {
  return (require('google-auth-library/build/src/auth/googleauth') as typeof import('google-auth-library/build/src/auth/googleauth'))
    .GoogleAuth;
}

/** Service account impersonation through the IAM Credentials API's `generateAccessToken`. */
export function impersonatedClass(): typeof Impersonated {
  return (require('google-auth-library/build/src/auth/impersonated') as typeof import('google-auth-library/build/src/auth/impersonated'))
    .Impersonated;
}

/** The metadata server's credentials (Compute Engine, GKE, Cloud Run, …). */
export function computeClass(): typeof Compute {
  return (require('google-auth-library/build/src/auth/computeclient') as typeof import('google-auth-library/build/src/auth/computeclient'))
    .Compute;
}

/** Whether a metadata server answers, as google-auth-library's ADC decides it (honours METADATA_SERVER_DETECTION). */
export async function metadataServerAvailable(): Promise<boolean> {
  const gcpMetadata = require('gcp-metadata') as typeof import('gcp-metadata');
  return gcpMetadata.getGCPResidency() || (await gcpMetadata.isAvailable());
}
