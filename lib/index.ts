// Public API of cdktf-google-iam. Only constructs, classes and jsii structs are
// exported; lib/iam, lib/api and the grant runner are internal.
export * from './grant/iam-condition';
export { GoogleIamGrants } from './grant/google-iam-grants';
export * from './grant/iam-grant-options';
export * from './grant/audit-log-type';
export type { IamPolicyBindingProps, IamAuditConfigProps, IamAuditLogConfigProps } from './grant/iam-policy-grant';
export * from './networksecurity/authorization-policy-iam-member';
export * from './networksecurity/data-address-group-iam-policy';
export * from './networksecurity/authorization-policy-iam-binding';
export * from './networksecurity/authorization-policy-iam-policy';
export * from './networksecurity/data-authorization-policy-iam-policy';
export * from './networksecurity/address-group-iam-member';
export * from './networksecurity/address-group-iam-binding';
export * from './networksecurity/address-group-iam-policy';
export * from './datamigration/migration-job-iam-binding';
export * from './datamigration/migration-job-iam-member';
export * from './datamigration/migration-job-iam-policy';
export * from './datamigration/data-migration-job-iam-policy';
export * from './generic';
export * from './migrationcenter';
export * from './lookups';
// The errors a caller may catch. TypeScript/JavaScript only: jsii cannot represent a subclass of the
// built-in Error, so each is marked `@jsii ignore`, and other languages see the message alone.
export { ConstructValidationError } from './synth/errors';
export { GoogleApiError, CredentialsError } from './api/errors';
