/**
 * What one terraform run's provider processes tell each other (run-declarations.ts):
 * each alias is a process of its own, and a grant moved between aliases must
 * survive the delete in one process of what another created. Where the run's
 * folder is kept (this user's alone), which ended runs' folders are removed,
 * the watcher that removes a run's folder when terraform ends, and a folder
 * that cannot be used: never an error, a warning once.
 */
import { spawn } from 'child_process';
import { buildSync } from 'esbuild';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { PolicyEdit } from '../../../../lib/iam/policy-edit';
import { PolicyBatchers } from '../../../../lib/provider/policies/policy-batchers';
import { processSpace, processStart, RunDeclarations, runFolderName, runsFolder } from '../../../../lib/provider/policies/run-declarations';
import { MemoryPolicy } from '../../../support/memory-policy';
import { sleep, until } from '../../../support/waiting';

const ROLE = 'roles/networksecurity.viewer';
const POLICY = 'networksecurity:projects/p-123456/locations/global/authorizationPolicies/ap';
const add = (member: string): PolicyEdit => ({ kind: 'addMember', role: ROLE, member });
const remove = (member: string): PolicyEdit => ({ kind: 'removeMember', role: ROLE, member });
const uid = process.getuid!();
const isRoot = uid === 0;
const DAY_MS = 24 * 60 * 60 * 1000;

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'run-declarations-'));
});
afterEach(() => {
  jest.restoreAllMocks();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A folder of `root`, made (mode 0700) with those above it. */
function folderIn(...parts: string[]): string {
  const folder = path.join(root, ...parts);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  return folder;
}

const modeOf = (folder: string) => fs.statSync(folder).mode & 0o777;

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
  expect(modeOf(folder)).toBe(0o700);
  expect(a.unavailable()).toBeUndefined();
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

test('a line that is not a declaration is refused, naming the field', () => {
  const folder = folderIn('run');
  fs.writeFileSync(
    path.join(folder, 'b'),
    `${JSON.stringify({ policy: POLICY, grants: [{ kind: 'removeMember', role: ROLE, member: 'user:m@example.com' }] })}\n`,
  );
  expect(() => new RunDeclarations(folder, 'a').others(POLICY)).toThrow(
    /another googleiam provider process of this terraform run .* is malformed: grants\[0\]\.kind: expected addMember, setBinding, replaceBindings, setMemberRoles/,
  );
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

describe("where the runs' folders are kept: this user's alone", () => {
  test("the working directory's .terraform (or TF_DATA_DIR), never the shared temp dir, when it is there and writable", () => {
    const work = folderIn('work');
    const tmp = folderIn('tmp');
    fs.mkdirSync(path.join(work, '.terraform'));
    expect(runsFolder({ TMPDIR: tmp }, work)).toEqual({ folder: path.join(work, '.terraform', 'googleiam-runs'), tried: [] });
    expect(modeOf(path.join(work, '.terraform', 'googleiam-runs'))).toBe(0o700);
    fs.mkdirSync(path.join(work, 'data'));
    expect(runsFolder({ TMPDIR: tmp, TF_DATA_DIR: 'data' }, work).folder).toBe(path.join(work, 'data', 'googleiam-runs'));
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  test('without a data dir: $XDG_RUNTIME_DIR when set, else a folder of the temp dir named by the uid, made mode 0700', () => {
    const work = folderIn('work');
    const tmp = folderIn('tmp');
    const ownTmp = path.join(tmp, `terraform-provider-googleiam-${uid}`);
    expect(runsFolder({ TMPDIR: tmp }, work)).toEqual({ folder: ownTmp, tried: [`${path.join(work, '.terraform')}: not there`] });
    expect(modeOf(ownTmp)).toBe(0o700);
    const xdg = folderIn('xdg');
    expect(runsFolder({ TMPDIR: tmp, XDG_RUNTIME_DIR: xdg }, work).folder).toBe(path.join(xdg, 'terraform-provider-googleiam'));
    expect(modeOf(path.join(xdg, 'terraform-provider-googleiam'))).toBe(0o700);
  });

  test('CDKTF_GOOGLE_IAM_RUN_DIR, when set, alone: made (with the folders above it), relative to the working directory', () => {
    const work = folderIn('work');
    fs.mkdirSync(path.join(work, '.terraform'));
    expect(runsFolder({ CDKTF_GOOGLE_IAM_RUN_DIR: 'mine/runs' }, work).folder).toBe(path.join(work, 'mine', 'runs'));
    expect(modeOf(path.join(work, 'mine', 'runs'))).toBe(0o700);
    const shared = folderIn('shared');
    fs.chmodSync(shared, 0o1777);
    expect(runsFolder({ CDKTF_GOOGLE_IAM_RUN_DIR: shared }, work)).toEqual({
      tried: [`${shared}: not this user's own folder (a folder, owner ${uid}, mode 1777)`],
    });
  });

  test("a per-user folder another account made (its name can be guessed), or open to others, or a link, is not used; nor another account's XDG_RUNTIME_DIR", () => {
    const work = folderIn('work');
    const tmp = folderIn('tmp');
    const squatted = path.join(tmp, `terraform-provider-googleiam-${uid}`);
    fs.mkdirSync(squatted);
    fs.chmodSync(squatted, 0o777);
    expect(runsFolder({ TMPDIR: tmp }, work).folder).toBeUndefined();
    fs.rmdirSync(squatted);
    fs.symlinkSync(folderIn('elsewhere'), squatted);
    expect(runsFolder({ TMPDIR: tmp }, work)).toEqual({
      tried: [`${path.join(work, '.terraform')}: not there`, `${squatted}: not this user's own folder (a link, owner ${uid}, mode 777)`],
    });
    fs.unlinkSync(squatted);
    if (!isRoot) return console.warn('not root: a folder owned by another account cannot be made here; the owner check is left untested');
    fs.mkdirSync(squatted, { mode: 0o700 });
    fs.chownSync(squatted, 65534, 65534);
    const xdg = folderIn('xdg-of-nobody');
    fs.chownSync(xdg, 65534, 65534);
    expect(runsFolder({ TMPDIR: tmp, XDG_RUNTIME_DIR: xdg }, work).tried).toEqual([
      `${path.join(work, '.terraform')}: not there`,
      `${xdg}: not this user's (owner 65534)`,
      `${squatted}: not this user's own folder (a folder, owner 65534, mode 700)`,
    ]);
  });

  test("the run's folder is named by the boot, the PID namespace, and terraform's pid and start time", () => {
    const work = folderIn('work');
    fs.mkdirSync(path.join(work, '.terraform'));
    const run = RunDeclarations.ofThisRun({}, work);
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replace(/-/g, '');
    const pidNamespace = /\d+/.exec(fs.readlinkSync('/proc/self/ns/pid'))![0];
    expect(processSpace()).toEqual({ boot, pidNamespace });
    expect(run.folder).toBe(
      path.join(work, '.terraform', 'googleiam-runs', `run-${boot}-${pidNamespace}-${process.ppid}-${processStart(process.ppid)}`),
    );
    run.record(POLICY, [add('user:m@example.com')]);
    expect(fs.readdirSync(run.folder!)).toEqual([String(process.pid)]);
  });
});

describe('a folder that cannot be used: the process works on its own, and says so once', () => {
  /** Where nothing can be made: no .terraform, and a temp dir that is a file. */
  function nowhere(): { env: NodeJS.ProcessEnv; work: string; tmp: string } {
    const work = folderIn('work');
    const tmp = path.join(root, 'tmp-file');
    fs.writeFileSync(tmp, '');
    return { env: { TMPDIR: tmp }, work, tmp };
  }

  test('record and destroying do nothing and never throw, others is empty, and the warning names the folders tried, the risk and the setting', () => {
    const { env, work, tmp } = nowhere();
    const run = RunDeclarations.ofThisRun(env, work);
    expect(run.folder).toBeUndefined();
    expect(() => run.record(POLICY, [add('user:m@example.com')])).not.toThrow();
    expect(() => run.destroying()).not.toThrow();
    expect(run.others(POLICY)).toEqual([]);
    const warning = run.unavailable()!;
    expect(warning.summary).toBe('The googleiam provider processes of this terraform run cannot share what they declare');
    expect(warning.detail).toContain(`${path.join(work, '.terraform')}: not there`);
    expect(warning.detail).toContain(`${path.join(tmp, `terraform-provider-googleiam-${uid}`)}: ENOTDIR: not a directory, mkdir)`);
    expect(warning.detail).toContain('a grant moved between two provider configurations (aliases) of one policy may be revoked');
    expect(warning.detail).toContain('a grant moved between resources may be revoked and granted again, with a moment without access');
    expect(warning.detail).toContain('Set CDKTF_GOOGLE_IAM_RUN_DIR to a folder only you can write (or TMPDIR to a temp dir you can write)');
    expect(run.unavailable()).toBeUndefined(); // once
  });

  test('a CDKTF_GOOGLE_IAM_RUN_DIR that cannot be made: the warning names it (and nothing else is tried)', () => {
    const { work, tmp } = nowhere();
    const run = RunDeclarations.ofThisRun({ CDKTF_GOOGLE_IAM_RUN_DIR: path.join(tmp, 'runs') }, work);
    run.record(POLICY, [add('user:m@example.com')]);
    expect(run.unavailable()!.detail).toContain(
      `no folder for it can be used (${path.join(tmp, 'runs')}: ENOTDIR: not a directory, mkdir)`,
    );
  });

  test("a run's folder that is not this user's own is neither written nor read", () => {
    const folder = folderIn('run');
    fs.chmodSync(folder, 0o777);
    fs.writeFileSync(path.join(folder, 'b'), `${JSON.stringify({ policy: POLICY, grants: [add('user:planted@example.com')] })}\n`);
    const run = new RunDeclarations(folder, 'a');
    expect(run.others(POLICY)).toEqual([]);
    expect(() => run.record(POLICY, [add('user:m@example.com')])).not.toThrow();
    expect(fs.readdirSync(folder)).toEqual(['b']);
    expect(run.unavailable()!.detail).toContain(
      `the run's folder ${folder} is not this user's own folder (a folder, owner ${uid}, mode 777)`,
    );
  });

  test("a write that fails (the process's file is not a file) is not fatal: the process goes on alone, still reading the others", () => {
    const folder = folderIn('run');
    fs.mkdirSync(path.join(folder, 'a'));
    fs.writeFileSync(path.join(folder, 'b'), `${JSON.stringify({ policy: POLICY, grants: [add('user:b@example.com')] })}\n`);
    const run = new RunDeclarations(folder, 'a');
    expect(() => run.record(POLICY, [add('user:m@example.com')])).not.toThrow();
    expect(run.unavailable()!.detail).toContain(
      `the run's folder ${folder} cannot be written (EISDIR: illegal operation on a directory, open)`,
    );
    expect(() => run.end()).not.toThrow();
  });
});

describe("the folders of ended runs are removed by the run that makes its folder (best-effort, never fatal); a live run's never", () => {
  const here = processSpace();
  const OTHER_BOOT = 'f'.repeat(32);

  /** Run folders in `base`, each with a process's file, by what they stand for. */
  function runs(base: string): Record<string, string> {
    const names = {
      live: runFolderName(process.pid, processStart(process.pid)!),
      // Its pid is running, but the machine has booted since: another process.
      otherBoot: runFolderName(process.pid, processStart(process.pid)!, { ...here, boot: OTHER_BOOT }),
      deadPid: runFolderName(999_999_999, '1'),
      startedAgain: runFolderName(process.pid, '1'), // the pid, reused by another process
      otherNamespaceYoung: runFolderName(1, '1', { ...here, pidNamespace: '1' }),
      otherNamespaceOld: runFolderName(1, '1', { ...here, pidNamespace: '1' }).replace(/-1$/, '-2'),
      notARun: 'notes',
    };
    for (const name of Object.values(names)) {
      fs.mkdirSync(path.join(base, name), { mode: 0o700 });
      fs.writeFileSync(path.join(base, name, '123'), '');
    }
    const old = new Date(Date.now() - DAY_MS - 60_000);
    fs.utimesSync(path.join(base, names.otherNamespaceOld, '123'), old, old);
    fs.utimesSync(path.join(base, names.otherNamespaceOld), old, old);
    // Untouched for long but for one file: young.
    fs.utimesSync(path.join(base, names.otherNamespaceYoung), old, old);
    return names;
  }

  test('another boot, a pid not running with that start time, another PID namespace untouched for a day: removed; the rest kept', () => {
    const base = folderIn('runs');
    const names = runs(base);
    new RunDeclarations(path.join(base, runFolderName(process.ppid, processStart(process.ppid)!)), 'a').record(POLICY, [
      add('user:m@example.com'),
    ]);
    expect(fs.readdirSync(base).sort()).toEqual(
      [names.live, names.otherNamespaceYoung, names.notARun, runFolderName(process.ppid, processStart(process.ppid)!)].sort(),
    );
  });

  test("another account's folders are left alone, and a removal that fails fails alone", () => {
    const base = folderIn('runs');
    const names = runs(base);
    if (isRoot) fs.chownSync(path.join(base, names.deadPid), 65534, 65534);
    else console.warn('not root: a folder owned by another account cannot be made here; the owner check is left untested');
    const rmSync = jest.spyOn(fs, 'rmSync').mockImplementation((folder) => {
      if (String(folder).endsWith(names.otherBoot)) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    });
    const run = new RunDeclarations(path.join(base, 'run-x-x-1-1'), 'a');
    expect(() => run.record(POLICY, [add('user:m@example.com')])).not.toThrow();
    expect(run.unavailable()).toBeUndefined(); // nothing lost: the next run tries again
    const tried = rmSync.mock.calls.map(([folder]) => path.basename(String(folder))).sort();
    expect(tried).toEqual([...(isRoot ? [] : [names.deadPid]), names.otherBoot, names.startedAgain, names.otherNamespaceOld].sort());
  });

  test('a process that finds the folder made by another process of the run removes nothing', () => {
    const base = folderIn('runs');
    const names = runs(base);
    const folder = folderIn('runs', runFolderName(process.ppid, processStart(process.ppid)!));
    new RunDeclarations(folder, 'b').record(POLICY, [add('user:m@example.com')]);
    expect(fs.readdirSync(base)).toHaveLength(Object.keys(names).length + 1);
  });
});

describe("the watcher: a run's folder is removed once terraform has ended", () => {
  /**
   * A stand-in for terraform: `sh`, leading a process group of its own (as a
   * shell's job), that starts a provider-like node process (the code of
   * run-declarations.ts, bundled) and then waits. Its stdout is piped here, as
   * terraform's providers' output is piped to terraform.
   */
  function terraformStandIn(work: string): { pid: number; printed: Promise<string>; closed: Promise<number> } {
    const script = path.join(root, 'provider.js');
    buildSync({
      stdin: {
        contents: [
          `import { RunDeclarations } from ${JSON.stringify(path.join(__dirname, '../../../../lib/provider/policies/run-declarations'))};`,
          'const run = RunDeclarations.ofThisRun(process.env, process.cwd());',
          `run.record('p', [{ kind: 'addMember', role: 'r', member: 'user:m@example.com' }]);`,
          'console.log(JSON.stringify({ folder: run.folder, warning: run.unavailable() }));',
        ].join('\n'),
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      platform: 'node',
      format: 'cjs',
      outfile: script,
      logLevel: 'warning',
    });
    const child = spawn('sh', ['-c', `"${process.execPath}" "${script}"; sleep 30`], {
      cwd: work,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    const printed = until(() => out.includes('\n'), 20_000).then(() => out);
    const closed = new Promise<number>((resolve) => child.stdout.on('close', () => resolve(Date.now())));
    return { pid: child.pid!, printed, closed };
  }

  /** Fields of /proc/<pid>/stat after the command name: [0] state, [1] ppid, [2] process group, [3] session. */
  const statOf = (pid: number) => {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  };

  /** The pids of the watchers of `folder` (their command line names it), but a fork of one on its way to `sleep`. */
  function watchersOf(folder: string): number[] {
    const watchers = fs
      .readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          return args.includes('googleiam-run-watcher') && args.includes(folder);
        } catch {
          return false;
        }
      })
      .map(Number);
    return watchers.filter((pid) => {
      try {
        return !watchers.includes(Number(statOf(pid)[1]));
      } catch {
        return false; // gone
      }
    });
  }

  const sessionOf = (pid: number) => Number(statOf(pid)[3]);
  const groupOf = (pid: number) => Number(statOf(pid)[2]);

  /** Stand-ins still running after a test that failed. */
  const started: number[] = [];
  afterEach(() => {
    for (const pid of started.splice(0)) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // ended
      }
    }
  });

  test('in a session of its own (Ctrl-C to terraform spares it), holding none of its output, it removes the folder when terraform ends', async () => {
    const work = folderIn('work');
    fs.mkdirSync(path.join(work, '.terraform'));
    const terraform = terraformStandIn(work);
    started.push(terraform.pid);
    const { folder, warning } = JSON.parse(await terraform.printed) as { folder: string; warning?: unknown };
    expect(warning).toBeUndefined();
    expect(path.basename(folder)).toBe(runFolderName(terraform.pid, processStart(terraform.pid)!));
    expect(fs.existsSync(folder)).toBe(true);
    const [watcher, ...more] = watchersOf(folder);
    expect(more).toEqual([]);
    expect(sessionOf(watcher)).toBe(watcher);
    expect(groupOf(watcher)).not.toBe(groupOf(terraform.pid));
    await sleep(1_500); // the watcher keeps the folder while terraform runs
    expect(fs.existsSync(folder)).toBe(true);
    // Ctrl-C: SIGINT to terraform's process group.
    const interrupted = Date.now();
    process.kill(-terraform.pid, 'SIGINT');
    // Its output closes at once: the watcher does not hold it (terraform would wait for it).
    expect((await terraform.closed) - interrupted).toBeLessThan(1_000);
    await until(() => !fs.existsSync(folder), 5_000);
    expect(Date.now() - interrupted).toBeLessThan(3_000);
    await until(() => watchersOf(folder).length === 0, 2_000);
  });
});
