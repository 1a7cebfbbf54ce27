import { IamValidationError } from './errors';
import { validateLocation, validateProjectId, validateResourceId } from './resource-name';

/** The policy versions Google accepts: 0 and 1 (no conditions), 3 (conditional bindings). */
export const POLICY_VERSIONS = [0, 1, 3] as const;

/** Where a located resource is: each part is validated only when it is a known (non-token) value. */
export interface LocatedResource {
  readonly project?: string;
  readonly location: string;
  readonly id: string;
  /** The props/args field that holds the id, e.g. `importJobId`. */
  readonly idField: string;
}

type IsKnown = (value: unknown) => boolean;
const always: IsKnown = () => true;

/**
 * The checks both lookup forms run before anything is read: the Direct form on
 * plain values, the Output form on whatever is not a Terraform token.
 */
export function validateLocatedResource(where: LocatedResource, isKnown: IsKnown = always): void {
  if (where.project !== undefined && isKnown(where.project)) validateProjectId(where.project, 'project');
  if (isKnown(where.location)) validateLocation(where.location, 'location');
  if (isKnown(where.id)) validateResourceId(where.id, where.idField);
}

/** A policy version Google accepts. */
export type PolicyVersion = (typeof POLICY_VERSIONS)[number];

/** Checks a requested policy version: 0, 1 or 3; an absent version, or one only Terraform knows, passes. */
export function validatePolicyVersion(version: unknown, isKnown: IsKnown = always): asserts version is PolicyVersion | undefined {
  if (version === undefined || !isKnown(version)) return;
  if (!(POLICY_VERSIONS as readonly unknown[]).includes(version)) {
    throw new IamValidationError('optionsRequestedPolicyVersion', version, 'expected 0, 1 or 3 (the policy versions Google accepts)');
  }
}
