/**
 * The entry of dist/vendor/google-auth.js (esbuild, see package.json
 * `bundle:vendor`): the two google-auth-library classes this package uses,
 * each from its own module. The package's index would initialise every
 * credential type it knows (external accounts, AWS, impersonation, gtoken,
 * the metadata server, child_process for gcloud) on load, a large share of a
 * grant runner's start-up; an explicit access token only needs OAuth2Client.
 * GoogleAuth (Application Default Credentials) is initialised on first use.
 * Not part of the jsii build: google-auth-library's types stay out of the API.
 */
export { OAuth2Client } from 'google-auth-library/build/src/auth/oauth2client';
import type { GoogleAuth as GoogleAuthClass } from 'google-auth-library/build/src/auth/googleauth';

export function googleAuthClass(): typeof GoogleAuthClass {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('google-auth-library/build/src/auth/googleauth') as typeof import('google-auth-library/build/src/auth/googleauth')).GoogleAuth;
}
