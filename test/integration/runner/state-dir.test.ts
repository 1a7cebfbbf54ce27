/**
 * The runner's state folder steers what it sends to Google with the
 * deployer's credentials (queues, results, run markers) and what it runs
 * (the code cache), so it must be private to the deploying user. The
 * two-user tests run where the suite may switch users (as root, as on CI);
 * elsewhere they are skipped with the reason printed.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { StateDir, StateDirError } from '../../../lib/runner/state-dir';

const OTHER_USER = 'cdktf-iam-other';

function tempDir(mode = 0o700): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'state-dir-'));
  fs.chmodSync(dir, mode);
  return dir;
}

const open = (dir: string) => StateDir.open({ CDKTF_GOOGLE_IAM_STATE_DIR: dir });

describe('the folder chain', () => {
  test('a private folder is used; sub-folders are created 0700 and files 0600, through random temp names', () => {
    const state = open(tempDir());
    const queue = state.dir('queues', 'abc', 'queue');
    expect(fs.statSync(queue).mode & 0o777).toBe(0o700);
    state.writeFile(path.join(queue, 'entry.json'), '{}');
    expect(fs.readdirSync(queue)).toEqual(['entry.json']);
    expect(fs.statSync(path.join(queue, 'entry.json')).mode & 0o777).toBe(0o600);
    expect(state.readFile(path.join(queue, 'entry.json'))?.toString()).toBe('{}');
  });

  test('the default folder is per user, never shared by the users of a machine', () => {
    const home = StateDir.rootFor({ HOME: '/home/dev' });
    expect(home).toBe(path.join('/home/dev', '.cache', 'cdktf-google-iam', 'runner'));
    expect(StateDir.rootFor({ XDG_RUNTIME_DIR: '/run/user/1000' })).toBe('/run/user/1000/cdktf-google-iam');
    expect(StateDir.rootFor({ CDKTF_GOOGLE_IAM_STATE_DIR: 'relative/dir' })).toBe(path.resolve('relative/dir'));
  });

  test('a home that cannot hold the folder (read-only, missing, not a folder) falls back to a private folder in the temp dir', () => {
    const tmp = tempDir();
    const notAFolder = path.join(tmp, 'home-is-a-file');
    fs.writeFileSync(notAFolder, '');
    try {
      const state = StateDir.open({ HOME: notAFolder, TMPDIR: tmp });
      expect(state.root).toBe(path.join(tmp, `cdktf-google-iam-${process.getuid?.()}`));
      expect(fs.statSync(state.root).mode & 0o777).toBe(0o700);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('a CDKTF_GOOGLE_IAM_STATE_DIR that cannot be created fails naming the variable', () => {
    const tmp = tempDir();
    const file = path.join(tmp, 'file');
    fs.writeFileSync(file, '');
    try {
      expect(() => open(path.join(file, 'state'))).toThrow(
        /refusing to use .*file\/state: it cannot be created \(.*: E[A-Z]+\).*set CDKTF_GOOGLE_IAM_STATE_DIR to a folder only you can write/,
      );
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test('a CI cache in ~/.cache/cdktf-google-iam (mode 755, as .ci/run used to make it) does not stop the runner: its folder is one it creates itself', () => {
    const home = tempDir();
    try {
      fs.mkdirSync(path.join(home, '.cache', 'cdktf-google-iam', 'node'), { recursive: true, mode: 0o755 });
      fs.chmodSync(path.join(home, '.cache', 'cdktf-google-iam'), 0o755);
      const state = StateDir.open({ HOME: home });
      expect(state.root).toBe(path.join(home, '.cache', 'cdktf-google-iam', 'runner'));
      expect(fs.statSync(state.root).mode & 0o777).toBe(0o700);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  test.each([
    [
      'a symbolic link',
      (dir: string) => {
        const real = tempDir();
        fs.rmSync(dir, { recursive: true });
        fs.symlinkSync(real, dir);
      },
      /is a symbolic link/,
    ],
    ['open to others (0755)', (dir: string) => fs.chmodSync(dir, 0o755), /has mode 755, which lets others in/],
    [
      'not a directory',
      (dir: string) => {
        fs.rmSync(dir, { recursive: true });
        fs.writeFileSync(dir, '');
      },
      /is not a directory/,
    ],
  ])('a state folder that is %s is refused with a message that says what to do', (_label, spoil, reason) => {
    const dir = tempDir();
    spoil(dir);
    expect(() => open(dir)).toThrow(StateDirError);
    expect(() => open(dir)).toThrow(reason);
    expect(() => open(dir)).toThrow(/set CDKTF_GOOGLE_IAM_STATE_DIR to a folder only you can write/);
  });

  test('a sub-folder replaced by a symlink is refused, and a file planted as a symlink is not followed', () => {
    const state = open(tempDir());
    const elsewhere = tempDir();
    fs.symlinkSync(elsewhere, path.join(state.root, 'queues'));
    expect(() => state.dir('queues', 'x')).toThrow(/queues: it is a symbolic link/);

    const target = path.join(elsewhere, 'target');
    fs.writeFileSync(target, 'secret');
    const planted = path.join(state.dir('runs'), 'marker');
    fs.symlinkSync(target, planted);
    expect(() => state.readFile(planted)).toThrow(/is a symbolic link/);
    expect(state.createFile(planted, 'x')).toBe(false); // O_EXCL: an existing name, link or not, is never opened
    expect(fs.readFileSync(target, 'utf8')).toBe('secret');
  });
});

const canSwitchUsers = process.getuid?.() === 0 && ensureOtherUser();
if (!canSwitchUsers) {
  console.log(
    `state-dir two-user tests skipped: they need root to create the user ${OTHER_USER} and run a process as it (uid ${process.getuid?.()})`,
  );
}
const twoUsers = canSwitchUsers ? describe : describe.skip;

twoUsers('with a second real OS user on the machine', () => {
  const other = () => {
    const uid = Number(execFileSync('id', ['-u', OTHER_USER]).toString().trim());
    const gid = Number(execFileSync('id', ['-g', OTHER_USER]).toString().trim());
    return { uid, gid };
  };
  // CI's Node lives under root's 0700 home, where the other user cannot run it: give that user a copy.
  let otherNode = process.execPath;
  let copyDir: string | undefined;
  beforeAll(() => {
    if (spawnSync(otherNode, ['--version'], { ...other() }).status === 0) return;
    copyDir = tempDir(0o755);
    otherNode = path.join(copyDir, 'node');
    fs.copyFileSync(process.execPath, otherNode);
    fs.chmodSync(otherNode, 0o755);
  });
  afterAll(() => copyDir && fs.rmSync(copyDir, { recursive: true, force: true }));
  const asOther = (script: string, cwd = os.tmpdir()) => {
    const result = spawnSync(otherNode, ['-e', script], { ...other(), cwd, encoding: 'utf8' });
    if (result.error) throw new Error(`could not run ${otherNode} as ${OTHER_USER}: ${result.error.message}`);
    return result;
  };

  test("the other user can neither read nor plant anything in the deployer's state folder", () => {
    const state = open(tempDir());
    const queue = state.dir('queues', 'abc', 'queue');
    const attempt = asOther(`require('fs').writeFileSync(${JSON.stringify(path.join(queue, 'x.json'))}, '{}')`);
    expect(attempt.status).not.toBe(0);
    expect(attempt.stderr).toMatch(/EACCES/);
    expect(asOther(`require('fs').readdirSync(${JSON.stringify(state.root)})`).stderr).toMatch(/EACCES/);
  });

  test('a state folder the other user made (e.g. a shared path under /tmp) is refused, naming its owner', () => {
    const shared = path.join(tempDir(0o777), 'shared-state');
    const made = asOther(`require('fs').mkdirSync(${JSON.stringify(shared)}, { mode: 0o700 })`);
    expect(made.status).toBe(0);
    expect(() => open(shared)).toThrow(new RegExp(`is owned by uid ${other().uid}, not by you`));
  });
});

function ensureOtherUser(): boolean {
  try {
    execFileSync('id', ['-u', OTHER_USER], { stdio: 'ignore' });
    return true;
  } catch {
    try {
      execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', OTHER_USER], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }
}
