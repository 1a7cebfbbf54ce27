/**
 * Finding and running the external program the way the real provider does
 * with Go's os/exec: exec.LookPath for the first element of `program`, then
 * exec.CommandContext(...).Output() without a shell, the query on stdin, and
 * errors worded as Go words them ("exit status 1", "signal: killed", ...),
 * since they reach the user inside the provider's diagnostics.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/** Where Go's exec.LookPath would find the program, or why it would not. */
export type LookPathResult =
  /** `path` is what Go's exec.Command would run (cmd.Path). */
  { readonly ok: true; readonly path: string } | { readonly ok: false; readonly error: string };

/**
 * Go's exec.LookPath on Unix: a name with a slash is checked as it is;
 * otherwise each $PATH entry is tried in order (an empty entry is "."). A
 * match in a relative entry is accepted, as the provider ignores exec.ErrDot.
 */
export function lookPath(file: string, envPath: string | undefined = process.env.PATH): LookPathResult {
  const quoted = `exec: ${JSON.stringify(file)}`;
  if (file.includes('/')) {
    const problem = findExecutable(file);
    return problem === undefined ? { ok: true, path: file } : { ok: false, error: `${quoted}: ${problem}` };
  }
  // Go's filepath.SplitList("") is empty: an empty PATH finds nothing.
  for (const dir of envPath ? envPath.split(path.delimiter) : []) {
    const candidate = path.join(dir === '' ? '.' : dir, file);
    if (findExecutable(candidate) === undefined) return { ok: true, path: candidate };
  }
  return { ok: false, error: `${quoted}: executable file not found in $PATH` };
}

/** Go's findExecutable: undefined when `file` is an executable regular file, else Go's error text. */
function findExecutable(file: string): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    return `stat ${file}: ${errnoText(e)}`;
  }
  if (stat.isDirectory()) return 'is a directory';
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return undefined;
  } catch (e) {
    return errnoText(e);
  }
}

/** How a program run ended. */
export interface ProgramRun {
  readonly stdout: Buffer;
  readonly stderr: string;
  /** Go's error from cmd.Output() ("exit status 2", "signal: killed", "chdir /x: ..."), if any. */
  readonly error?: string;
}

/** How to run the program. */
export interface RunOptions {
  /** The working directory; the provider's own when empty. */
  readonly cwd?: string;
  readonly stdin: string;
  /** Kills the program (SIGKILL, as Go's CommandContext does) when aborted. */
  readonly signal?: AbortSignal;
}

/** Runs `command` (a path from lookPath) with `args`, without a shell, and collects its output. */
export function runProgram(command: string, args: readonly string[], options: RunOptions): Promise<ProgramRun> {
  const cwd = options.cwd || undefined;
  // Go reports a bad directory as the child's failed chdir; Node's spawn error would name the program instead.
  const badDir = cwd === undefined ? undefined : checkDirectory(cwd);
  if (badDir !== undefined) return Promise.resolve({ stdout: Buffer.alloc(0), stderr: '', error: `chdir ${cwd}: ${badDir}` });
  if (options.signal?.aborted) return Promise.resolve({ stdout: Buffer.alloc(0), stderr: '', error: 'context canceled' });

  // A relative path without a slash ("prog" found through a "." PATH entry) must not be searched again.
  const file = command.includes('/') ? command : `./${command}`;
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let spawnError: string | undefined;
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    options.signal?.addEventListener('abort', kill, { once: true });
    child.stdout.on('data', (d: Buffer) => stdout.push(d));
    child.stderr.on('data', (d: Buffer) => stderr.push(d));
    // A program that exits without reading stdin closes the pipe; Go ignores that EPIPE too.
    child.stdin.on('error', () => undefined);
    child.on('error', (e) => {
      spawnError = `fork/exec ${command}: ${errnoText(e)}`;
    });
    child.on('close', (code, signal) => {
      options.signal?.removeEventListener('abort', kill);
      resolve({
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr).toString('utf8'),
        error: spawnError ?? exitError(code, signal),
      });
    });
    child.stdin.end(options.stdin);
  });
}

function checkDirectory(dir: string): string | undefined {
  try {
    return fs.statSync(dir).isDirectory() ? undefined : 'not a directory';
  } catch (e) {
    return errnoText(e);
  }
}

function exitError(code: number | null, signal: NodeJS.Signals | null): string | undefined {
  if (signal) return `signal: ${SIGNAL_TEXT[signal] ?? signal}`;
  return code === 0 || code === null ? undefined : `exit status ${code}`;
}

/** Go's syscall.Signal.String() for the signals a program usually dies of. */
const SIGNAL_TEXT: Partial<Record<NodeJS.Signals, string>> = {
  SIGABRT: 'aborted',
  SIGALRM: 'alarm clock',
  SIGBUS: 'bus error',
  SIGFPE: 'floating point exception',
  SIGHUP: 'hangup',
  SIGILL: 'illegal instruction',
  SIGINT: 'interrupt',
  SIGKILL: 'killed',
  SIGPIPE: 'broken pipe',
  SIGQUIT: 'quit',
  SIGSEGV: 'segmentation fault',
  SIGTERM: 'terminated',
  SIGUSR1: 'user defined signal 1',
  SIGUSR2: 'user defined signal 2',
};

/** Go's text for an errno (syscall.Errno.Error()), from a Node error's code. */
function errnoText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  return ERRNO_TEXT[code] ?? ((e as Error).message || String(e));
}

const ERRNO_TEXT: Record<string, string> = {
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  ENOENT: 'no such file or directory',
  ENOEXEC: 'exec format error',
  ENOTDIR: 'not a directory',
  EPERM: 'operation not permitted',
  ETXTBSY: 'text file busy',
};
