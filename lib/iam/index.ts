/** The IAM domain: pure functions on principals, roles, conditions and policies. */
export * from './types';
export * from './errors';
export * from './principal';
export * from './role';
export * from './resource-name';
export * from './condition';
export * from './limits';
export * from './policy-edit';
export { describePosition, positionAt, type SourcePosition } from './source-excerpt';
export * from './grant';
