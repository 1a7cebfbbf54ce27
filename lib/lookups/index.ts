export * from './google-lookups';
export * from '../api/policy-result';
