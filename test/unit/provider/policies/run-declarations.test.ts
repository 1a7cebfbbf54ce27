/**
 * What one terraform run's provider processes tell each other (run-declarations.ts):
 * each alias is a process of its own, and a grant moved between aliases must
 * survive the delete in one process of what another created.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { PolicyEdit } from '../../../../lib/iam/policy-edit';
import { PolicyBatchers } from '../../../../lib/provider/policies/policy-batchers';
import { RunDeclarations } from '../../../../lib/provider/policies/run-declarations';
import { MemoryPolicy } from '../../../support/memory-policy';

const ROLE = 'roles/networksecurity.viewer';
const POLICY = 'networksecurity:projects/p-123456/locations/global/authorizationPolicies/ap';
const add = (member: string): PolicyEdit => ({ kind: 'addMember', role: ROLE, member });
const remove = (member: string): PolicyEdit => ({ kind: 'removeMember', role: ROLE, member });

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'run-declarations-'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

test('a process sees the grants the others recorded, by policy; never its own, never a removal', () => {
  const folder = path.join(root, 'run');
  const a = new RunDeclarations(folder, 'a');
  const b = new RunDeclarations(folder, 'b');
  expect(a.others(POLICY)).toEqual([]); // nothing written yet: no folder
  b.record(POLICY, [remove('user:old@example.com'), add('user:m@example.com')]);
  b.record('networksecurity:other', [add('user:x@example.com')]);
  a.record(POLICY, [add('user:mine@example.com')]);
  expect(a.others(POLICY)).toEqual([add('user:m@example.com')]);
  expect(b.others(POLICY)).toEqual([add('user:mine@example.com')]);
  // Read incrementally: what came later is added to what was read.
  b.record(POLICY, [{ kind: 'setBinding', role: ROLE, members: ['group:g@example.com'] }]);
  expect(a.others(POLICY)).toEqual([add('user:m@example.com'), { kind: 'setBinding', role: ROLE, members: ['group:g@example.com'] }]);
  expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
});

test('a line still being appended is read once it is whole', () => {
  const folder = path.join(root, 'run');
  const a = new RunDeclarations(folder, 'a');
  fs.mkdirSync(folder, { mode: 0o700 });
  const line = JSON.stringify({ policy: POLICY, grants: [add('user:m@example.com')] });
  fs.writeFileSync(path.join(folder, 'b'), line.slice(0, 10));
  expect(a.others(POLICY)).toEqual([]);
  fs.appendFileSync(path.join(folder, 'b'), `${line.slice(10)}\n`);
  expect(a.others(POLICY)).toEqual([add('user:m@example.com')]);
});

test("the run's folder is named by terraform's pid and start time; ended runs' folders are removed", () => {
  const run = RunDeclarations.ofThisRun()!;
  expect(path.dirname(run.folder)).toBe(os.tmpdir());
  expect(path.basename(run.folder)).toMatch(new RegExp(`^terraform-provider-googleiam-run-${process.ppid}-\\w+$`));
  const ended = path.join(os.tmpdir(), 'terraform-provider-googleiam-run-999999999-1');
  fs.mkdirSync(ended);
  try {
    run.record(POLICY, [add('user:m@example.com')]);
    expect(fs.existsSync(ended)).toBe(false);
    expect(fs.readdirSync(run.folder)).toEqual([String(process.pid)]);
  } finally {
    fs.rmSync(ended, { recursive: true, force: true });
    fs.rmSync(run.folder, { recursive: true, force: true });
  }
});

test('a line that is not a declaration is refused, naming the field', () => {
  const folder = path.join(root, 'run');
  fs.mkdirSync(folder, { mode: 0o700 });
  fs.writeFileSync(
    path.join(folder, 'b'),
    `${JSON.stringify({ policy: POLICY, grants: [{ kind: 'removeMember', role: ROLE, member: 'user:m@example.com' }] })}\n`,
  );
  expect(() => new RunDeclarations(folder, 'a').others(POLICY)).toThrow(
    /another googleiam provider process of this terraform run .* is malformed: grants\[0\]\.kind: expected addMember, setBinding, replaceBindings, setMemberRoles/,
  );
});

test("a folder that is not this user's own (someone could make it: its name can be guessed) is refused", () => {
  const folder = path.join(root, 'run');
  fs.mkdirSync(folder);
  fs.chmodSync(folder, 0o777);
  expect(() => new RunDeclarations(folder, 'a').record(POLICY, [add('user:m@example.com')])).toThrow(/is not this user's own folder/);
});

test('two provider processes of one run (two aliases): a delete in one spares what the other created first', async () => {
  const folder = path.join(root, 'run');
  const policy = new MemoryPolicy({ bindings: [{ role: ROLE, members: ['user:m@example.com'] }] });
  const fast = { initialDelayMs: 1, maxDelayMs: 2, maxElapsedMs: 1_000 };
  const options = { change: fast, read: fast, staleRead: fast, maxGatherMs: 5, idleGatherMs: 1 };
  const resource = { service: 'networksecurity', apiVersion: 'v1', name: 'projects/p-123456/locations/global/authorizationPolicies/ap' };
  const aliasA = new PolicyBatchers({ endpointOf: () => policy, declarations: new RunDeclarations(folder, 'a') }, options);
  const aliasB = new PolicyBatchers({ endpointOf: () => policy, declarations: new RunDeclarations(folder, 'b') }, options);
  await (await aliasB.of(resource)).change([add('user:m@example.com')]); // the grant at its new address, under the other alias
  await (await aliasA.of(resource)).change([remove('user:m@example.com')]); // its delete at the old one
  expect(policy.policy.bindings).toEqual([{ role: ROLE, members: ['user:m@example.com'] }]);
  // Without the run's folder, the delete takes it away: what the test above would be without it.
  const alone = new PolicyBatchers({ endpointOf: () => policy }, options);
  await (await alone.of(resource)).change([remove('user:m@example.com')]);
  expect(policy.policy.bindings).toEqual([]);
});
