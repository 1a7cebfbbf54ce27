import { RETRY_ENV } from '../api/retry-policy';

/** Environment variables the runner reads (besides Google's credentials and endpoint overrides). */
export const RUNNER_ENV = {
  /** The grant as JSON (the grants resource's `triggers_replace`). */
  grant: 'CDKTF_GOOGLE_IAM_GRANT',
  /** Which constructs declare the grant, for progress lines (the grants resource's `input`). */
  label: 'CDKTF_GOOGLE_IAM_LABEL',
  /** Terraform's `plantimestamp()`: the same for every provisioner of one `terraform apply`. */
  run: 'CDKTF_GOOGLE_IAM_RUN',
  /** Where the locks, queues, run markers and the code cache live. */
  stateDir: 'CDKTF_GOOGLE_IAM_STATE_DIR',
  /** Set by the supervisor for its worker (supervisor.ts): Terraform's process id, part of the run's identity. */
  terraformPid: 'CDKTF_GOOGLE_IAM_TERRAFORM_PID',
  retryMaxMs: RETRY_ENV.maxMs,
  retryInitialMs: RETRY_ENV.initialMs,
} as const;

/**
 * Separates a grant's label from its twins in the grants resource's `input`
 * (see twins.ts): other grants of the stack that may grant the same thing
 * once Terraform knows their values, as Terraform resolved them.
 */
export const TWINS_SEPARATOR = '\ntwins:';
