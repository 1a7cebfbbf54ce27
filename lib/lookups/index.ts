export * from './google-lookups';
export * from './address-group-iam-policy';
