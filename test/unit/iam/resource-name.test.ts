import { TYPED_RESOURCE_TYPES } from '../../../lib/grant/resource-type';
import { typedNameFormat, typedRow } from '../../../lib/resource-types/typed-name-format';
import {
  IMPORT_JOB,
  parseResourceName,
  validateLocation,
  validateProjectId,
  validateResourceId,
  type ResourceNameFormat,
} from '../../../lib/iam/resource-name';
import { validationError } from './expect-error';

const AUTHORIZATION_POLICY = TYPED_RESOURCE_TYPES.AuthorizationPolicy.nameFormat;
const MIGRATION_JOB = TYPED_RESOURCE_TYPES.MigrationJob.nameFormat;
const ADDRESS_GROUP = TYPED_RESOURCE_TYPES.AddressGroup.nameFormat;

describe('parseResourceName extracts project, location and id', () => {
  test.each<[ResourceNameFormat, string, string, string, string]>([
    [
      AUTHORIZATION_POLICY,
      'projects/my-project/locations/us-central1/authorizationPolicies/allow-admins',
      'my-project',
      'us-central1',
      'allow-admins',
    ],
    [AUTHORIZATION_POLICY, 'projects/123456789012/locations/global/authorizationPolicies/p1', '123456789012', 'global', 'p1'],
    [
      MIGRATION_JOB,
      'projects/example.com:legacy-proj/locations/europe-west4/migrationJobs/Job_2024',
      'example.com:legacy-proj',
      'europe-west4',
      'Job_2024',
    ],
    [ADDRESS_GROUP, 'projects/net-prod-01/locations/global/addressGroups/office-ranges', 'net-prod-01', 'global', 'office-ranges'],
    [IMPORT_JOB, 'projects/mc-project/locations/us-central1/importJobs/import-1', 'mc-project', 'us-central1', 'import-1'],
  ])('%s', (format, name, project, location, id) => {
    expect(parseResourceName(name, format)).toEqual({ name, project, location, id });
  });
});

describe('parseResourceName rejects other shapes, showing the expected form', () => {
  test.each<[ResourceNameFormat, string, RegExp]>([
    [AUTHORIZATION_POLICY, '', /^missing; /],
    [AUTHORIZATION_POLICY, 'allow-admins', /^wrong shape; /],
    [AUTHORIZATION_POLICY, 'projects/my-project/locations/global/authorizationPolicies', /^wrong shape; /],
    [AUTHORIZATION_POLICY, 'projects/my-project/locations/global/authorizationPolicies/a/b', /^wrong shape; /],
    [AUTHORIZATION_POLICY, 'projects/my-project/locations/global/migrationJobs/a', /^wrong shape; /],
    [AUTHORIZATION_POLICY, '/projects/my-project/locations/global/authorizationPolicies/a', /^wrong shape; /],
    [AUTHORIZATION_POLICY, 'project/my-project/locations/global/authorizationPolicies/a', /^wrong shape; /],
    [MIGRATION_JOB, 'projects/my-project/regions/us-central1/migrationJobs/a', /^wrong shape; /],
    [
      MIGRATION_JOB,
      'projects/My-Project/locations/us-central1/migrationJobs/a',
      /bad project segment "My-Project" \(expected a project ID/,
    ],
    [MIGRATION_JOB, 'projects/short/locations/us-central1/migrationJobs/a', /bad project segment "short"/],
    [MIGRATION_JOB, 'projects//locations/us-central1/migrationJobs/a', /bad project segment ""/],
    [
      MIGRATION_JOB,
      'projects/my-project/locations/US-CENTRAL1/migrationJobs/a',
      /bad location segment "US-CENTRAL1" \(expected a location such as global/,
    ],
    [MIGRATION_JOB, 'projects/my-project/locations/us-central1/migrationJobs/1job', /bad id segment "1job" \(expected 1–63 letters/],
    [MIGRATION_JOB, 'projects/my-project/locations/us-central1/migrationJobs/', /bad id segment ""/],
    [MIGRATION_JOB, `projects/my-project/locations/us-central1/migrationJobs/a${'b'.repeat(63)}`, /bad id segment/],
  ])('%s %j', (format, name, reason) => {
    const error = validationError(() => parseResourceName(name, format, 'name'));
    expect(error.field).toBe('name');
    expect(error.value).toBe(name);
    expect(error.reason).toMatch(reason);
    expect(error.reason).toContain(
      `expected the ${format.label} name as projects/{project}/locations/{location}/${format.collection}/{id}`,
    );
  });
});

type SegmentValidator = (value: string, field: string) => string;

describe.each<[string, SegmentValidator, readonly string[], readonly string[]]>([
  [
    'validateProjectId',
    validateProjectId,
    ['my-project', 'abcdef', `a${'b'.repeat(29)}`, 'p12345', 'example.com:my-project', '123456789012'],
    ['abcde', `a${'b'.repeat(30)}`, '1project', 'my-project-', 'My-project', 'my_project', 'example.com:', '0123', ''],
  ],
  [
    'validateLocation',
    validateLocation,
    ['global', 'us-central1', 'europe-west4', 'asia-northeast1', 'us'],
    ['', 'US', 'us_central1', '-us', 'us-', 'us central1'],
  ],
  [
    'validateResourceId',
    validateResourceId,
    ['a', 'Job_1', 'allow-admins', `a${'b'.repeat(62)}`],
    ['', '1a', '-a', '_a', 'a.b', 'a/b', `a${'b'.repeat(63)}`],
  ],
])('%s', (_name, validate, valid, invalid) => {
  test.each(valid)('accepts %j', (value) => {
    expect(validate(value, 'field')).toBe(value);
  });
  test.each(invalid)('rejects %j', (value) => {
    const error = validationError(() => validate(value, 'field'));
    expect(error.field).toBe('field');
    expect(error.value).toBe(value);
    expect(error.reason).toMatch(/^expected /);
  });
});

describe('a name of a lookalike collection is named in the message', () => {
  // Google's two authorization-policy collections, as their typed rows declare them (data, not a special case).
  const memberFormat = (stem: string) => typedNameFormat(typedRow(stem), (lookalike) => `${lookalike}IamMember`);
  const AUTHORIZATION_POLICIES = memberFormat('AuthorizationPolicy');
  const AUTHZ_POLICIES = memberFormat('NetworkSecurityAuthzPolicy');

  test('the rows give each collection the other as its lookalike', () => {
    expect(AUTHORIZATION_POLICIES).toEqual({
      collection: 'authorizationPolicies',
      label: 'authorization policy',
      lookalikes: [{ collection: 'authzPolicies', label: 'authz policy', useInstead: 'NetworkSecurityAuthzPolicyIamMember' }],
    });
    expect(AUTHZ_POLICIES).toEqual({
      collection: 'authzPolicies',
      label: 'authz policy',
      lookalikes: [{ collection: 'authorizationPolicies', label: 'authorization policy', useInstead: 'AuthorizationPolicyIamMember' }],
    });
  });

  test.each<[ResourceNameFormat, string, string]>([
    [
      AUTHORIZATION_POLICIES,
      'projects/my-project/locations/global/authzPolicies/p',
      'wrong shape: this is an authz policy name, which NetworkSecurityAuthzPolicyIamMember takes; expected the authorization policy name as projects/{project}/locations/{location}/authorizationPolicies/{id}',
    ],
    [
      AUTHZ_POLICIES,
      'projects/my-project/locations/global/authorizationPolicies/p',
      'wrong shape: this is an authorization policy name, which AuthorizationPolicyIamMember takes; expected the authz policy name as projects/{project}/locations/{location}/authzPolicies/{id}',
    ],
  ])('%#: %s', (format, name, reason) => {
    expect(validationError(() => parseResourceName(name, format)).reason).toBe(reason);
  });

  test.each([
    // Another collection, or the lookalike's collection in a name of another shape: the plain message.
    'projects/my-project/locations/global/migrationJobs/p',
    'projects/my-project/regions/global/authzPolicies/p',
    'projects/my-project/locations/global/authzPolicies/p/extra',
  ])('not for %s', (name) => {
    expect(validationError(() => parseResourceName(name, AUTHORIZATION_POLICIES)).reason).toMatch(
      /^wrong shape; expected the authorization policy name/,
    );
  });
});
