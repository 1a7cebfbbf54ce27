export * from './google-lookups';
export * from './iam-policy';
