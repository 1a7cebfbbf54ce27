/**
 * The Direct form over real HTTP against the emulator, with the real
 * google-auth-library client in the provider's lookup mode each lookup starts and waits for:
 * results, Google's errors, and arguments refused before any request is made.
 * The emulator runs in its own process (the lookups block this one).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GoogleApiError } from '../../../lib/api/errors';
import { GetIamPolicyMethod, GoogleLookups, type GoogleLookupsProps } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { EmulatorProcess } from '../../support/emulator-process';

jest.setTimeout(60_000);

const PROJECT = 'lookup-project';
const AG = `projects/${PROJECT}/locations/global/addressGroups/office`;
const JOB = `projects/${PROJECT}/locations/us-central1/importJobs/inventory`;
const CONDITION = { title: 'office-hours', expression: 'request.time.getHours("Europe/Berlin") >= 8' };

let emulator: EmulatorProcess;
let savedEnv: NodeJS.ProcessEnv;
let contextDir: string;

beforeAll(async () => {
  emulator = await EmulatorProcess.start(['secretmanager', 'cloudresourcemanager']);
  contextDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lookups-context-'));
  savedEnv = { ...process.env };
  for (const name of [
    'GOOGLE_CLOUD_PROJECT',
    'GOOGLE_PROJECT',
    'GCLOUD_PROJECT',
    'CLOUDSDK_CORE_PROJECT',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS',
    'CDKTF_GOOGLE_IAM_NO_LOOKUPS',
  ])
    delete process.env[name];
  Object.assign(process.env, emulator.env);
  await emulator.addResource(AG, {
    version: 3,
    bindings: [
      { role: 'roles/compute.networkUser', members: ['group:net@example.com'], condition: CONDITION },
      { role: 'roles/compute.networkViewer', members: ['user:a@example.com'] },
    ],
  });
  await emulator.addImportJob({
    name: JOB,
    displayName: 'Inventory',
    state: 'IMPORT_JOB_STATE_COMPLETED',
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://inventory/rvtools.csv' },
    executionReport: { framesReported: 412, totalRowsCount: 412, executionErrors: { fileValidations: [], jobErrors: [] }, jobErrors: [] },
    validationReport: { fileValidations: [], jobErrors: [{ errorDetails: 'late', severity: 'WARNING' }] },
    apiAddedThisLater: { x: 1 },
  });
});
afterAll(() => {
  process.env = savedEnv;
  emulator.close();
  fs.rmSync(contextDir, { recursive: true, force: true });
});

let contexts = 0;
/** Lookups with a context file of their own, empty: every lookup here reads Google. */
const lookups = (props: GoogleLookupsProps = { project: PROJECT }) =>
  new GoogleLookups({ contextFile: path.join(contextDir, `context-${++contexts}.json`), ...props });

/** What `lookup` throws (the test fails if it returns). */
function thrown(lookup: () => unknown): Error {
  try {
    lookup();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error('expected the lookup to throw');
}

const requests = async () => (await emulator.stats()).requests;

describe('getAddressGroupIamPolicy', () => {
  test('reads version 3 by default, each condition field as Google sent it', async () => {
    const policy = lookups().getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'global' });
    expect(policy.version).toBe(3);
    expect(policy.etag).toBe((await emulator.policy(AG)).etag);
    expect(policy.bindings).toEqual([
      {
        role: 'roles/compute.networkUser',
        members: ['group:net@example.com'],
        condition: CONDITION,
      },
      { role: 'roles/compute.networkViewer', members: ['user:a@example.com'] },
    ]);
    expect(policy.bindings![0].condition).toStrictEqual(CONDITION); // no description, no location: Google sent none
    expect(policy.auditConfigs).toBeUndefined();
  });

  test('the requested version reaches the API: version 1 shows what Google does to conditions', async () => {
    const policy = lookups().getAddressGroupIamPolicy({
      addressGroupId: 'office',
      location: 'global',
      optionsRequestedPolicyVersion: 1,
    });
    expect(policy.version).toBe(1);
    expect(policy.bindings![0].role).toMatch(/_withcond_/);
    expect(policy.bindings![0].condition).toBeUndefined();
  });

  test('a resource without a policy reads as what Google sends for it: an etag', async () => {
    await emulator.addResource(`projects/${PROJECT}/locations/global/addressGroups/fresh`);
    expect(lookups().getAddressGroupIamPolicy({ addressGroupId: 'fresh', location: 'global' })).toStrictEqual({ etag: 'ACAB' });
  });

  test('NOT_FOUND and PERMISSION_DENIED carry Google’s status and message', async () => {
    const missing = thrown(() => lookups().getAddressGroupIamPolicy({ addressGroupId: 'nope', location: 'global' }));
    expect(missing).toBeInstanceOf(GoogleApiError);
    expect(missing).toMatchObject({ status: 'NOT_FOUND', message: expect.stringContaining('addressGroups/nope') });
    const denied = thrown(() =>
      lookups({ project: PROJECT, accessToken: GoogleApiEmulator.DENIED_TOKEN }).getAddressGroupIamPolicy({
        addressGroupId: 'office',
        location: 'global',
      }),
    );
    expect(denied).toMatchObject({ status: 'PERMISSION_DENIED', message: expect.stringContaining('does not have permission') });
  });

  test('version 2 and malformed ids are refused before any request', async () => {
    const before = await requests();
    expect(
      thrown(() => lookups().getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'global', optionsRequestedPolicyVersion: 2 }))
        .message,
    ).toBe(
      'GoogleLookups.getAddressGroupIamPolicy: optionsRequestedPolicyVersion: expected 0, 1 or 3 (the policy versions Google accepts) (got 2)',
    );
    expect(thrown(() => lookups().getAddressGroupIamPolicy({ addressGroupId: 'office/x', location: 'global' })).message).toMatch(
      /^GoogleLookups.getAddressGroupIamPolicy: addressGroupId: expected .* \(got "office\/x"\)$/,
    );
    expect(thrown(() => lookups().getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'Global ' })).message).toMatch(
      /location: expected a location/,
    );
    expect(
      thrown(() => lookups({}).getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'global', project: 'X' })).message,
    ).toMatch(/project: expected a project ID/);
    expect(await requests()).toBe(before);
  });
});

describe('getImportJob', () => {
  test('the full view has every report; gcsPayload is objectStoragePayload; unknown fields are ignored', async () => {
    const job = lookups().getImportJob({ importJobId: 'inventory', location: 'us-central1', view: 'IMPORT_JOB_VIEW_FULL' });
    expect(job).toEqual({
      name: JOB,
      displayName: 'Inventory',
      state: 'IMPORT_JOB_STATE_COMPLETED',
      objectStoragePayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://inventory/rvtools.csv' },
      executionReport: { framesReported: 412, totalRowsCount: 412, executionErrors: { fileValidations: [], jobErrors: [] }, jobErrors: [] },
      validationReport: { fileValidations: [], jobErrors: [{ errorDetails: 'late', severity: 'WARNING' }] },
    });
  });

  test('IMPORT_JOB_VIEW_BASIC leaves the reports out: they are absent', async () => {
    const job = lookups().getImportJob({ importJobId: 'inventory', location: 'us-central1', view: 'IMPORT_JOB_VIEW_BASIC' });
    expect(job.state).toBe('IMPORT_JOB_STATE_COMPLETED');
    expect(job.objectStoragePayload?.path).toBe('gs://inventory/rvtools.csv');
    expect([job.executionReport, job.validationReport]).toEqual([undefined, undefined]);
  });

  test('the project comes from the environment when neither the call nor the props give one', async () => {
    process.env.GOOGLE_CLOUD_PROJECT = PROJECT;
    try {
      expect(lookups({}).getImportJob({ importJobId: 'inventory', location: 'us-central1' }).name).toBe(JOB);
    } finally {
      delete process.env.GOOGLE_CLOUD_PROJECT;
    }
  });

  test('no project anywhere is a clear error, before any request', async () => {
    const before = await requests();
    const error = thrown(() => lookups({}).getImportJob({ importJobId: 'inventory', location: 'us-central1' }));
    expect(error.message).toMatch(/^GoogleLookups.getImportJob: project: no project given and none configured; .*GOOGLE_CLOUD_PROJECT/);
    expect(await requests()).toBe(before);
  });

  test('a bad view is refused before any request; NOT_FOUND comes from Google', async () => {
    const before = await requests();
    const badView = thrown(() => lookups().getImportJob({ importJobId: 'inventory', location: 'us-central1', view: 'FULL' }));
    expect(badView.message).toBe(
      'GoogleLookups.getImportJob: view: expected one of IMPORT_JOB_VIEW_UNSPECIFIED, IMPORT_JOB_VIEW_BASIC, IMPORT_JOB_VIEW_FULL (got "FULL")',
    );
    expect(await requests()).toBe(before);
    const missing = thrown(() => lookups().getImportJob({ importJobId: 'gone', location: 'us-central1' }));
    expect(missing).toMatchObject({ status: 'NOT_FOUND', httpStatus: 404 });
  });
});

describe('getAuthorizationPolicyIamPolicy, getMigrationJobIamPolicy and getIamPolicy (any resource)', () => {
  const AP = `projects/${PROJECT}/locations/global/authorizationPolicies/ap`;
  const MJ = `projects/${PROJECT}/locations/us-central1/migrationJobs/mj`;
  const AUTHZ = `projects/${PROJECT}/locations/us-central1/authzPolicies/lb-authz`;
  const SECRET = `projects/${PROJECT}/secrets/db-password`;
  const PROJECT_NAME = `projects/${PROJECT}`;
  const AUDIT = [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:quiet@example.com'] }] }];

  beforeAll(async () => {
    await emulator.addResource(AP, {
      version: 3,
      bindings: [{ role: 'roles/networksecurity.viewer', members: ['user:a@example.com'], condition: CONDITION }],
      auditConfigs: AUDIT,
    });
    await emulator.addResource(MJ, { bindings: [{ role: 'roles/datamigration.editor', members: ['group:dba@example.com'] }] });
    await emulator.addResource(AUTHZ, { bindings: [{ role: 'roles/networksecurity.admin', members: ['user:lb@example.com'] }] });
    await emulator.addResource(SECRET, {
      bindings: [{ role: 'roles/secretmanager.secretAccessor', members: ['serviceAccount:app@lookup-project.iam.gserviceaccount.com'] }],
    });
    await emulator.addResource(PROJECT_NAME, { bindings: [{ role: 'roles/owner', members: ['user:owner@example.com'] }] });
  });

  test('the typed lookups read their resource at version 3, audit configs included', async () => {
    const ap = lookups().getAuthorizationPolicyIamPolicy({ authorizationPolicyId: 'ap', location: 'global' });
    expect(ap).toEqual({
      version: 3,
      etag: (await emulator.policy(AP)).etag,
      auditConfigs: AUDIT,
      bindings: [
        {
          role: 'roles/networksecurity.viewer',
          members: ['user:a@example.com'],
          condition: CONDITION,
        },
      ],
    });
    const mj = lookups().getMigrationJobIamPolicy({
      migrationJobId: 'mj',
      location: 'us-central1',
      project: PROJECT,
      optionsRequestedPolicyVersion: 1,
    });
    expect(mj.bindings).toEqual([{ role: 'roles/datamigration.editor', members: ['group:dba@example.com'] }]);
    const authz = lookups().getNetworkSecurityAuthzPolicyIamPolicy({ authzPolicyId: 'lb-authz', location: 'us-central1' });
    expect(authz.bindings).toEqual([{ role: 'roles/networksecurity.admin', members: ['user:lb@example.com'] }]);
  });

  test('getIamPolicy reads any service: GET for Secret Manager, POST for Resource Manager (the other verb is a 404 there)', async () => {
    const secret = lookups().getIamPolicy({ resource: { service: 'secretmanager', apiVersion: 'v1', name: SECRET } });
    expect(secret.bindings).toEqual([
      { role: 'roles/secretmanager.secretAccessor', members: ['serviceAccount:app@lookup-project.iam.gserviceaccount.com'] },
    ]);
    const project = lookups().getIamPolicy({
      resource: { service: 'cloudresourcemanager', apiVersion: 'v3', name: PROJECT_NAME },
      optionsRequestedPolicyVersion: 3,
    });
    expect(project).toMatchObject({
      etag: (await emulator.policy(PROJECT_NAME)).etag,
      bindings: [{ role: 'roles/owner', members: ['user:owner@example.com'] }],
    });

    // An explicit method wins over the table: a GET to Resource Manager is what Google would 404 too.
    const wrongVerb = thrown(() =>
      lookups().getIamPolicy({
        resource: { service: 'cloudresourcemanager', apiVersion: 'v3', name: PROJECT_NAME, policyReadMethod: GetIamPolicyMethod.GET },
      }),
    );
    expect(wrongVerb).toMatchObject({ status: 'NOT_FOUND', httpStatus: 404 });
  });

  test("NOT_FOUND carries Google's message; bad arguments are refused before any request, naming the method and field", async () => {
    expect(thrown(() => lookups().getMigrationJobIamPolicy({ migrationJobId: 'gone', location: 'us-central1' }))).toMatchObject({
      status: 'NOT_FOUND',
      message: expect.stringContaining('migrationJobs/gone'),
    });
    const before = await requests();
    const messages = [
      () => lookups().getAuthorizationPolicyIamPolicy({ authorizationPolicyId: 'a/b', location: 'global' }),
      () => lookups().getMigrationJobIamPolicy({ migrationJobId: 'mj', location: 'us-central1', optionsRequestedPolicyVersion: 2 }),
      () => lookups().getIamPolicy({ resource: { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p/secrets/../../x' } }),
      () => lookups().getIamPolicy({ resource: { service: 'secretmanager.googleapis.com', apiVersion: 'v1', name: SECRET } }),
      () => lookups().getIamPolicy({ resource: { service: 'secretmanager', apiVersion: 'V1', name: SECRET } }),
      () =>
        lookups().getIamPolicy({
          resource: { service: 'secretmanager', apiVersion: 'v1', name: SECRET },
          optionsRequestedPolicyVersion: 2,
        }),
    ].map((lookup) => thrown(lookup).message);
    expect(messages).toEqual([
      expect.stringMatching(/^GoogleLookups\.getAuthorizationPolicyIamPolicy: authorizationPolicyId: expected .* \(got "a\/b"\)$/),
      'GoogleLookups.getMigrationJobIamPolicy: optionsRequestedPolicyVersion: expected 0, 1 or 3 (the policy versions Google accepts) (got 2)',
      expect.stringMatching(/^GoogleLookups\.getIamPolicy: resource\.name: contains a \. or \.\. segment; /),
      expect.stringMatching(/^GoogleLookups\.getIamPolicy: resource\.service: expected the API's name without \.googleapis\.com/),
      expect.stringMatching(/^GoogleLookups\.getIamPolicy: resource\.apiVersion: expected a Google API version/),
      'GoogleLookups.getIamPolicy: optionsRequestedPolicyVersion: expected 0, 1 or 3 (the policy versions Google accepts) (got 2)',
    ]);
    expect(await requests()).toBe(before);
  });
});

describe('errors name the lookup and its arguments', () => {
  test("Google's error carries the lookup, its settled arguments, and Google's status and message", () => {
    const missing = thrown(() => lookups().getAddressGroupIamPolicy({ addressGroupId: 'nope', location: 'global' }));
    expect(missing.message).toMatch(/^NOT_FOUND \(HTTP 404\): .*addressGroups\/nope/);
    expect(missing.message).toContain(
      '[GoogleLookups.getAddressGroupIamPolicy({"addressGroupId":"nope","location":"global","project":"lookup-project","optionsRequestedPolicyVersion":3})]',
    );
  });

  test('a lookup that cannot reach Google reports UNAVAILABLE at once (a refused connection is not retried), named the same way', () => {
    const saved = process.env.CLOUDSDK_API_ENDPOINT_OVERRIDES_MIGRATIONCENTER;
    process.env.CLOUDSDK_API_ENDPOINT_OVERRIDES_MIGRATIONCENTER = 'http://127.0.0.1:9/';
    const started = Date.now();
    try {
      const error = thrown(() => lookups().getImportJob({ importJobId: 'inventory', location: 'us-central1' }));
      expect(error).toMatchObject({ status: 'UNAVAILABLE', httpStatus: 0 });
      expect(error.message).toMatch(/cannot connect to 127\.0\.0\.1:9: nothing accepts connections there \(ECONNREFUSED\)/);
      expect(error.message).toContain(
        'GoogleLookups.getImportJob({"importJobId":"inventory","location":"us-central1","project":"lookup-project"})',
      );
      expect(Date.now() - started).toBeLessThan(10_000); // no retries: the first wait alone would be a second
    } finally {
      process.env.CLOUDSDK_API_ENDPOINT_OVERRIDES_MIGRATIONCENTER = saved;
    }
  });
});

describe("transient failures are retried within a read's budget", () => {
  /** Runs `body` with these retry settings in the environment the lookup's process inherits. */
  const withRetrySettings = <T>(settings: Record<string, string>, body: () => T): T => {
    const saved = { ...process.env };
    Object.assign(process.env, settings);
    try {
      return body();
    } finally {
      process.env = saved;
    }
  };

  afterEach(() => emulator.setFaults(undefined));

  test('a lookup answered 503 twice, then the policy, returns the policy', async () => {
    // Seed 9 at rate 0.5 fails the first two getIamPolicy calls and serves the next ones (the stats below check it).
    await emulator.setFaults({ rate: 0.5, seed: 9, kinds: ['503'], methods: ['getIamPolicy'] });
    const before = await emulator.stats();
    const policy = withRetrySettings({ CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '50' }, () =>
      lookups().getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'global' }),
    );
    const after = await emulator.stats();
    expect(policy.bindings!.map((b) => b.role)).toEqual(['roles/compute.networkUser', 'roles/compute.networkViewer']);
    expect({ faults: after.faultsInjected - before.faultsInjected, reads: after.getIamPolicy - before.getIamPolicy }).toEqual({
      faults: 2,
      reads: 3,
    });
  });

  test("an endpoint that keeps answering 503 fails the lookup once the budget is spent, with Google's status and message", async () => {
    await emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['getImportJob'] });
    const before = await emulator.stats();
    const started = Date.now();
    const error = withRetrySettings({ CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '50', CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '400' }, () =>
      thrown(() => lookups().getImportJob({ importJobId: 'inventory', location: 'us-central1' })),
    );
    const reads = (await emulator.stats()).getImportJob - before.getImportJob;
    expect(error).toMatchObject({ status: 'UNAVAILABLE', httpStatus: 503 });
    expect(error.message).toMatch(
      /^UNAVAILABLE \(HTTP 503\): The service is currently unavailable \(injected fault\)\. \[GoogleLookups\.getImportJob\(/,
    );
    expect(reads).toBeGreaterThan(1); // retried ...
    expect(Date.now() - started).toBeLessThan(15_000); // ... within the 400 ms budget (plus the provider's start-up)
  });
});

describe('the context file', () => {
  const AG_KEY = `getAddressGroupIamPolicy:addressGroupId=office:location=global:optionsRequestedPolicyVersion=3:project=${PROJECT}`;
  const JOB_KEY = `getImportJob:importJobId=inventory:location=us-central1:project=${PROJECT}:view=IMPORT_JOB_VIEW_FULL`;
  const readBoth = (contextFile: string) => {
    const kept = new GoogleLookups({ project: PROJECT, contextFile });
    return {
      policy: kept.getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'global' }),
      job: kept.getImportJob({ importJobId: 'inventory', location: 'us-central1', view: 'IMPORT_JOB_VIEW_FULL' }),
    };
  };
  /** Runs `body` with no credentials and no reachable endpoint: any credential lookup or request would fail. */
  const offline = <T>(body: () => T): T => {
    const saved = { ...process.env };
    for (const name of Object.keys(process.env))
      if (name.startsWith('CLOUDSDK_API_ENDPOINT_OVERRIDES_')) process.env[name] = 'http://127.0.0.1:9/';
    delete process.env.GOOGLE_OAUTH_ACCESS_TOKEN;
    process.env.GOOGLE_APPLICATION_CREDENTIALS = path.join(contextDir, 'no-such-key.json');
    try {
      return body();
    } finally {
      process.env = saved;
    }
  };

  test('results are kept under readable keys, sorted, without any credential; a complete file needs no network and no credentials', async () => {
    const contextFile = path.join(contextDir, 'kept.json');
    const first = readBoth(contextFile);
    const text = fs.readFileSync(contextFile, 'utf8');
    expect(Object.keys(JSON.parse(text))).toEqual([AG_KEY, JOB_KEY]);
    expect(JSON.parse(text)[AG_KEY]).toEqual(first.policy);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), undefined, 2)}\n`);
    expect(text.indexOf('"auditConfigs"')).toBeLessThan(text.indexOf('"bindings"'));
    expect(text).not.toContain(GoogleApiEmulator.ACCESS_TOKEN);

    const before = await requests();
    const started = Date.now();
    const again = offline(() => readBoth(contextFile));
    const elapsed = Date.now() - started;
    expect(again).toEqual(first);
    expect(await requests()).toBe(before);
    expect(fs.readFileSync(contextFile, 'utf8')).toBe(text);
    console.log(`context file: two lookups from the file took ${elapsed} ms`);
  });

  test('CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS reads one entry again (by its key), or every entry (*)', async () => {
    const contextFile = path.join(contextDir, 'refresh.json');
    const first = readBoth(contextFile);
    await emulator.addResource(AG, {
      version: 3,
      bindings: [{ role: 'roles/compute.networkViewer', members: ['user:b@example.com'] }],
    });
    try {
      expect(readBoth(contextFile).policy).toEqual(first.policy);

      process.env.CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS = AG_KEY;
      const before = await requests();
      const refreshed = readBoth(contextFile);
      expect(await requests()).toBe(before + 1);
      expect(refreshed.policy.bindings).toEqual([{ role: 'roles/compute.networkViewer', members: ['user:b@example.com'] }]);
      expect(refreshed.job).toEqual(first.job);

      process.env.CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS = '*';
      readBoth(contextFile);
      expect(await requests()).toBe(before + 3);
      delete process.env.CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS;
      expect(offline(() => readBoth(contextFile)).policy).toEqual(refreshed.policy);
    } finally {
      delete process.env.CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS;
      await emulator.addResource(AG, {
        version: 3,
        bindings: [
          { role: 'roles/compute.networkUser', members: ['group:net@example.com'], condition: CONDITION },
          { role: 'roles/compute.networkViewer', members: ['user:a@example.com'] },
        ],
      });
    }
  });

  test('with CDKTF_GOOGLE_IAM_NO_LOOKUPS a lookup missing from the file fails before any request; one in the file is answered', async () => {
    const contextFile = path.join(contextDir, 'strict.json');
    readBoth(contextFile);
    const before = await requests();
    process.env.CDKTF_GOOGLE_IAM_NO_LOOKUPS = '1';
    try {
      const kept = new GoogleLookups({ project: PROJECT, contextFile });
      expect(kept.getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'global' }).version).toBe(3);
      expect(
        thrown(() => kept.getAddressGroupIamPolicy({ addressGroupId: 'office', location: 'global', optionsRequestedPolicyVersion: 1 }))
          .message,
      ).toBe(
        `GoogleLookups.getAddressGroupIamPolicy: ${contextFile} has no entry "getAddressGroupIamPolicy:addressGroupId=office:location=global:optionsRequestedPolicyVersion=1:project=${PROJECT}", ` +
          'and CDKTF_GOOGLE_IAM_NO_LOOKUPS is set, so Google is not asked. Synthesize once without it, where Google can be reached, and commit the context file',
      );
    } finally {
      delete process.env.CDKTF_GOOGLE_IAM_NO_LOOKUPS;
    }
    expect(await requests()).toBe(before);
  });

  test('a failed lookup is never kept: the next synth asks Google again', async () => {
    const contextFile = path.join(contextDir, 'failed.json');
    const name = `projects/${PROJECT}/locations/global/addressGroups/later`;
    const read = () =>
      new GoogleLookups({ project: PROJECT, contextFile }).getAddressGroupIamPolicy({ addressGroupId: 'later', location: 'global' });
    expect(thrown(read)).toMatchObject({ status: 'NOT_FOUND' });
    expect(fs.existsSync(contextFile)).toBe(false);
    await emulator.addResource(name, { bindings: [{ role: 'roles/compute.networkViewer', members: ['user:c@example.com'] }] });
    expect(read().bindings).toHaveLength(1);
    expect(Object.keys(JSON.parse(fs.readFileSync(contextFile, 'utf8')))).toEqual([
      `getAddressGroupIamPolicy:addressGroupId=later:location=global:optionsRequestedPolicyVersion=3:project=${PROJECT}`,
    ]);
  });
});
