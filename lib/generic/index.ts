export * from '../grant/google-iam-resource';
export * from './google-iam-member';
export * from './google-iam-binding';
export * from './google-iam-policy';
export * from './data-google-iam-policy';
