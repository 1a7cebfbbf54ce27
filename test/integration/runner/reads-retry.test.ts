/**
 * The runner's reads under the one retry policy, against the emulator over
 * HTTP: a plan-time read (the Output form of the lookups) and a drift check
 * ride out transient failures, and give up once a read's budget is spent
 * (the environment's maximum caps it), with Google's status and message.
 */
import { parseDriftQuery } from '../../../lib/contract/drift-query';
import { parseReadQuery } from '../../../lib/contract/read-query';
import { runDrift } from '../../../lib/runner/drift';
import { runRead } from '../../../lib/runner/read';
import { GoogleApiEmulator } from '../../../lib/testing';

const AP = 'projects/p-123456/locations/global/authorizationPolicies/reads-retry';
const ROLE = 'roles/networksecurity.authorizationPolicyViewer';
const GRANT = {
  mode: 'member',
  resource: { service: 'networksecurity', apiVersion: 'v1', name: AP },
  role: ROLE,
  member: 'user:a@example.com',
};

let emulator: GoogleApiEmulator;
beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(AP, { bindings: [{ role: ROLE, members: ['user:a@example.com'] }] });
});
afterAll(() => emulator.close());
beforeEach(() => emulator.resetStats());
afterEach(() => emulator.setFaults(undefined));

const env = (retry: Record<string, string> = {}) => ({ ...emulator.env(), CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '20', ...retry });
const planRead = (retry?: Record<string, string>) =>
  runRead(parseReadQuery(JSON.stringify({ kind: 'iamPolicy', service: 'networksecurity', apiVersion: 'v1', name: AP })), env(retry));
const driftCheck = (retry?: Record<string, string>) =>
  runDrift(
    parseDriftQuery(
      JSON.stringify({
        service: 'networksecurity',
        apiVersion: 'v1',
        name: AP,
        grants: JSON.stringify([{ key: 'k', label: 'stack/Grant', grant: JSON.stringify(GRANT) }]),
        resource: 'terraform_data.google_iam_grants',
        applied: 'terraform_data.google_iam_grants_applied',
        repair: 'terraform_data.google_iam_grants',
        stack: 'stack',
        compare: 'all',
      }),
    ),
    env(retry),
  );

test('a plan-time read answered 503 and 429 before the policy returns the policy', async () => {
  // Seed 9 at rate 0.5 fails the first two reads and serves the next ones (the stats below check it).
  emulator.setFaults({ rate: 0.5, seed: 9, kinds: ['503', '429'], methods: ['getIamPolicy'] });
  const result = await planRead();
  expect(JSON.parse(result.bindings)).toEqual([{ role: ROLE, members: ['user:a@example.com'] }]);
  expect(emulator.stats()).toMatchObject({ faultsInjected: 2, getIamPolicy: 3 });
});

test('a plan-time read of an endpoint that keeps failing gives up once the budget is spent, with Google’s status and message', async () => {
  emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['getIamPolicy'] });
  const started = Date.now();
  await expect(planRead({ CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '300' })).rejects.toThrow(
    /^UNAVAILABLE \(HTTP 503\): The service is currently unavailable \(injected fault\)\./,
  );
  expect(emulator.stats().getIamPolicy).toBeGreaterThan(1);
  expect(Date.now() - started).toBeLessThan(5_000);
});

test('a permanent refusal is not retried', async () => {
  await expect(
    runRead(parseReadQuery(JSON.stringify({ kind: 'iamPolicy', service: 'networksecurity', apiVersion: 'v1', name: `${AP}-gone` })), env()),
  ).rejects.toMatchObject({ status: 'NOT_FOUND' });
  expect(emulator.stats().getIamPolicy).toBe(1);
});

test('a drift check rides out a dropped connection', async () => {
  emulator.setFaults({ rate: 0.5, seed: 9, kinds: ['reset'], methods: ['getIamPolicy'] });
  expect(await driftCheck()).toEqual({ drift: '', checked: '1', drifted: '0' });
  expect(emulator.stats()).toMatchObject({ faultsInjected: 2, getIamPolicy: 3 });
});

test('a drift check honours the environment’s retry settings, and reports the read it could not make', async () => {
  emulator.setFaults({ rate: 1, kinds: ['503'], methods: ['getIamPolicy'] });
  const started = Date.now();
  const report = await driftCheck({ CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '300' });
  expect(report.drift).toMatch(new RegExp(`^the IAM policy of ${AP} could not be read to check stack/Grant: UNAVAILABLE \\(HTTP 503\\)`));
  expect(emulator.stats().getIamPolicy).toBeGreaterThan(1);
  expect(Date.now() - started).toBeLessThan(5_000); // the read's own budget would be 20 s
});
