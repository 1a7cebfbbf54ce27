// Google REST access: auth, endpoints, errors, retries. No cdktf here.
export * from './backoff';
export * from './client';
export * from './credentials';
export * from './errors';
export * from './iam-policy';
export * from './import-jobs';
export * from './services';
