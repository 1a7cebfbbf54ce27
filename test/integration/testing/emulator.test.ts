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
  [
    'an unknown binding field',
    { policy: { bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'], extra: 1 }] } },
  ],
  [
    'a conditional binding in version 1',
    {
      policy: {
        version: 1,
        bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'], condition: { title: 't', expression: 'true' } }],
      },
    },
  ],
  ['version 2', { policy: { version: 2 } }],
  [
    'a condition without a title',
    {
      policy: {
        version: 3,
        bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'], condition: { expression: 'true' } }],
      },
    },
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
    {
      policy: {
        version: 3,
        bindings: [{ role: 'roles/networksecurity.admin', members: ['allUsers'], condition: { title: 't', expression: 'true' } }],
      },
    },
  ],
  ['a malformed principal', { policy: { bindings: [{ role: 'roles/networksecurity.admin', members: ['alice@example.com'] }] } }],
  ['a malformed role', { policy: { bindings: [{ role: 'viewer', members: ['user:a@example.com'] }] } }],
  [
    'a mangled version 1 role',
    { policy: { bindings: [{ role: 'roles/networksecurity.admin_withcond_0123', members: ['user:a@example.com'] }] } },
  ],
  [
    '251 groups',
    {
      policy: {
        bindings: [{ role: 'roles/networksecurity.admin', members: Array.from({ length: 251 }, (_, i) => `group:g${i}@example.com`) }],
      },
    },
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
      bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'] }],
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
      { role: 'roles/networksecurity.admin', members: ['user:a@example.com', 'user:a@example.com'] },
      { role: 'roles/networksecurity.editor', members: [] },
    ],
    auditConfigs: [],
  });
  expect(status).toBe(200);
  expect(emulator.policy(AP)).toMatchObject({
    version: 1,
    bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'] }],
    auditConfigs: audit,
  });
});

test('unknown routes are 404 and a write without an etag overwrites blindly, as Google allows', async () => {
  expect((await call('GET', `/v1/${AP}:testIamPermissions`)).status).toBe(404);
  expect((await call('GET', '/v1/projects/p/locations/global/authorizationPolicies/missing:getIamPolicy')).body.error?.status).toBe(
    'NOT_FOUND',
  );
  expect((await setPolicy({ bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'] }] })).status).toBe(200);
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
    body: JSON.stringify({ name: other, policy: { bindings: [{ role: 'roles/datamigration.admin', members: ['user:a@example.com'] }] } }),
  });
  const policy = await (await fetch(`${emulator.url}/__emulator/policies/${other}`)).json();
  expect(policy).toMatchObject({ version: 1, bindings: [{ role: 'roles/datamigration.admin', members: ['user:a@example.com'] }] });
  expect(policy).toEqual(emulator.policy(other));
});

describe("Google's eventual consistency, opt-in", () => {
  const read = (name: string) => call('GET', `/v1/${name}:getIamPolicy?options.requestedPolicyVersion=3`);
  const write = (name: string, policy: unknown) => call('POST', `/v1/${name}:setIamPolicy`, { policy });
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

  test.each([
    [404, 'NOT_FOUND'],
    [403, 'PERMISSION_DENIED'],
  ] as const)('a resource created moments ago answers %i %s to reads and writes until it is visible', async (hiddenAs, status) => {
    const name = `projects/p/locations/global/authorizationPolicies/hidden-${hiddenAs}`;
    emulator.addResource(name, { bindings: [] }, { visibleAfterMs: 300, hiddenAs });
    expect(await read(name)).toMatchObject({ status: hiddenAs, body: { error: { status } } });
    expect((await write(name, { bindings: [] })).status).toBe(hiddenAs);
    await sleep(350);
    expect((await read(name)).status).toBe(200);
  });

  test('a service account created moments ago is refused as a member with 400 "Service account … does not exist", then accepted', async () => {
    emulator.addServiceAccount('Build@p.iam.gserviceaccount.com', 300);
    const binding = { role: 'roles/networksecurity.admin', members: ['serviceAccount:build@p.iam.gserviceaccount.com'] };
    const writes = emulator.writes(AP).length;
    const refused = await write(AP, { bindings: [binding] });
    expect(refused).toMatchObject({
      status: 400,
      body: { error: { status: 'INVALID_ARGUMENT', message: 'Service account build@p.iam.gserviceaccount.com does not exist.' } },
    });
    expect(emulator.writes(AP)).toHaveLength(writes);
    await sleep(350);
    expect((await write(AP, { bindings: [binding] })).status).toBe(200);
  });

  test('reads lag writes: a read answers the newest version at least that old; writes check the current etag', async () => {
    emulator.setReadLag(300);
    try {
      const before = (await read(AP)).body.etag;
      await sleep(320);
      const first = await write(AP, { etag: before, bindings: [{ role: 'roles/networksecurity.admin', members: ['user:a@example.com'] }] });
      expect(first.status).toBe(200);
      // Too soon: the version before the write, with its etag; writing with that etag is a conflict.
      expect((await read(AP)).body).toEqual({ etag: before });
      expect((await write(AP, { etag: before, bindings: [] })).body.error?.status).toBe('ABORTED');
      expect(emulator.policy(AP).etag).toBe(first.body.etag);
      await sleep(320);
      expect((await read(AP)).body.etag).toBe(first.body.etag);
    } finally {
      emulator.setReadLag(0);
    }
  });

  test('the admin endpoints set the same modes from another process', async () => {
    const name = 'projects/p/locations/global/authorizationPolicies/admin-hidden';
    const admin = (action: string, body: unknown) =>
      fetch(`${emulator.url}/__emulator/${action}`, { method: 'POST', body: JSON.stringify(body) });
    expect((await admin('resources', { name, visibleAfterMs: 60_000, hiddenAs: 403 })).status).toBe(200);
    expect((await read(name)).status).toBe(403);
    expect((await admin('service-accounts', { email: 'late@p.iam.gserviceaccount.com', refusedForMs: 60_000 })).status).toBe(200);
    expect(
      (await write(AP, { bindings: [{ role: 'roles/networksecurity.admin', members: ['serviceAccount:late@p.iam.gserviceaccount.com'] }] }))
        .status,
    ).toBe(400);
    expect((await admin('read-lag', { ms: 0 })).status).toBe(200);
  });
});
