/**
 * The emulator is as strict as Google about roles: setIamPolicy with a
 * roles/… Google does not list, or one that holds no permission on the
 * resource's type, is Google's 400 INVALID_ARGUMENT "Role roles/X is not
 * supported for this resource." and writes nothing; custom roles are taken.
 * `acceptAnyRole` (CLI `--accept-any-role`) takes anything, for tests that
 * need made-up roles; CDKTF_GOOGLE_IAM_EXTRA_ROLES, roles Google added after
 * the library's table.
 */
import { spawn } from 'child_process';
import * as path from 'path';
import { GoogleApiEmulator } from '../../../lib/testing';

jest.setTimeout(60_000);

const AP = 'projects/p/locations/global/authorizationPolicies/rules';
const MJ = 'projects/p/locations/us-central1/migrationJobs/orders-db';
const PROJECT = 'projects/p';
const CLI = path.join(__dirname, '..', '..', '..', 'lib', 'testing', 'emulator', 'cli.js');

/** setIamPolicy of `name` (networksecurity, datamigration or cloudresourcemanager) with one binding of `role`, over HTTP. */
async function grant(url: string, service: string, name: string, role: string) {
  const response = await fetch(`${url}/${service}/${service === 'cloudresourcemanager' ? 'v3' : 'v1'}/${name}:setIamPolicy`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${GoogleApiEmulator.ACCESS_TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ policy: { bindings: [{ role, members: ['user:a@example.com'] }] } }),
  });
  return { status: response.status, body: (await response.json()) as { error?: { code: number; status: string; message: string } } };
}

describe('by default, as strict as Google', () => {
  let emulator: GoogleApiEmulator;
  beforeAll(async () => {
    emulator = await GoogleApiEmulator.start();
  });
  afterAll(() => emulator.close());
  beforeEach(() => {
    for (const name of [AP, MJ, PROJECT]) emulator.addResource(name);
    emulator.clearWrites();
  });

  test.each([
    ['a role Google does not list', 'networksecurity', AP, 'roles/networksecurity.viwer'],
    ['the role the README once granted', 'networksecurity', AP, 'roles/networksecurity.authorizationPolicyViewer'],
    ['a real role that holds no permission on an authorization policy', 'networksecurity', AP, 'roles/datamigration.admin'],
    ['a real role that holds no permission on a migration job', 'datamigration', MJ, 'roles/networksecurity.viewer'],
  ])("%s: Google's 400, naming the role; nothing written", async (_label, service, name, role) => {
    expect(await grant(emulator.url, service, name, role)).toEqual({
      status: 400,
      body: {
        error: expect.objectContaining({
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: `Role ${role} is not supported for this resource.`,
        }),
      },
    });
    expect(emulator.writes()).toEqual([]);
  });

  test.each([
    ['a real role of the type', 'networksecurity', AP, 'roles/networksecurity.viewer'],
    ['a network role on an authorization policy', 'networksecurity', AP, 'roles/compute.networkViewer'],
    ['the security reviewer on a migration job', 'datamigration', MJ, 'roles/iam.securityReviewer'],
    ['a basic role', 'datamigration', MJ, 'roles/viewer'],
    ['a custom role of a project', 'networksecurity', AP, 'projects/p/roles/apiReader'],
    ['a custom role of an organization', 'datamigration', MJ, 'organizations/123456789012/roles/dbaOnCall'],
    ['any real role on a project', 'cloudresourcemanager', PROJECT, 'roles/datamigration.admin'],
  ])('%s: written', async (_label, service, name, role) => {
    expect((await grant(emulator.url, service, name, role)).status).toBe(200);
    expect(emulator.policy(name).bindings).toEqual([{ role, members: ['user:a@example.com'] }]);
  });
});

test('acceptAnyRole: anything goes, for tests that need made-up roles', async () => {
  const emulator = await GoogleApiEmulator.start({ acceptAnyRole: true });
  try {
    emulator.addResource(AP);
    expect((await grant(emulator.url, 'networksecurity', AP, 'roles/networksecurity.viwer')).status).toBe(200);
    expect((await grant(emulator.url, 'networksecurity', AP, 'roles/datamigration.admin')).status).toBe(200);
  } finally {
    await emulator.close();
  }
});

test('the roles CDKTF_GOOGLE_IAM_EXTRA_ROLES lists as the emulator starts (roles Google added after the table) are taken', async () => {
  const before = process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES;
  process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES = 'roles/widgets.admin';
  const emulator = await GoogleApiEmulator.start();
  if (before === undefined) delete process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES;
  else process.env.CDKTF_GOOGLE_IAM_EXTRA_ROLES = before;
  try {
    emulator.addResource(AP);
    expect((await grant(emulator.url, 'networksecurity', AP, 'roles/widgets.admin')).status).toBe(200);
    expect((await grant(emulator.url, 'networksecurity', AP, 'roles/networksecurity.viwer')).status).toBe(400);
  } finally {
    await emulator.close();
  }
});

test.each([
  [[], 400],
  [['--accept-any-role'], 200],
])('the CLI %j: a made-up role answers %d', async (flags, status) => {
  const child = spawn(process.execPath, [CLI, '--json', ...flags], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const { url } = JSON.parse(
      await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk;
          if (out.includes('\n')) resolve(out.split('\n')[0]);
        });
        child.on('exit', (code) => reject(new Error(`the emulator CLI exited with ${code}`)));
      }),
    ) as { url: string };
    await fetch(`${url}/__emulator/resources`, { method: 'POST', body: JSON.stringify({ name: AP }) });
    expect((await grant(url, 'networksecurity', AP, 'roles/networksecurity.viwer')).status).toBe(status);
  } finally {
    child.kill('SIGTERM');
  }
});
