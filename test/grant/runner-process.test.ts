/**
 * The bundled runner as Terraform starts it: a fresh `node dist/runner/runner.js`
 * process talking to the emulator over HTTP, and the V8 code cache it keeps
 * in the state directory.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GoogleApiEmulator } from '../../lib/testing';
import { grantEnv, membersOf } from '../support/grant-env';
import { runCommand, type CommandResult } from '../support/terraform';

jest.setTimeout(60_000);

const RUNNER = path.join(__dirname, '..', '..', 'dist', 'runner', 'runner.js');
const AP = 'projects/demo-project/locations/global/authorizationPolicies/runner';
const VIEWER = 'roles/networksecurity.authorizationPolicyViewer';

let emulator: GoogleApiEmulator;
beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(() => emulator.close());

function runRunner(action: string, spec: string, env: Record<string, string>): Promise<CommandResult> {
  return runCommand(process.execPath, [RUNNER, action], os.tmpdir(), { ...env, CDKTF_GOOGLE_IAM_GRANT: spec });
}

const memberSpec = (member: string) =>
  JSON.stringify({ type: 'networksecurity.authorizationPolicies', mode: 'member', resource: AP, role: VIEWER, members: [member] });

const cacheFiles = (stateDir: string) => {
  const dir = path.join(stateDir, 'code-cache');
  return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : [];
};

test('a fresh runner process grants and revokes, and caches its compiled code only after calling Google', async () => {
  emulator.addResource(AP);
  const env = grantEnv(emulator);

  const malformed = await runRunner('apply', '{"type":"nope"}', env);
  expect(malformed.code).toBe(1);
  expect(malformed.output).toContain('grant spec is malformed');
  expect(cacheFiles(env.CDKTF_GOOGLE_IAM_STATE_DIR)).toEqual([]);

  const first = await runRunner('apply', memberSpec('user:alice@example.com'), env);
  expect(first).toMatchObject({ code: 0, output: expect.stringContaining('added user:alice@example.com') });
  expect(membersOf(emulator, AP, VIEWER)).toEqual(['user:alice@example.com']);
  const [cache] = cacheFiles(env.CDKTF_GOOGLE_IAM_STATE_DIR);
  expect(cache).toMatch(/runner-[0-9a-f]{24}\.bin$/);
  const written = fs.statSync(cache);
  expect(written.size).toBeGreaterThan(100_000); // google-auth-library's code included

  // A later run uses the cache as it is (an accepted cache is never rewritten).
  const second = await runRunner('remove', memberSpec('user:alice@example.com'), env);
  expect(second).toMatchObject({ code: 0, output: expect.stringContaining('removed user:alice@example.com') });
  expect(membersOf(emulator, AP, VIEWER)).toEqual([]);
  expect(cacheFiles(env.CDKTF_GOOGLE_IAM_STATE_DIR)).toEqual([cache]);
  expect(fs.statSync(cache).mtimeMs).toBe(written.mtimeMs);
});

test('a corrupt cache is rejected by V8, costs only a normal compile, and is replaced', async () => {
  emulator.addResource(AP);
  const env = grantEnv(emulator);
  expect((await runRunner('apply', memberSpec('user:bob@example.com'), env)).code).toBe(0);
  const [cache] = cacheFiles(env.CDKTF_GOOGLE_IAM_STATE_DIR);
  fs.writeFileSync(cache, Buffer.alloc(4096, 7));

  const run = await runRunner('apply', memberSpec('user:carol@example.com'), env);
  expect(run).toMatchObject({ code: 0, output: expect.stringContaining('added user:carol@example.com') });
  expect(membersOf(emulator, AP, VIEWER)).toEqual(['user:bob@example.com', 'user:carol@example.com']);
  expect(fs.statSync(cache).size).toBeGreaterThan(100_000);
});
