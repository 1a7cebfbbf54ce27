import { IamValidationError } from './errors';

/** One kind of location-scoped resource: `projects/{p}/locations/{l}/{collection}/{id}`. */
export interface ResourceNameFormat {
  /** The collection segment, e.g. `authorizationPolicies`. */
  readonly collection: string;
  /** How a person calls it, e.g. `authorization policy`. */
  readonly label: string;
  /**
   * Collections whose names are easily taken for this one's (e.g. Google's
   * two authorization-policy collections, `authorizationPolicies` and
   * `authzPolicies`): a name of one of them gets a "wrong shape" message
   * that says what it is and what takes it.
   */
  readonly lookalikes?: readonly ResourceNameLookalike[];
}

/** A collection whose names are easily taken for another's, and what to use for its names instead. */
export interface ResourceNameLookalike {
  /** The collection segment, e.g. `authzPolicies`. */
  readonly collection: string;
  /** How a person calls it, e.g. `authz policy`. */
  readonly label: string;
  /** What takes such names, for the message, e.g. `NetworkSecurityAuthzPolicyIamMember` (lib/resource-types/typed-name-format.ts). */
  readonly useInstead: string;
}

/** A Migration Center import job's name (the IAM resource types' name formats are rows of lib/resource-types/typed-resource-types.ts). */
export const IMPORT_JOB: ResourceNameFormat = { collection: 'importJobs', label: 'import job' };

/** A located resource name, split into its parts. */
export interface ResourceName {
  /** The full name, as given. */
  readonly name: string;
  readonly project: string;
  readonly location: string;
  readonly id: string;
}

/** A project ID: 6–30 chars, lowercase letter first, no trailing hyphen. */
const PROJECT_ID = '[a-z][-a-z0-9]{4,28}[a-z0-9]';
/** Legacy domain-scoped projects: `example.com:my-project`. */
const DOMAIN_SCOPED_PROJECT_ID = `[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?:${PROJECT_ID}`;
/** The project ID forms (without project numbers), for patterns elsewhere. */
export const PROJECT_ID_SOURCE = `(?:${PROJECT_ID}|${DOMAIN_SCOPED_PROJECT_ID})`;

const PROJECT_PATTERN = new RegExp(`^(?:${PROJECT_ID_SOURCE}|[1-9][0-9]{0,19})$`);
const LOCATION_PATTERN = /^[a-z](?:[-a-z0-9]*[a-z0-9])?$/;
const RESOURCE_ID_PATTERN = /^[a-zA-Z][-a-zA-Z0-9_]{0,62}$/;

const EXPECTED_PROJECT =
  'expected a project ID (6–30 lowercase letters, digits and hyphens, starting with a letter, not ending with a hyphen), a domain-scoped ID like example.com:my-project, or a project number';
const EXPECTED_LOCATION = 'expected a location such as global, us-central1 or europe-west4 (lowercase letters, digits and hyphens)';
const EXPECTED_RESOURCE_ID = 'expected 1–63 letters, digits, hyphens and underscores, starting with a letter';

/** Returns the project ID (or number) unchanged when it is one. */
export function validateProjectId(value: string, field: string): string {
  return validateSegment(value, field, PROJECT_PATTERN, EXPECTED_PROJECT);
}

/** Returns the location unchanged when it is one. */
export function validateLocation(value: string, field: string): string {
  return validateSegment(value, field, LOCATION_PATTERN, EXPECTED_LOCATION);
}

/** Returns the resource's id unchanged when it is one. */
export function validateResourceId(value: string, field: string): string {
  return validateSegment(value, field, RESOURCE_ID_PATTERN, EXPECTED_RESOURCE_ID);
}

/**
 * Splits and validates `projects/{project}/locations/{location}/{collection}/{id}`.
 * A bad segment is reported against the whole name (the field the user wrote)
 * with the segment named in the reason.
 */
export function parseResourceName(name: string, format: ResourceNameFormat, field = 'name'): ResourceName {
  const expectedForm = `projects/{project}/locations/{location}/${format.collection}/{id}`;
  const reject = (reason: string): never => {
    throw new IamValidationError(field, name, `${reason}; expected the ${format.label} name as ${expectedForm}`);
  };
  if (typeof name !== 'string' || name.length === 0) return reject('missing');

  const segments = name.split('/');
  const [projectsWord, project, locationsWord, location, collection, id] = segments;
  const located = segments.length === 6 && projectsWord === 'projects' && locationsWord === 'locations';
  if (!located || collection !== format.collection) {
    const lookalike = located ? format.lookalikes?.find((other) => other.collection === collection) : undefined;
    return reject(
      lookalike
        ? `wrong shape: this is ${article(lookalike.label)} ${lookalike.label} name, which ${lookalike.useInstead} takes`
        : 'wrong shape',
    );
  }
  const checks: ReadonlyArray<[string, string, (value: string, field: string) => string]> = [
    ['project', project, validateProjectId],
    ['location', location, validateLocation],
    ['id', id, validateResourceId],
  ];
  for (const [segment, value, validate] of checks) {
    try {
      validate(value, segment);
    } catch (e) {
      if (!(e instanceof IamValidationError)) throw e;
      reject(`bad ${segment} segment ${JSON.stringify(value)} (${e.reason})`);
    }
  }
  return { name, project, location, id };
}

/** `a` or `an`, by the first letter (the labels are plain English words). */
function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

function validateSegment(value: string, field: string, pattern: RegExp, expected: string): string {
  if (typeof value !== 'string' || !pattern.test(value)) throw new IamValidationError(field, value, expected);
  return value;
}
