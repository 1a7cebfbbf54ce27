import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { RUNNER_ENV } from '../contract/runner-env';

/**
 * The runner's private folder: per-policy locks and queues, run markers and
 * the V8 code cache. Everything in it steers what the runner sends to Google
 * with the deployer's credentials, or (the code cache) what it executes, so
 * it must be writable by the deploying user alone.
 *
 * The folder is per user (`$CDKTF_GOOGLE_IAM_STATE_DIR`, else
 * `$XDG_RUNTIME_DIR/cdktf-google-iam`, else `~/.cache/cdktf-google-iam/runner`, else
 * `$TMPDIR/cdktf-google-iam-<uid>`), created with mode 0700, and every folder
 * the runner uses in it is checked on every run: a real directory (not a
 * symlink), owned by this user, with no access for group or others; files
 * in it are opened without following symlinks and must be this user's and
 * not writable by others.
 * On Windows (no POSIX owners or modes) only the symlink check applies.
 */
export class StateDir {
  /**
   * Opens (creating it if needed) the state folder the environment names.
   * Where a default folder cannot be created (a read-only or missing home),
   * the next default is used, down to the private one in the temp dir; a
   * folder that exists but is not private is refused, never passed over.
   */
  public static open(env: NodeJS.ProcessEnv = process.env): StateDir {
    const candidates = StateDir.candidates(env);
    const failures: string[] = [];
    for (const root of candidates) {
      try {
        fs.mkdirSync(path.dirname(root), { recursive: true });
        return new StateDir(ensurePrivateDir(root));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (error instanceof StateDirError || code === undefined) throw error;
        failures.push(`${root}: ${code}`);
      }
    }
    throw new StateDirError(candidates.length === 1 ? candidates[0] : candidates.join(', '), `cannot be created (${failures.join('; ')})`);
  }

  /** Where the state folder is for this environment (nothing is created): the first of the candidates. */
  public static rootFor(env: NodeJS.ProcessEnv): string {
    return StateDir.candidates(env)[0];
  }

  /**
   * `$CDKTF_GOOGLE_IAM_STATE_DIR` alone when set; else `$XDG_RUNTIME_DIR/cdktf-google-iam`,
   * `${XDG_CACHE_HOME:-~/.cache}/cdktf-google-iam/runner` and `$TMPDIR/cdktf-google-iam-<uid>`, in
   * this order. The runner's folder is one it creates itself (`runner`), so another tool's use of
   * `~/.cache/cdktf-google-iam` (e.g. a CI cache made with mode 755) cannot make it unusable.
   */
  private static candidates(env: NodeJS.ProcessEnv): string[] {
    const explicit = env[RUNNER_ENV.stateDir]?.trim();
    if (explicit) return [path.resolve(explicit)];
    const candidates: string[] = [];
    if (env.XDG_RUNTIME_DIR?.trim()) candidates.push(path.join(env.XDG_RUNTIME_DIR.trim(), 'cdktf-google-iam'));
    const cache = env.XDG_CACHE_HOME?.trim() || homeCache(env);
    if (cache) candidates.push(path.join(cache, 'cdktf-google-iam', 'runner'));
    candidates.push(path.join(env.TMPDIR?.trim() || os.tmpdir(), `cdktf-google-iam-${process.getuid?.() ?? 'user'}`));
    return candidates;
  }

  private constructor(public readonly root: string) {}

  /** A private sub-folder (created if needed, checked either way). */
  public dir(...parts: string[]): string {
    let current = this.root;
    for (const part of parts) current = ensurePrivateDir(path.join(current, part));
    return current;
  }

  /**
   * Writes `data` to `file` atomically: into a new temp file with a random
   * name, opened exclusively with mode 0600 (so nothing planted at a
   * predictable name is followed), then renamed over `file`.
   */
  public writeFile(file: string, data: string | Uint8Array): void {
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
    const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | noFollow(), 0o600);
    try {
      fs.writeFileSync(fd, data);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  }

  /** Creates `file` only if it does not exist (mode 0600); false when it existed. */
  public createFile(file: string, data: string): boolean {
    let fd: number;
    try {
      fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | noFollow(), 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    try {
      fs.writeFileSync(fd, data);
    } finally {
      fs.closeSync(fd);
    }
    return true;
  }

  /** Reads a regular file written by this user; undefined when it does not exist. Refuses symlinks and foreign files. */
  public readFile(file: string): Buffer | undefined {
    let fd: number;
    try {
      fd = fs.openSync(file, fs.constants.O_RDONLY | noFollow());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      if (code === 'ELOOP') throw new StateDirError(file, 'is a symbolic link');
      throw error;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) throw new StateDirError(file, 'is not a regular file');
      checkOwnerAndMode(file, stat, 0o022);
      return fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
}

/** The state folder (or something in it) is not private to this user. */
export class StateDirError extends Error {
  constructor(
    public readonly file: string,
    reason: string,
  ) {
    super(
      `refusing to use ${file}: it ${reason}. The runner keeps its locks, queues and code cache there and trusts ` +
        `their content, so the folder must be owned by you with mode 0700. Remove it, or set ${RUNNER_ENV.stateDir} to a folder only you can write.`,
    );
    this.name = 'StateDirError';
  }
}

function ensurePrivateDir(dir: string): string {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = fs.lstatSync(dir);
  if (stat.isSymbolicLink()) throw new StateDirError(dir, 'is a symbolic link');
  if (!stat.isDirectory()) throw new StateDirError(dir, 'is not a directory');
  checkOwnerAndMode(dir, stat, 0o077);
  return dir;
}

/** Folders must be closed to group and others (0o077); files, not writable by them (0o022). */
function checkOwnerAndMode(file: string, stat: fs.Stats, forbidden: number): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  if (stat.uid !== uid) throw new StateDirError(file, `is owned by uid ${stat.uid}, not by you (uid ${uid})`);
  if ((stat.mode & forbidden) !== 0) throw new StateDirError(file, `has mode ${(stat.mode & 0o777).toString(8)}, which lets others in`);
}

function homeCache(env: NodeJS.ProcessEnv): string | undefined {
  try {
    const home = env.HOME?.trim() || os.homedir();
    return home ? path.join(home, '.cache') : undefined;
  } catch {
    return undefined;
  }
}

/** O_NOFOLLOW where the platform has it (not on Windows). */
function noFollow(): number {
  return fs.constants.O_NOFOLLOW ?? 0;
}
