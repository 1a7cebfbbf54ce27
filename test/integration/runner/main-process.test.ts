/**
 * The bundled runner as Terraform starts it: a fresh `node dist/runner/runner.js`
 * process talking to the emulator over HTTP, the V8 code cache it keeps in
 * its state folder (authenticated, so a planted cache never runs), and the
 * run markers that keep a re-applied grant from being revoked in the same apply.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { runCommand, type CommandResult } from '../../support/terraform';

jest.setTimeout(60_000);

const RUNNER_DIR = path.join(__dirname, '..', '..', '..', 'dist', 'runner');
const RUNNER = path.join(RUNNER_DIR, 'runner.js');
const AP = 'projects/demo-project/locations/global/authorizationPolicies/runner';
const VIEWER = 'roles/networksecurity.authorizationPolicyViewer';

let emulator: GoogleApiEmulator;
beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(() => emulator.close());

function runRunner(action: string, grant: string, env: Record<string, string>, cwd = os.tmpdir()): Promise<CommandResult> {
  return runCommand(process.execPath, [RUNNER, action], cwd, {
    ...env,
    CDKTF_GOOGLE_IAM_GRANT: grant,
    CDKTF_GOOGLE_IAM_LABEL: 'Test test/Grant',
  });
}

const memberGrant = (member: string) =>
  JSON.stringify({ mode: 'member', resource: { service: 'networksecurity', apiVersion: 'v1', name: AP }, role: VIEWER, member });

const cacheFiles = (stateDir: string) => {
  const dir = path.join(stateDir, 'code-cache');
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.bin'))
        .map((f) => path.join(dir, f))
    : [];
};

test('a fresh runner process grants and revokes, and caches its compiled code only after calling Google', async () => {
  emulator.addResource(AP);
  const env = grantEnv(emulator);

  const malformed = await runRunner('apply', '{"mode":"nope"}', env);
  expect(malformed.code).toBe(1);
  expect(malformed.output).toContain('the grant in CDKTF_GOOGLE_IAM_GRANT is malformed');
  expect(cacheFiles(env.CDKTF_GOOGLE_IAM_STATE_DIR)).toEqual([]);

  const first = await runRunner('apply', memberGrant('user:alice@example.com'), env);
  expect(first).toMatchObject({
    code: 0,
    output: expect.stringContaining('Test test/Grant roles/networksecurity.authorizationPolicyViewer on'),
  });
  expect(first.output).toContain('added user:alice@example.com');
  expect(membersOf(emulator, AP, VIEWER)).toEqual(['user:alice@example.com']);
  const [cache] = cacheFiles(env.CDKTF_GOOGLE_IAM_STATE_DIR);
  expect(cache).toMatch(/runner-[0-9a-f]{24}\.bin$/);
  const written = fs.statSync(cache);
  expect(written.size).toBeGreaterThan(100_000); // google-auth-library's code included
  expect(written.mode & 0o777).toBe(0o600);

  // A later run uses the cache as it is (an accepted cache is never rewritten).
  const second = await runRunner('remove', memberGrant('user:alice@example.com'), env);
  expect(second).toMatchObject({ code: 0, output: expect.stringContaining('removed user:alice@example.com') });
  expect(membersOf(emulator, AP, VIEWER)).toEqual([]);
  expect(cacheFiles(env.CDKTF_GOOGLE_IAM_STATE_DIR)).toEqual([cache]);
  expect(fs.statSync(cache).mtimeMs).toBe(written.mtimeMs);
});

test('a corrupt cache costs only a normal compile, and is replaced', async () => {
  emulator.addResource(AP);
  const env = grantEnv(emulator);
  expect((await runRunner('apply', memberGrant('user:bob@example.com'), env)).code).toBe(0);
  const [cache] = cacheFiles(env.CDKTF_GOOGLE_IAM_STATE_DIR);
  fs.writeFileSync(cache, Buffer.alloc(4096, 7), { mode: 0o600 });

  const run = await runRunner('apply', memberGrant('user:carol@example.com'), env);
  expect(run).toMatchObject({ code: 0, output: expect.stringContaining('added user:carol@example.com') });
  expect(membersOf(emulator, AP, VIEWER)).toEqual(['user:bob@example.com', 'user:carol@example.com']);
  expect(fs.statSync(cache).size).toBeGreaterThan(100_000);
});

test('a planted cache compiled from other code of the same length never runs (the cache is authenticated)', async () => {
  emulator.addResource(AP);
  const env = grantEnv(emulator);
  expect((await runRunner('apply', memberGrant('user:dave@example.com'), env)).code).toBe(0);
  const [cache] = cacheFiles(env.CDKTF_GOOGLE_IAM_STATE_DIR);

  // What a local attacker would plant: V8 checks little more than the source length.
  const canary = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'canary-')), 'pwned');
  const source = fs.readFileSync(path.join(RUNNER_DIR, 'main.js'), 'utf8');
  const evil = `require('fs').writeFileSync(${JSON.stringify(canary)}, process.env.GOOGLE_OAUTH_ACCESS_TOKEN || 'x');`;
  const padded = require('module').wrap(evil.padEnd(source.length, ' ')) as string;
  const planted = new vm.Script(padded, { filename: RUNNER }).createCachedData();
  for (const content of [planted, Buffer.concat([Buffer.alloc(32, 1), planted])]) {
    fs.writeFileSync(cache, content, { mode: 0o600 });
    const run = await runRunner('apply', memberGrant('user:erin@example.com'), env);
    expect(run).toMatchObject({
      code: 0,
      output: expect.stringMatching(/added user:erin@example.com|user:erin@example.com was already granted/),
    });
    expect(fs.existsSync(canary)).toBe(false);
  }
});

test('a grant applied earlier in the same terraform run is not revoked by that run (a grant that moved addresses)', async () => {
  emulator.addResource(AP);
  const env = { ...grantEnv(emulator), CDKTF_GOOGLE_IAM_RUN: '2026-11-23T10:00:00Z' };
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'stack-'));
  expect((await runRunner('apply', memberGrant('user:frank@example.com'), env, cwd)).code).toBe(0);
  emulator.clearWrites();

  const kept = await runRunner('remove', memberGrant('user:Frank@Example.com'), env, cwd);
  expect(kept).toMatchObject({
    code: 0,
    output: expect.stringContaining('kept (this apply has just applied it again, under another address)'),
  });
  expect(emulator.writes()).toEqual([]);

  // Another run (another plan time) revokes it.
  const removed = await runRunner(
    'remove',
    memberGrant('user:frank@example.com'),
    { ...env, CDKTF_GOOGLE_IAM_RUN: '2026-11-23T10:05:00Z' },
    cwd,
  );
  expect(removed.output).toContain('removed user:frank@example.com');
  expect(membersOf(emulator, AP, VIEWER)).toEqual([]);
});

test('within one run, the next grant of a policy writes against the policy as the last one wrote it: no read, and a console edit in between is not lost', async () => {
  emulator.addResource(AP);
  const env = { ...grantEnv(emulator), CDKTF_GOOGLE_IAM_RUN: '2026-11-23T11:00:00Z' };
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'stack-'));
  expect((await runRunner('apply', memberGrant('user:a@example.com'), env, cwd)).code).toBe(0);

  emulator.resetStats();
  expect((await runRunner('apply', memberGrant('user:b@example.com'), env, cwd)).code).toBe(0);
  expect(emulator.stats()).toMatchObject({ getIamPolicy: 0, setIamPolicy: 1, conflicts: 0 });

  // Someone edits the policy in the console: the etag the runners kept is stale.
  const consoleBinding = { role: 'roles/networksecurity.authorizationPolicyAdmin', members: ['user:console@example.com'] };
  emulator.addResource(AP, {
    ...emulator.policy(AP),
    etag: undefined,
    bindings: [...(emulator.policy(AP).bindings ?? []), consoleBinding],
  });
  emulator.resetStats();
  emulator.clearWrites();
  const third = await runRunner('apply', memberGrant('user:c@example.com'), env, cwd);
  expect(third).toMatchObject({ code: 0, output: expect.stringContaining('added user:c@example.com (1 attempt, batch of 1)') });
  expect(emulator.stats()).toMatchObject({ getIamPolicy: 1, setIamPolicy: 2, conflicts: 1 });
  expect(emulator.writes(AP).map((w) => w.policy.bindings)).toEqual([
    [{ role: VIEWER, members: ['user:a@example.com', 'user:b@example.com', 'user:c@example.com'] }, consoleBinding],
  ]);

  // Another run starts from a read.
  emulator.resetStats();
  const env2 = { ...env, CDKTF_GOOGLE_IAM_RUN: '2026-11-23T11:05:00Z' };
  expect((await runRunner('apply', memberGrant('user:d@example.com'), env2, cwd)).code).toBe(0);
  expect(emulator.stats()).toMatchObject({ getIamPolicy: 1, setIamPolicy: 1 });
});

test('a state folder open to others is refused before anything is sent', async () => {
  emulator.addResource(AP);
  const env = grantEnv(emulator);
  fs.chmodSync(env.CDKTF_GOOGLE_IAM_STATE_DIR, 0o777);
  emulator.resetStats();
  const run = await runRunner('apply', memberGrant('user:gina@example.com'), env);
  expect(run.code).toBe(1);
  expect(run.stderr).toMatch(/refusing to use .*: it has mode 777, which lets others in/);
  expect(emulator.stats().requests).toBe(0);
});

test('an endpoint override with a typo fails the grant after one attempt, naming the host and the variable, not after minutes of retries', async () => {
  const env = { ...grantEnv(emulator), CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: 'https://networksecurty.invalid/' };
  const run = await runRunner('apply', memberGrant('user:typo@example.com'), env);
  expect(run.code).toBe(1);
  expect(run.output).toMatch(/cannot connect to networksecurty\.invalid: the host name (does not resolve|could not be resolved)/);
  expect(run.output).toContain('the address comes from CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY="https://networksecurty.invalid/"');
  expect(run.output).toMatch(/\(1 attempt, batch of 1\)/);
  expect(run.output).not.toMatch(/retrying in/);
});
