/**
 * Injected into the google-auth-library bundle (esbuild `--inject`, see
 * package.json `bundle:vendor`) in place of the global `Headers` and
 * `FormData`. On Node, gaxios (google-auth-library's HTTP layer) sends
 * requests with node-fetch but builds them with these two globals, and the
 * first touch of either makes Node load its whole built-in undici: about
 * 20–40 ms, a large share of the provider's first Google call. node-fetch's own
 * classes do the same job and are in the bundle already. Being part of the
 * vendor bundle, this loads only when a Google call is made.
 */
export { FormData, Headers } from 'node-fetch';
