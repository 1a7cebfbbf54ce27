export * from './emulator';
export type { EmulatedMethod, FaultKind, FaultOptions } from './faults';
export { EMPTY_POLICY_ETAG, type PolicyWrite } from './iam-store';
