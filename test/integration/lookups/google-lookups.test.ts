/**
 * The Direct form over real HTTP against the emulator, with the real
 * google-auth-library client: results, Google's errors, and arguments
 * refused before any request is made.
 */
import { GoogleApiError } from '../../../lib/api/errors';
import { GetIamPolicyMethod, GoogleLookups } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { rejectionOf } from '../../support/rejection';

const PROJECT = 'lookup-project';
const AG = `projects/${PROJECT}/locations/global/addressGroups/office`;
const JOB = `projects/${PROJECT}/locations/us-central1/importJobs/inventory`;
const CONDITION = { title: 'office-hours', expression: 'request.time.getHours("Europe/Berlin") >= 8' };

let emulator: GoogleApiEmulator;
let savedEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  savedEnv = { ...process.env };
  for (const name of [
    'GOOGLE_CLOUD_PROJECT',
    'GOOGLE_PROJECT',
    'GCLOUD_PROJECT',
    'CLOUDSDK_CORE_PROJECT',
    'GOOGLE_APPLICATION_CREDENTIALS',
  ])
    delete process.env[name];
  Object.assign(process.env, emulator.env());
  emulator.addResource(AG, {
    version: 3,
    bindings: [
      { role: 'roles/networksecurity.addressGroupUser', members: ['group:net@example.com'], condition: CONDITION },
      { role: 'roles/networksecurity.addressGroupViewer', members: ['user:a@example.com'] },
    ],
  });
  emulator.addImportJob({
    name: JOB,
    displayName: 'Inventory',
    state: 'IMPORT_JOB_STATE_COMPLETED',
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://inventory/rvtools.csv' },
    executionReport: { framesReported: 412, totalRowsCount: 412, executionErrors: { fileValidations: [], jobErrors: [] }, jobErrors: [] },
    validationReport: { fileValidations: [], jobErrors: [{ errorDetails: 'late', severity: 'WARNING' }] },
    apiAddedThisLater: { x: 1 },
  });
});
afterAll(async () => {
  process.env = savedEnv;
  await emulator.close();
});

const lookups = () => new GoogleLookups({ project: PROJECT });

const rejection = (promise: Promise<unknown>) => rejectionOf(promise, Error);

describe('getAddressGroupIamPolicy', () => {
  test('reads version 3 by default, with all four condition fields', async () => {
    const policy = await lookups().getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'global' });
    expect(policy.version).toBe(3);
    expect(policy.etag).toBe(emulator.policy(AG).etag);
    expect(policy.bindings).toEqual([
      {
        role: 'roles/networksecurity.addressGroupUser',
        members: ['group:net@example.com'],
        condition: { ...CONDITION, description: '', location: '' },
      },
      { role: 'roles/networksecurity.addressGroupViewer', members: ['user:a@example.com'] },
    ]);
    expect(policy.auditConfigs).toEqual([]);
  });

  test('the requested version reaches the API: version 1 shows what Google does to conditions', async () => {
    const policy = await lookups().getAddressGroupIamPolicy({
      addressGroupId: 'office',
      location: 'global',
      optionsRequestedPolicyVersion: 1,
    });
    expect(policy.version).toBe(1);
    expect(policy.bindings[0].role).toMatch(/_withcond_/);
    expect(policy.bindings[0].condition).toBeUndefined();
  });

  test('a resource without a policy reads as an empty policy', async () => {
    emulator.addResource(`projects/${PROJECT}/locations/global/addressGroups/fresh`);
    expect(await lookups().getAddressGroupIamPolicy({ addressGroupId: 'fresh', location: 'global' })).toEqual({
      auditConfigs: [],
      bindings: [],
      etag: 'ACAB',
      version: 0,
    });
  });

  test('NOT_FOUND and PERMISSION_DENIED carry Google’s status and message', async () => {
    const missing = await rejection(lookups().getAddressGroupIamPolicy({ addressGroupId: 'nope', location: 'global' }));
    expect(missing).toBeInstanceOf(GoogleApiError);
    expect(missing).toMatchObject({ status: 'NOT_FOUND', message: expect.stringContaining('addressGroups/nope') });
    const denied = await rejection(
      new GoogleLookups({ project: PROJECT, accessToken: GoogleApiEmulator.DENIED_TOKEN }).getAddressGroupIamPolicy({
        addressGroupId: 'office',
        location: 'global',
      }),
    );
    expect(denied).toMatchObject({ status: 'PERMISSION_DENIED', message: expect.stringContaining('does not have permission') });
  });

  test('version 2 and malformed ids are refused before any request', async () => {
    emulator.resetStats();
    expect(
      (
        await rejection(
          lookups().getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'global', optionsRequestedPolicyVersion: 2 }),
        )
      ).message,
    ).toBe(
      'GoogleLookups.getAddressGroupIamPolicy: optionsRequestedPolicyVersion: expected 0, 1 or 3 (the policy versions Google accepts) (got 2)',
    );
    expect((await rejection(lookups().getAddressGroupIamPolicy({ addressGroupId: 'office/x', location: 'global' }))).message).toMatch(
      /^GoogleLookups.getAddressGroupIamPolicy: addressGroupId: expected .* \(got "office\/x"\)$/,
    );
    expect((await rejection(lookups().getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'Global ' }))).message).toMatch(
      /location: expected a location/,
    );
    expect(
      (await rejection(new GoogleLookups().getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'global', project: 'X' })))
        .message,
    ).toMatch(/project: expected a project ID/);
    expect(emulator.stats().requests).toBe(0);
  });
});

describe('getImportJob', () => {
  test('the full view has every report; gcsPayload is objectStoragePayload; unknown fields are ignored', async () => {
    const job = await lookups().getImportJob({ importJobId: 'inventory', location: 'us-central1', view: 'IMPORT_JOB_VIEW_FULL' });
    expect(job).toEqual({
      name: JOB,
      displayName: 'Inventory',
      assetSource: '',
      createTime: '',
      updateTime: '',
      completeTime: '',
      labels: {},
      state: 'IMPORT_JOB_STATE_COMPLETED',
      objectStoragePayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://inventory/rvtools.csv' },
      executionReport: { framesReported: 412, totalRowsCount: 412, executionErrors: { fileValidations: [], jobErrors: [] }, jobErrors: [] },
      validationReport: { fileValidations: [], jobErrors: [{ errorDetails: 'late', severity: 'WARNING' }] },
      inlinePayload: { format: '', payload: [] },
    });
  });

  test('IMPORT_JOB_VIEW_BASIC leaves the reports out: they read as empty reports', async () => {
    const job = await lookups().getImportJob({ importJobId: 'inventory', location: 'us-central1', view: 'IMPORT_JOB_VIEW_BASIC' });
    expect(job.state).toBe('IMPORT_JOB_STATE_COMPLETED');
    expect(job.objectStoragePayload.path).toBe('gs://inventory/rvtools.csv');
    expect(job.executionReport).toEqual({
      executionErrors: { fileValidations: [], jobErrors: [] },
      framesReported: 0,
      jobErrors: [],
      totalRowsCount: 0,
    });
    expect(job.validationReport).toEqual({ fileValidations: [], jobErrors: [] });
  });

  test('the project comes from the environment when neither the call nor the props give one', async () => {
    process.env.GOOGLE_CLOUD_PROJECT = PROJECT;
    try {
      expect((await new GoogleLookups().getImportJob({ importJobId: 'inventory', location: 'us-central1' })).name).toBe(JOB);
    } finally {
      delete process.env.GOOGLE_CLOUD_PROJECT;
    }
  });

  test('no project anywhere is a clear error, before any request', async () => {
    emulator.resetStats();
    const error = await rejection(new GoogleLookups().getImportJob({ importJobId: 'inventory', location: 'us-central1' }));
    expect(error.message).toMatch(
      /^GoogleLookups.getImportJob: project: no project given and none configured; pass project, .*GOOGLE_CLOUD_PROJECT/,
    );
    expect(emulator.stats().requests).toBe(0);
  });

  test('a bad view is refused before any request; NOT_FOUND comes from Google', async () => {
    emulator.resetStats();
    const badView = await rejection(lookups().getImportJob({ importJobId: 'inventory', location: 'us-central1', view: 'FULL' }));
    expect(badView.message).toBe(
      'GoogleLookups.getImportJob: view: expected one of IMPORT_JOB_VIEW_UNSPECIFIED, IMPORT_JOB_VIEW_BASIC, IMPORT_JOB_VIEW_FULL (got "FULL")',
    );
    expect(emulator.stats().requests).toBe(0);
    const missing = await rejection(lookups().getImportJob({ importJobId: 'gone', location: 'us-central1' }));
    expect(missing).toMatchObject({ status: 'NOT_FOUND', httpStatus: 404 });
  });
});

describe('getAuthorizationPolicyIamPolicy, getMigrationJobIamPolicy and getIamPolicy (any resource)', () => {
  const AP = `projects/${PROJECT}/locations/global/authorizationPolicies/ap`;
  const MJ = `projects/${PROJECT}/locations/us-central1/migrationJobs/mj`;
  const SECRET = `projects/${PROJECT}/secrets/db-password`;
  const PROJECT_NAME = `projects/${PROJECT}`;
  const AUDIT = [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:quiet@example.com'] }] }];

  beforeAll(() => {
    Object.assign(process.env, emulator.env(GoogleApiEmulator.ACCESS_TOKEN, ['secretmanager', 'cloudresourcemanager']));
    emulator.addResource(AP, {
      version: 3,
      bindings: [{ role: 'roles/networksecurity.authorizationPolicyViewer', members: ['user:a@example.com'], condition: CONDITION }],
      auditConfigs: AUDIT,
    });
    emulator.addResource(MJ, { bindings: [{ role: 'roles/datamigration.viewer', members: ['group:dba@example.com'] }] });
    emulator.addResource(SECRET, {
      bindings: [{ role: 'roles/secretmanager.secretAccessor', members: ['serviceAccount:app@lookup-project.iam.gserviceaccount.com'] }],
    });
    emulator.addResource(PROJECT_NAME, { bindings: [{ role: 'roles/owner', members: ['user:owner@example.com'] }] });
  });

  test('the typed lookups read their resource at version 3, audit configs included', async () => {
    const ap = await lookups().getAuthorizationPolicyIamPolicy({ authorizationPolicyId: 'ap', location: 'global' });
    expect(ap).toEqual({
      version: 3,
      etag: emulator.policy(AP).etag,
      auditConfigs: AUDIT,
      bindings: [
        {
          role: 'roles/networksecurity.authorizationPolicyViewer',
          members: ['user:a@example.com'],
          condition: { ...CONDITION, description: '', location: '' },
        },
      ],
    });
    const mj = await lookups().getMigrationJobIamPolicy({
      migrationJobId: 'mj',
      location: 'us-central1',
      project: PROJECT,
      optionsRequestedPolicyVersion: 1,
    });
    expect(mj.bindings).toEqual([{ role: 'roles/datamigration.viewer', members: ['group:dba@example.com'] }]);
  });

  test('getIamPolicy reads any service: GET for Secret Manager, POST for Resource Manager (the other verb is a 404 there)', async () => {
    const secret = await lookups().getIamPolicy({ resource: { service: 'secretmanager', apiVersion: 'v1', name: SECRET } });
    expect(secret.bindings).toEqual([
      { role: 'roles/secretmanager.secretAccessor', members: ['serviceAccount:app@lookup-project.iam.gserviceaccount.com'] },
    ]);
    const project = await lookups().getIamPolicy({
      resource: { service: 'cloudresourcemanager', apiVersion: 'v3', name: PROJECT_NAME },
      optionsRequestedPolicyVersion: 3,
    });
    expect(project).toMatchObject({
      etag: emulator.policy(PROJECT_NAME).etag,
      bindings: [{ role: 'roles/owner', members: ['user:owner@example.com'] }],
    });

    // An explicit method wins over the table: a GET to Resource Manager is what Google would 404 too.
    const wrongVerb = await rejection(
      lookups().getIamPolicy({
        resource: { service: 'cloudresourcemanager', apiVersion: 'v3', name: PROJECT_NAME, policyReadMethod: GetIamPolicyMethod.GET },
      }),
    );
    expect(wrongVerb).toMatchObject({ status: 'NOT_FOUND', httpStatus: 404 });
  });

  test("NOT_FOUND carries Google's message; bad arguments are refused before any request, naming the method and field", async () => {
    expect(await rejection(lookups().getMigrationJobIamPolicy({ migrationJobId: 'gone', location: 'us-central1' }))).toMatchObject({
      status: 'NOT_FOUND',
      message: expect.stringContaining('migrationJobs/gone'),
    });
    emulator.resetStats();
    const messages = await Promise.all(
      [
        lookups().getAuthorizationPolicyIamPolicy({ authorizationPolicyId: 'a/b', location: 'global' }),
        lookups().getMigrationJobIamPolicy({ migrationJobId: 'mj', location: 'us-central1', optionsRequestedPolicyVersion: 2 }),
        lookups().getIamPolicy({ resource: { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p/secrets/../../x' } }),
        lookups().getIamPolicy({ resource: { service: 'secretmanager.googleapis.com', apiVersion: 'v1', name: SECRET } }),
        lookups().getIamPolicy({ resource: { service: 'secretmanager', apiVersion: 'V1', name: SECRET } }),
        lookups().getIamPolicy({
          resource: { service: 'secretmanager', apiVersion: 'v1', name: SECRET },
          optionsRequestedPolicyVersion: 2,
        }),
      ].map((p) => rejection(p).then((e) => e.message)),
    );
    expect(messages).toEqual([
      expect.stringMatching(/^GoogleLookups\.getAuthorizationPolicyIamPolicy: authorizationPolicyId: expected .* \(got "a\/b"\)$/),
      'GoogleLookups.getMigrationJobIamPolicy: optionsRequestedPolicyVersion: expected 0, 1 or 3 (the policy versions Google accepts) (got 2)',
      expect.stringMatching(/^GoogleLookups\.getIamPolicy: resource\.name: contains a \. or \.\. segment; /),
      expect.stringMatching(/^GoogleLookups\.getIamPolicy: resource\.service: expected the API's name without \.googleapis\.com/),
      expect.stringMatching(/^GoogleLookups\.getIamPolicy: resource\.apiVersion: expected a Google API version/),
      'GoogleLookups.getIamPolicy: optionsRequestedPolicyVersion: expected 0, 1 or 3 (the policy versions Google accepts) (got 2)',
    ]);
    expect(emulator.stats().requests).toBe(0);
  });
});
