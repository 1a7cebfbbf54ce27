export * from '../grant/google-iam-resource';
export * from './google-iam-member';
export * from './google-iam-binding';
export * from './google-iam-policy';
export * from './google-iam-members';
export * from './google-iam-member-roles';
export * from './data-google-iam-policy';
