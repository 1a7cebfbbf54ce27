// Public API of cdktf-google-iam. Only constructs, classes and jsii structs are
// exported; lib/iam, lib/api and the grant runner are internal.
export * from './grant/iam-condition';
export { GoogleIamGrants } from './grant/google-iam-grants';
export * from './grant/iam-grant-options';
export * from './networksecurity/authorization-policy-iam-member';
export * from './networksecurity/data-address-group-iam-policy';
export * from './datamigration/migration-job-iam-binding';
export * from './migrationcenter';
export * from './lookups';
