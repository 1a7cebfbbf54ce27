import { RUNNER_ENV } from '../contract/runner-env';

/**
 * An error of the runner itself (not Google's, which is a GoogleApiError):
 * a message that says what went wrong and what to do about it. Every one is
 * built by a {@link RunnerErrors} function, so the wording lives in one place.
 */
export class RunnerError extends Error {
  constructor(
    message: string,
    public readonly code: string,
  ) {
    super(message);
    this.name = 'RunnerError';
  }
}

/** The runner's errors, one builder each. */
export const RunnerErrors = {
  noGrant: () =>
    new RunnerError(
      `no grant to carry out: the environment variable ${RUNNER_ENV.grant} is empty. The runner is meant to be started by ` +
        'the provisioners of terraform_data.google_iam_grants and google_iam_grants_applied: run terraform apply (or cdktf deploy) instead',
      'NO_GRANT',
    ),
  usage: (command: string | undefined) =>
    new RunnerError(
      `usage: runner.js apply|remove|read|drift|lookup (got ${JSON.stringify(command)}); the runner is started by Terraform, from the configuration cdktf synthesizes`,
      'USAGE',
    ),
  lockTimeout: (seconds: number, lock: string) =>
    new RunnerError(
      `gave up after ${seconds} s waiting for the policy lock ${lock}. Another runner of this user holds it; if no terraform is running on this machine, remove that folder and run terraform again`,
      'LOCK_TIMEOUT',
    ),
  forgedResult: (id: string, dir: string) =>
    new RunnerError(
      `the result for request ${id} in ${dir} is not of the expected shape, so the grant's outcome is unknown: run terraform apply again (the next run reads the policy afresh)`,
      'BAD_RESULT',
    ),
  blindWrite: () =>
    new RunnerError(
      "the policy that was read has no etag, and a write without one would replace the policy blindly; nothing was written. Check that the endpoint is Google's (see CLOUDSDK_API_ENDPOINT_OVERRIDES_*)",
      'NO_ETAG',
    ),
} as const;
