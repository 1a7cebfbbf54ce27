/**
 * The REST client over real HTTP against the emulator: bearer token, query,
 * body, Google's error statuses, and a connection reset.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { GoogleRestClient } from '../../../lib/api/client';
import { GoogleApiError } from '../../../lib/api/errors';
import { IamPolicyApi, wirePolicy } from '../../../lib/api/iam-policy';
import { ImportJobsApi } from '../../../lib/api/import-jobs';
import { GoogleApiEmulator } from '../../../lib/testing';
import { rejectionOf } from '../../support/rejection';

const AP = 'projects/p/locations/global/authorizationPolicies/client';
const CONDITION = { title: 't', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
let emulator: GoogleApiEmulator;
let api: (name: string) => IamPolicyApi;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  api = (name: string) =>
    new IamPolicyApi(new GoogleRestClient({ env: emulator.env() }), { service: 'networksecurity', apiVersion: 'v1', name: name });
});
afterAll(() => emulator.close());
beforeEach(() => emulator.setFaults(undefined));

const failure = (promise: Promise<unknown>) => rejectionOf(promise, GoogleApiError);

test('a resource without a policy reads as Google’s empty policy', async () => {
  emulator.addResource(AP);
  expect(await api(AP).getIamPolicy()).toEqual({ etag: 'ACAB' });
});

test('read-modify-write with the etag; a stale etag is ABORTED and changes nothing', async () => {
  emulator.addResource(AP, { bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'] }] });
  const read = await api(AP).getIamPolicy();
  const written = await api(AP).setIamPolicy({
    ...read,
    version: 3,
    bindings: [...read.bindings!, { role: 'roles/networksecurity.editor', members: ['user:b@example.com'], condition: CONDITION }],
  });
  expect(written.etag).not.toBe(read.etag);
  expect(written.bindings).toHaveLength(2);
  const stale = await failure(api(AP).setIamPolicy({ ...read, bindings: [] }));
  expect(stale).toMatchObject({ status: 'ABORTED', httpStatus: 409, conflict: true, retryable: true });
  expect(emulator.policy(AP)).toEqual(written);
});

test('a version 1 read of a conditional policy mangles the role; version 3 keeps the condition', async () => {
  emulator.addResource(AP, {
    version: 3,
    bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'], condition: CONDITION }],
  });
  const v1 = await api(AP).getIamPolicy(1);
  expect(v1.version).toBe(1);
  expect(v1.bindings?.[0].role).toMatch(/^roles\/networksecurity\.admin_withcond_[0-9a-f]+$/);
  expect(v1.bindings?.[0].condition).toBeUndefined();
  expect((await api(AP).getIamPolicy(3)).bindings?.[0].condition).toEqual(CONDITION);
  expect(await failure(api(AP).getIamPolicy(2))).toMatchObject({ status: 'INVALID_ARGUMENT' });
});

test('only the fields the API defines are sent', async () => {
  emulator.addResource(AP);
  const policy = {
    etag: 'ACAB',
    bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'], extra: 1, condition: { ...CONDITION, foo: 2 } }],
    somethingNew: true,
  };
  expect(wirePolicy(policy)).toEqual({
    etag: 'ACAB',
    bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'], condition: CONDITION }],
  });
  await expect(api(AP).setIamPolicy({ ...policy, version: 3 })).resolves.toMatchObject({ version: 3 });
});

test('Google’s statuses: NOT_FOUND, PERMISSION_DENIED, UNAUTHENTICATED, INVALID_ARGUMENT', async () => {
  expect(await failure(api('projects/p/locations/global/authorizationPolicies/nope').getIamPolicy())).toMatchObject({
    status: 'NOT_FOUND',
    httpStatus: 404,
    retryable: false,
  });
  const denied = (name: string) =>
    new IamPolicyApi(new GoogleRestClient({ env: emulator.env(GoogleApiEmulator.DENIED_TOKEN) }), {
      service: 'networksecurity',
      apiVersion: 'v1',
      name: name,
    });
  expect(await failure(denied(AP).getIamPolicy())).toMatchObject({ status: 'PERMISSION_DENIED', httpStatus: 403 });
  emulator.addResource(AP);
  const tooMany = Array.from({ length: 1_501 }, (_, i) => `user:u${i}@example.com`);
  const limit = await failure(
    api(AP).setIamPolicy({ etag: 'ACAB', bindings: [{ role: 'roles/networksecurity.admin', members: tooMany }] }),
  );
  expect(limit).toMatchObject({ status: 'INVALID_ARGUMENT', apiMessage: expect.stringContaining('1,501') });
  const unauthenticated = await fetch(`${emulator.url}/v1/${AP}:getIamPolicy`);
  expect(unauthenticated.status).toBe(401);
  expect(await unauthenticated.json()).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
});

test('an explicit access token wins over the environment; the emulator accepts only the tokens it knows', async () => {
  emulator.addResource(AP);
  const unknown = new GoogleRestClient({ env: emulator.env(), accessToken: 'another-token' });
  expect(await failure(new IamPolicyApi(unknown, { service: 'networksecurity', apiVersion: 'v1', name: AP }).getIamPolicy())).toMatchObject(
    {
      status: 'UNAUTHENTICATED',
      httpStatus: 401,
    },
  );
  emulator.auth.acceptToken('another-token');
  const client = new GoogleRestClient({ env: emulator.env(GoogleApiEmulator.DENIED_TOKEN), accessToken: 'another-token' });
  await expect(new IamPolicyApi(client, { service: 'networksecurity', apiVersion: 'v1', name: AP }).getIamPolicy()).resolves.toEqual({
    etag: 'ACAB',
  });
});

test('a connection reset is a retryable UNAVAILABLE with no HTTP status', async () => {
  emulator.addResource(AP);
  emulator.setFaults({ rate: 1, kinds: ['reset'] });
  expect(await failure(api(AP).getIamPolicy())).toMatchObject({ httpStatus: 0, status: 'UNAVAILABLE', retryable: true });
  expect(emulator.stats().faultsInjected).toBeGreaterThan(0);
});

test("import jobs: the basic view leaves the reports out, no view is Google's default (the full view), a bad view is INVALID_ARGUMENT", async () => {
  const name = 'projects/p/locations/us-central1/importJobs/j';
  emulator.addImportJob({
    name,
    state: 'IMPORT_JOB_STATE_READY',
    executionReport: { framesReported: 3 },
    validationReport: { jobErrors: [] },
  });
  const jobs = new ImportJobsApi(new GoogleRestClient({ env: emulator.env() }));
  expect(await jobs.get(name, 'IMPORT_JOB_VIEW_BASIC')).toEqual({ name, state: 'IMPORT_JOB_STATE_READY' });
  expect(await jobs.get(name)).toMatchObject({ executionReport: { framesReported: 3 } });
  expect(await jobs.get(name, 'IMPORT_JOB_VIEW_FULL')).toMatchObject({ executionReport: { framesReported: 3 } });
  expect(await failure(jobs.get(name, 'EVERYTHING'))).toMatchObject({ status: 'INVALID_ARGUMENT' });
});

describe('a redirect is never followed', () => {
  let redirector: http.Server;
  let location = '';
  beforeAll(async () => {
    redirector = http.createServer((req, res) => {
      res.writeHead(307, { Location: `${location}${req.url}` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => redirector.close(resolve)));

  const viaRedirector = () => {
    const { port } = redirector.address() as AddressInfo;
    const env = { ...emulator.env(), CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: `http://127.0.0.1:${port}/networksecurity/` };
    return new IamPolicyApi(new GoogleRestClient({ env }), { service: 'networksecurity', apiVersion: 'v1', name: AP });
  };

  test.each([
    [
      'the same host on another port (where the token would go too)',
      () => emulator.url,
      /a redirect to http:\/\/127\.0\.0\.1:\d+\/networksecurity\/v1\//,
    ],
    [
      'another host (whose answer would be taken for Google’s)',
      () => 'http://elsewhere.example',
      /a redirect to http:\/\/elsewhere\.example\/networksecurity\/v1\//,
    ],
  ])('to %s: an error naming where it pointed; nothing is sent there', async (_label, target, where) => {
    emulator.addResource(AP);
    location = target();
    emulator.resetStats();
    for (const call of [() => viaRedirector().getIamPolicy(), () => viaRedirector().setIamPolicy({ etag: 'ACAB', bindings: [] })]) {
      const error = await failure(call());
      expect(error).toMatchObject({ httpStatus: 307, retryable: false });
      expect(error.message).toMatch(where);
      expect(error.message).toMatch(/IAM calls never follow redirects/);
      expect(error.message).not.toContain(GoogleApiEmulator.ACCESS_TOKEN);
    }
    expect(emulator.stats().requests).toBe(0);
  });
});

describe('an endpoint that cannot be reached fails at once, naming the host and the variable that set it', () => {
  test.each([
    [
      'a host name that does not resolve',
      'https://networksecurity.invalid/',
      /cannot connect to networksecurity\.invalid: the host name (does not resolve|could not be resolved) \((ENOTFOUND|EAI_AGAIN)\)/,
    ],
    [
      'a port where nothing listens',
      'http://127.0.0.1:9/',
      /cannot connect to 127\.0\.0\.1:9: nothing accepts connections there \(ECONNREFUSED\)/,
    ],
  ])('%s', async (_label, override, reason) => {
    const env = { ...emulator.env(), CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: override };
    const error = await failure(
      new IamPolicyApi(new GoogleRestClient({ env }), { service: 'networksecurity', apiVersion: 'v1', name: AP }).getIamPolicy(),
    );
    expect(error).toMatchObject({ retryable: false, status: 'UNAVAILABLE' });
    expect(error.message).toMatch(reason);
    expect(error.message).toContain(`the address comes from CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY="${override}"`);
  });
});
