/** Environment variables the runner reads (besides Google's credentials and endpoint overrides). */
export const RUNNER_ENV = {
  spec: 'CDKTF_GOOGLE_IAM_GRANT',
  stateDir: 'CDKTF_GOOGLE_IAM_STATE_DIR',
  retryMaxMs: 'CDKTF_GOOGLE_IAM_RETRY_MAX_MS',
  retryInitialMs: 'CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS',
} as const;
