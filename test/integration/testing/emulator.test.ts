/** The emulator enforces Google's rules, so tests against it mean something. */
import { GoogleApiEmulator } from '../../../lib/testing';

const AP = 'projects/p/locations/global/authorizationPolicies/rules';
let emulator: GoogleApiEmulator;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(() => emulator.close());

async function call(method: 'GET' | 'POST', path: string, body?: unknown, token = GoogleApiEmulator.ACCESS_TOKEN) {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json()) as { error?: { status: string; message: string } } & Record<string, unknown>,
  };
}
const setPolicy = (policy: unknown, extra: Record<string, unknown> = {}) =>
  call('POST', `/v1/${AP}:setIamPolicy`, { policy, updateMask: 'bindings,etag,version', ...extra });

beforeEach(() => emulator.addResource(AP));

test.each([
  ['an unknown request field', { policy: {}, extra: 1 }],
  ['an unknown policy field', { policy: { color: 'red' } }],
  ['an unknown binding field', { policy: { bindings: [{ role: 'roles/a.b', members: ['user:a@example.com'], extra: 1 }] } }],
  [
    'a conditional binding in version 1',
    {
      policy: {
        version: 1,
        bindings: [{ role: 'roles/a.b', members: ['user:a@example.com'], condition: { title: 't', expression: 'true' } }],
      },
    },
  ],
  ['version 2', { policy: { version: 2 } }],
  [
    'a condition without a title',
    { policy: { version: 3, bindings: [{ role: 'roles/a.b', members: ['user:a@example.com'], condition: { expression: 'true' } }] } },
  ],
  [
    'a condition on a basic role',
    {
      policy: {
        version: 3,
        bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'], condition: { title: 't', expression: 'true' } }],
      },
    },
  ],
  [
    'a condition for allUsers',
    { policy: { version: 3, bindings: [{ role: 'roles/a.b', members: ['allUsers'], condition: { title: 't', expression: 'true' } }] } },
  ],
  ['a malformed principal', { policy: { bindings: [{ role: 'roles/a.b', members: ['alice@example.com'] }] } }],
  ['a malformed role', { policy: { bindings: [{ role: 'viewer', members: ['user:a@example.com'] }] } }],
  ['a mangled version 1 role', { policy: { bindings: [{ role: 'roles/a.b_withcond_0123', members: ['user:a@example.com'] }] } }],
  [
    '251 groups',
    { policy: { bindings: [{ role: 'roles/a.b', members: Array.from({ length: 251 }, (_, i) => `group:g${i}@example.com`) }] } },
  ],
])('setIamPolicy refuses %s with 400 INVALID_ARGUMENT and keeps the policy', async (_label, request) => {
  const { status, body } = await call('POST', `/v1/${AP}:setIamPolicy`, request);
  expect(status).toBe(400);
  expect(body.error?.status).toBe('INVALID_ARGUMENT');
  expect(emulator.policy(AP)).toEqual({ etag: 'ACAB' });
});

test('audit-config exemptions count towards the 1,500 principals', async () => {
  const exempted = Array.from({ length: 1_500 }, (_, i) => `user:x${i}@example.com`);
  const { status, body } = await setPolicy(
    {
      bindings: [{ role: 'roles/a.b', members: ['user:a@example.com'] }],
      auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: exempted }] }],
    },
    { updateMask: 'bindings,etag,version,auditConfigs' },
  );
  expect(status).toBe(400);
  expect(body.error?.message).toContain('1,501');
});

test('duplicate members collapse, empty bindings vanish, audit configs outside the mask are kept', async () => {
  const audit = [{ service: 'allServices', auditLogConfigs: [{ logType: 'ADMIN_READ' }] }];
  emulator.addResource(AP, { version: 1, bindings: [], auditConfigs: audit });
  const { status } = await setPolicy({
    version: 1,
    bindings: [
      { role: 'roles/a.b', members: ['user:a@example.com', 'user:a@example.com'] },
      { role: 'roles/a.c', members: [] },
    ],
    auditConfigs: [],
  });
  expect(status).toBe(200);
  expect(emulator.policy(AP)).toMatchObject({
    version: 1,
    bindings: [{ role: 'roles/a.b', members: ['user:a@example.com'] }],
    auditConfigs: audit,
  });
});

test('unknown routes are 404 and a write without an etag overwrites blindly, as Google allows', async () => {
  expect((await call('GET', `/v1/${AP}:testIamPermissions`)).status).toBe(404);
  expect((await call('GET', '/v1/projects/p/locations/global/authorizationPolicies/missing:getIamPolicy')).body.error?.status).toBe(
    'NOT_FOUND',
  );
  expect((await setPolicy({ bindings: [{ role: 'roles/a.b', members: ['user:a@example.com'] }] })).status).toBe(200);
});

test('injected faults follow the seed, only hit the chosen methods, and are counted', async () => {
  const run = async () => {
    emulator.setFaults({ rate: 0.5, kinds: ['429', '503'], seed: 42, methods: ['getIamPolicy'] });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await call('GET', `/v1/${AP}:getIamPolicy`)).status);
    return statuses;
  };
  emulator.resetStats();
  const first = await run();
  const second = await run();
  emulator.setFaults(undefined);
  expect(first).toEqual(second);
  expect(new Set(first)).toEqual(new Set([200, 429, 503]));
  expect(emulator.stats().faultsInjected).toBe(first.filter((s) => s !== 200).length * 2);
  emulator.setFaults({ rate: 1, methods: ['getImportJob'] });
  expect((await call('GET', `/v1/${AP}:getIamPolicy`)).status).toBe(200);
  emulator.setFaults(undefined);
});

test('the admin endpoints seed and inspect from another process', async () => {
  const other = 'projects/p/locations/us-central1/migrationJobs/admin';
  await fetch(`${emulator.url}/__emulator/resources`, {
    method: 'POST',
    body: JSON.stringify({ name: other, policy: { bindings: [{ role: 'roles/a.b', members: ['user:a@example.com'] }] } }),
  });
  const policy = await (await fetch(`${emulator.url}/__emulator/policies/${other}`)).json();
  expect(policy).toMatchObject({ version: 1, bindings: [{ role: 'roles/a.b', members: ['user:a@example.com'] }] });
  expect(policy).toEqual(emulator.policy(other));
});
