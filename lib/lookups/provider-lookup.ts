import { spawnSync } from 'child_process';
import * as fs from 'fs';
import { CredentialsError, GoogleApiError } from '../api/errors';
import { parseLookupAnswer, type LookupAnswer } from '../contract/lookup-answer';
import { serializeReadQuery, type ReadQueryFields } from '../contract/read-query';
import { callerCall } from '../synth/caller-language';
import { ConstructValidationError } from '../synth/errors';
import { providerBundle } from '../install/provider-package';

/** A lookup that has not answered in this time is stopped (the provider's own retries stop well before). */
const LOOKUP_TIMEOUT_MS = 5 * 60_000;
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * Runs a Direct-form lookup synchronously: the bundled provider's `lookup`
 * mode (the data sources' read code, same client and credentials) in a child
 * `node`, which this process waits for. jsii has no usable async methods (Go
 * cannot call them at all), so this is how a lookup blocks in every language.
 * The query goes on stdin; an access token given in code goes in the child's
 * environment, as `GOOGLE_OAUTH_ACCESS_TOKEN`; neither is ever on a command line.
 *
 * Because this process waits, a Google API emulator it serves itself could
 * never answer: run the emulator in another process (its CLI) for such tests.
 *
 * @internal
 */
export class ProviderLookup {
  /**
   * The read's value, or the error rebuilt in this process: Google's errors as
   * `GoogleApiError` (status, HTTP code and message), refused arguments as
   * a validation error; each names `lookup` and its arguments.
   */
  public static read(lookup: string, args: object, query: ReadQueryFields, accessToken?: string): object {
    // The bundled provider, shipped in the package: its `lookup` mode answers Direct-form lookups.
    const entry = providerBundle();
    if (!fs.existsSync(entry)) {
      throw new Error(`${lookup}: the provider ${entry} is missing; build the package first (npm run build)`);
    }
    const env = accessToken === undefined ? process.env : { ...process.env, GOOGLE_OAUTH_ACCESS_TOKEN: accessToken };
    const child = spawnSync(process.execPath, [entry, 'lookup'], {
      input: JSON.stringify(serializeReadQuery(query)),
      env,
      encoding: 'utf8',
      timeout: LOOKUP_TIMEOUT_MS,
      maxBuffer: MAX_ANSWER_BYTES,
      windowsHide: true,
    });
    const call = callerCall(lookup, args);
    if (child.error) throw new Error(`${call}: the lookup did not complete: ${child.error.message}`);
    let answer: LookupAnswer;
    try {
      answer = parseLookupAnswer(child.stdout);
    } catch (error) {
      // Nothing on stdout: the provider failed before it could answer, and said why on stderr.
      const said = child.stderr.trim() || (child.stdout ? (error as Error).message : `exit code ${child.status ?? child.signal}`);
      throw new Error(`${call}: the lookup failed: ${said}`);
    }
    if ('value' in answer) return answer.value;
    const error = answer.error;
    switch (error.kind) {
      case 'google':
        throw new GoogleApiError(error.httpStatus, error.status, error.apiMessage, call, error.failureKind);
      case 'credentials':
        throw new CredentialsError(`${error.apiMessage} [${call}]`, { httpStatus: error.httpStatus, failureKind: error.failureKind });
      case 'argument':
        throw new ConstructValidationError(lookup, error.field, error.value, error.reason);
      default:
        throw new Error(`${call}: ${error.message}`);
    }
  }
}
