/**
 * A project number's id from Cloud Resource Manager (`GET v3/projects/{number}`),
 * over real HTTP against the emulator, which names one resource by either form
 * as Google does.
 */
import * as fs from 'fs';
import * as path from 'path';
import { GoogleRestClient } from '../../../lib/api/client';
import { IamPolicyApi } from '../../../lib/api/iam-policy';
import { ProjectIds } from '../../../lib/api/project-ids';
import { GoogleApiEmulator } from '../../../lib/testing';

const BY_ID = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const BY_NUMBER = 'projects/123456789012/locations/global/authorizationPolicies/ap';
const FAST = { initialDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 100 };
let emulator: GoogleApiEmulator;
let client: GoogleRestClient;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addProject('p-123456', '123456789012');
  client = new GoogleRestClient({ env: emulator.env() });
});
afterAll(() => emulator.close());
beforeEach(() => emulator.resetStats());

test('a name by project number is written with the id, asked once per number; a name by id asks nothing', async () => {
  const ids = new ProjectIds(client, FAST);
  expect(await ids.canonical(BY_NUMBER)).toBe(BY_ID);
  expect(await ids.canonical('projects/123456789012')).toBe('projects/p-123456');
  expect(await ids.canonical(BY_ID)).toBe(BY_ID);
  expect(await ids.canonical('organizations/123456789012/roles/x')).toBe('organizations/123456789012/roles/x');
  expect(emulator.stats().getProject).toBe(1);
});

test('a number Google does not tell the id of (no permission, no such project) leaves the name as written', async () => {
  const ids = new ProjectIds(client, FAST);
  expect(await ids.canonical('projects/999999999999/secrets/s')).toBe('projects/999999999999/secrets/s');
  const unreachable = new ProjectIds(
    new GoogleRestClient({ env: { ...emulator.env(), CLOUDSDK_API_ENDPOINT_OVERRIDES_CLOUDRESOURCEMANAGER: 'http://127.0.0.1:9/' } }),
    FAST,
  );
  expect(await unreachable.canonical(BY_NUMBER)).toBe(BY_NUMBER);
});

test("the emulator's projects.get answers by id or number, and 403 for a project it does not know, as Google does", async () => {
  const byNumber = await client.request({ service: 'cloudresourcemanager', path: 'v3/projects/123456789012' });
  const byId = await client.request({ service: 'cloudresourcemanager', path: 'v3/projects/p-123456' });
  expect(byNumber).toEqual({ name: 'projects/123456789012', projectId: 'p-123456', state: 'ACTIVE', displayName: 'p-123456' });
  expect(byId).toEqual(byNumber);
  await expect(client.request({ service: 'cloudresourcemanager', path: 'v3/projects/nobody-here' })).rejects.toMatchObject({
    httpStatus: 403,
    status: 'PERMISSION_DENIED',
  });
});

test('one policy whichever form names it: a write by number is read by id', async () => {
  emulator.addResource(BY_ID, { bindings: [{ role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] }] });
  const byNumber = new IamPolicyApi(client, { service: 'networksecurity', apiVersion: 'v1', name: BY_NUMBER });
  const read = await byNumber.getIamPolicy();
  await byNumber.setIamPolicy({
    ...read,
    bindings: [...read.bindings!, { role: 'roles/networksecurity.viewer', members: ['user:a@example.com'] }],
  });
  expect(emulator.policy(BY_ID).bindings).toHaveLength(2);
  expect(emulator.writes(BY_NUMBER).map((w) => w.resource)).toEqual([BY_ID]);
});

test("the call is the one Google's Discovery document publishes: projects.get is GET v3/{+name}, and a Project has projectId", () => {
  const root = path.join(path.dirname(require.resolve('googleapis/package.json')), 'build', 'src', 'apis', 'cloudresourcemanager');
  const client = fs.readFileSync(path.join(root, 'v3.js'), 'utf8');
  const projects = client.slice(client.indexOf('class Resource$Projects {'));
  const get = projects.slice(projects.indexOf('        get('), projects.indexOf('        getIamPolicy('));
  expect(get).toContain("url: (rootUrl + '/v3/{+name}')");
  expect(get).toContain("method: 'GET'");
  const types = fs.readFileSync(path.join(root, 'v3.d.ts'), 'utf8');
  const project = types.slice(types.indexOf('export interface Schema$Project {'));
  expect(project.slice(0, project.indexOf('\n    }'))).toMatch(/projectId\?: string \| null;/);
});
