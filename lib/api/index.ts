// Google REST access: auth, endpoints, errors, retries. No cdktf here.
export * from './backoff';
export * from './client';
export * from './credentials';
export {
  impersonation,
  quotaProject,
  resolveCredentialSource,
  gcloudAdcFile,
  type CredentialSource,
  type Impersonation,
  type ResolvedSource,
} from './credential-source';
export * from './errors';
export * from './iam-apis';
export * from './iam-policy';
export * from './import-jobs';
export { policyShapeProblem } from './policy-shape';
export { sanitize, MAX_MESSAGE_CHARS } from './redact';
export * from './services';
