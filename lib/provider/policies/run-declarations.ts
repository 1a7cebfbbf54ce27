import { execFileSync, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { declaredEdits, parseRunDeclaration, serializeRunDeclaration, type RunDeclaration } from '../../contract/run-declaration';
import type { GrantClaims } from '../../iam/grant-claims';
import type { PolicyEdit } from '../../iam/policy-edit';

/**
 * What the other provider processes of one `terraform` run declare. Terraform
 * starts one provider process per provider configuration (an alias is
 * another), all children of the one terraform process, so a grant moved from
 * one alias to another on the same policy is a create in one process and a
 * delete in another: the delete must spare what the create declares, in
 * whichever order they come (declared-grants.ts does it within a process).
 *
 * Each process appends the grants of every batch to a file of its own in a
 * folder of the run, before it writes them; a cycle reads the others' files
 * after it has read the policy. So a grant that was in the policy read had
 * been recorded before, and one written after that read makes the cycle's
 * write fail on its etag and read again. The plans record too: in `terraform
 * apply`, the plan walk's processes plan every resource of the configuration
 * before the apply walk's processes start, so what the configuration declares
 * is known before anything is removed, whatever order the removals come in
 * (no gap, not only nothing lost). `terraform destroy` plans the whole
 * configuration in a first walk, then every resource for destruction in a
 * walk of its own: what the first walk declared no longer stands once a
 * destroy walk has started (`destroying`). What a process recorded stays for
 * the rest of the run (a provider process can end before another's removal).
 *
 * Where the folder is (`runsFolder`): never where another account could
 * make, read or remove it (a folder of declared grants spares removals). It
 * is named by terraform's pid and start time, and by the boot and PID
 * namespace those mean something in (`runFolderName`). The process that makes
 * it starts a watcher that removes it once terraform has ended (`terraform
 * plan` included), and removes the folders of ended runs the watchers missed
 * (best-effort: `removeEndedRuns`). When no folder can be used, the process
 * works on its own, and the first plan says so once (`unavailable`): nothing
 * here ever fails a plan or an apply.
 */
export class RunDeclarations {
  /**
   * This run's, in the first usable of the folders `runsFolder` tries from
   * `cwd` (terraform starts providers in its working directory). On its own
   * (`unavailable` says why) where none is, or terraform's start time cannot
   * be known (a pid alone may be reused).
   */
  public static ofThisRun(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): RunDeclarations {
    const self = String(process.pid);
    const terraform = process.ppid;
    const started = processStart(terraform);
    if (started === undefined) {
      return new RunDeclarations(undefined, self, undefined, {
        problem: `cannot tell when terraform (pid ${terraform}) started: neither /proc nor ps answers`,
      });
    }
    const runs = runsFolder(env, cwd);
    if (runs.folder === undefined) {
      return new RunDeclarations(undefined, self, undefined, { problem: `no folder for it can be used (${runs.tried.join('; ')})` });
    }
    return new RunDeclarations(path.join(runs.folder, runFolderName(terraform, started)), self, undefined, { watch: terraform });
  }

  /** What was read of each process's file. */
  private readonly read = new Map<string, FileRead>();
  private created = false;
  /** The folder was found to be this user's own (false: it is not, so it is not used). */
  private owned: boolean | undefined;
  private ended = false;
  private destroyingNoted = false;
  /** Why this process is on its own, if it is; `unavailable` tells it once. */
  private problem: string | undefined;
  private told = false;

  constructor(
    /** The run's folder; undefined: none can be used (`options.problem` says why), and the process is on its own. */
    public readonly folder: string | undefined,
    /** This process's file name in it. */
    private readonly self: string,
    /** When this process started (ms since the epoch). */
    private readonly startedAt: number = Math.round(performance.timeOrigin),
    private readonly options: RunDeclarationsOptions = {},
  ) {
    this.problem = options.problem;
  }

  /** Records that the configuration declares `edits`' grants on `policy` (its identity key): planned, or about to be written. */
  public record(policy: string, edits: readonly PolicyEdit[]): void {
    const grants = declaredEdits(edits);
    if (grants.length > 0) this.append({ kind: 'grants', policy, grants });
  }

  /**
   * Records that this process plans the destruction of a resource. In
   * `terraform destroy`, the processes of the destroy walk start after
   * those of the walk that first planned the whole configuration have ended:
   * what those declared no longer stands. (In `terraform apply`, the resources
   * deleted from the configuration are planned in the same walk as the rest,
   * whose processes have not ended.)
   */
  public destroying(): void {
    if (this.destroyingNoted) return;
    this.destroyingNoted = true;
    this.append({ kind: 'destroying', since: this.startedAt });
  }

  /**
   * The grants the run's other processes declared on `policy` so far, but for
   * those of processes that ended before a destroy walk started. None where
   * the folder cannot be read (what was read before still counts).
   */
  public others(policy: string): PolicyEdit[] {
    const reads = this.catchUpAll();
    const destroyWalkStarted = Math.max(-Infinity, ...reads.flatMap(({ read }) => read.destroyingSince));
    return reads
      .filter(({ file, read }) => file !== this.self && !(read.endedAt !== undefined && read.endedAt <= destroyWalkStarted))
      .flatMap(({ read }) => read.byPolicy.get(policy) ?? []);
  }

  /** What every process's file of the run (this one's included) holds so far; nothing where the folder cannot be read. */
  private catchUpAll(): { readonly file: string; readonly read: FileRead }[] {
    const folder = this.folder;
    if (folder === undefined || !this.isOwn()) return [];
    let files: string[];
    try {
      files = fs.readdirSync(folder);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') this.aloneBecause(`the run's folder ${folder} cannot be read (${describe(error)})`);
      return []; // ENOENT: no process of this run has written anything yet (what was read before still counts)
    }
    return files.map((file) => ({ file, read: this.catchUp(folder, file) }));
  }

  /**
   * Records what a grant of the configuration claims on `policy` (lib/iam
   * grant-claims.ts), for the others' plans: the static validation records
   * every grant whose values it knows before any is planned.
   */
  public claim(policy: string, claims: GrantClaims, who: { readonly label: string; readonly key: string }, staticWalk = false): void {
    this.append({ kind: 'claims', policy, label: who.label, key: who.key, claims, ...(staticWalk ? { static: true as const } : {}) });
  }

  /** The policies (identity keys, as the names were written) on which the run's other processes recorded claims so far. */
  public claimedPolicies(): string[] {
    const others = this.catchUpAll().filter(({ file }) => file !== this.self);
    return [...new Set(others.flatMap(({ read }) => [...read.claimsByPolicy.keys()]))];
  }

  /** The claims on `policy` the run's other processes recorded since the last call (each is returned once). */
  public claimsSince(policy: string): RecordedClaims[] {
    return this.catchUpAll()
      .filter(({ file }) => file !== this.self)
      .flatMap(({ read }) => {
        const all = read.claimsByPolicy.get(policy) ?? [];
        const taken = read.claimsTaken.get(policy) ?? 0;
        read.claimsTaken.set(policy, all.length);
        return all.slice(taken);
      });
  }

  /**
   * Why this process works on its own (no folder of the run could be made,
   * used or written), as the warning a plan gives: what is at risk, and what
   * to set. Once: undefined after that, and while all is well.
   */
  public unavailable(): { readonly summary: string; readonly detail: string } | undefined {
    if (this.problem === undefined || this.told) return undefined;
    this.told = true;
    return {
      summary: 'The googleiam provider processes of this terraform run cannot share what they declare',
      detail:
        'Each googleiam provider process of a terraform run records the grants the configuration declares in a folder of the run, ' +
        `so that a removal in another process spares them; ${this.problem}. This process works on its own: in this run, ` +
        'a grant moved between two provider configurations (aliases) of one policy may be revoked, and a grant moved between ' +
        'resources may be revoked and granted again, with a moment without access. Set CDKTF_GOOGLE_IAM_RUN_DIR to a folder ' +
        'only you can write (or TMPDIR to a temp dir you can write).',
    };
  }

  private append(declaration: RunDeclaration): void {
    if (this.folder === undefined || !this.make(this.folder)) return;
    this.write(this.folder, declaration);
  }

  /** Makes the run's folder (once), or finds it made by another process of the run; false if it cannot be used. */
  private make(folder: string): boolean {
    if (this.created) return true;
    if (this.owned === false) return false;
    let made = false;
    try {
      fs.mkdirSync(folder, { mode: 0o700 });
      made = true;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') {
        this.aloneBecause(`the run's folder ${folder} cannot be made (${describe(error)})`);
        this.owned = false;
        return false;
      }
    }
    if (!this.isOwn()) return false;
    this.created = true;
    if (made) {
      // The first process of the run: one watcher for the run, and what ended runs left is removed.
      if (this.options.watch !== undefined) watchRun(this.options.watch, folder);
      removeEndedRuns(path.dirname(folder), path.basename(folder));
    }
    // Terraform ends each walk's processes (Shutdown) before it starts the next walk's.
    if (unended.size === 0) process.once('exit', () => unended.forEach((run) => run.end()));
    unended.add(this);
    return true;
  }

  /** Whether the folder is this user's own (checked once it exists): one someone else made could declare grants that spare removals. */
  private isOwn(): boolean {
    if (this.owned !== undefined) return this.owned;
    const problem = notOwnFolder(this.folder!);
    if (problem === 'missing') return true; // nothing written yet: nothing to read
    this.owned = problem === undefined;
    if (problem !== undefined) this.aloneBecause(`the run's folder ${this.folder} is ${problem}`);
    return this.owned;
  }

  /** Records that this process has ended (when it exits). */
  public end(): void {
    if (this.created && !this.ended && this.folder !== undefined) this.write(this.folder, { kind: 'ended', at: Date.now() });
    this.ended = true;
    unended.delete(this);
  }

  private write(folder: string, declaration: RunDeclaration): void {
    if (this.ended) return;
    try {
      fs.appendFileSync(path.join(folder, this.self), `${serializeRunDeclaration(declaration)}\n`, { mode: 0o600 });
    } catch (error) {
      // The others may now miss what this process declares: it is on its own (it still reads theirs).
      this.aloneBecause(`the run's folder ${folder} cannot be written (${describe(error)})`);
    }
  }

  /** From now on the others may miss what this process declares, or it theirs: `unavailable` says why (the first cause). */
  private aloneBecause(problem: string): void {
    this.problem ??= problem;
  }

  /**
   * Reads what `file` gained since the last time (whole lines only: another
   * process may be appending); what was read before if it cannot be read. A
   * line that is not a declaration throws.
   */
  private catchUp(folder: string, file: string): FileRead {
    let known = this.read.get(file);
    if (!known) {
      known = { offset: 0, tail: '', byPolicy: new Map(), destroyingSince: [], claimsByPolicy: new Map(), claimsTaken: new Map() };
      this.read.set(file, known);
    }
    let chunk: Buffer;
    try {
      const fd = fs.openSync(path.join(folder, file), 'r');
      try {
        const size = fs.fstatSync(fd).size;
        if (size <= known.offset) return known;
        chunk = Buffer.alloc(size - known.offset);
        fs.readSync(fd, chunk, 0, chunk.length, known.offset);
        known.offset = size;
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      this.aloneBecause(`the run's folder ${folder} cannot be read (${describe(error)})`);
      return known;
    }
    const lines = (known.tail + chunk.toString('utf8')).split('\n');
    known.tail = lines.pop() ?? '';
    for (const line of lines) {
      if (!line) continue;
      const declaration = parseRunDeclaration(line);
      if (declaration.kind === 'destroying') known.destroyingSince.push(declaration.since);
      else if (declaration.kind === 'ended') known.endedAt = declaration.at;
      else if (declaration.kind === 'claims') {
        const list = known.claimsByPolicy.get(declaration.policy) ?? [];
        list.push({ label: declaration.label, key: declaration.key, claims: declaration.claims, static: declaration.static === true });
        known.claimsByPolicy.set(declaration.policy, list);
      } else if (declaration.kind === 'grants') {
        const list = known.byPolicy.get(declaration.policy) ?? [];
        list.push(...declaration.grants);
        known.byPolicy.set(declaration.policy, list);
      }
    }
    return known;
  }
}

/** How a RunDeclarations keeps its folder. */
export interface RunDeclarationsOptions {
  /** Terraform's pid: the process that makes the folder starts a watcher that removes it once that process has ended. @default - no watcher */
  readonly watch?: number;
  /** Why there is no folder (`folder` undefined), for `unavailable`. */
  readonly problem?: string;
}

/** What has been read of one process's file. */
interface FileRead {
  offset: number;
  /** A line not yet whole. */
  tail: string;
  readonly byPolicy: Map<string, PolicyEdit[]>;
  /** When the process started, if it planned a destruction. */
  readonly destroyingSince: number[];
  endedAt?: number;
  /** What the process's grants claim, by policy (`claim`). */
  readonly claimsByPolicy: Map<string, RecordedClaims[]>;
  /** How many of each policy's claims `claimsSince` has returned. */
  readonly claimsTaken: Map<string, number>;
}

/** What a grant of another process claims (`claim`); `static`: recorded by the static validation. */
export interface RecordedClaims {
  readonly label: string;
  readonly key: string;
  readonly claims: GrantClaims;
  readonly static: boolean;
}

/** The instances that have written and not yet ended: each writes its end when the process exits. */
const unended = new Set<RunDeclarations>();

/**
 * The folder this user's run folders are kept in, and what was wrong with
 * each tried before it (`tried`, for the warning when none can be used):
 * - `CDKTF_GOOGLE_IAM_RUN_DIR`, when set (alone: the user chose it);
 * - else `<TF_DATA_DIR, default .terraform>/googleiam-runs` under `cwd`, when
 *   that data dir is there and writable: `terraform init` made it in the
 *   working directory, which no other account writes in;
 * - else `$XDG_RUNTIME_DIR/terraform-provider-googleiam` (the user's own by
 *   definition), else `terraform-provider-googleiam-<uid>` in the temp dir.
 * Each is made mode 0700 and used only if it is this user's alone: in a
 * shared temp dir (`/tmp`), another account may have made one of that name.
 */
export function runsFolder(env: NodeJS.ProcessEnv, cwd: string): { readonly folder?: string; readonly tried: readonly string[] } {
  const tried: string[] = [];
  const usable = (folder: string, parentMustExist: boolean): boolean => {
    const problem = ownFolder(folder, parentMustExist);
    if (problem !== undefined) tried.push(`${folder}: ${problem}`);
    return problem === undefined;
  };
  if (env.CDKTF_GOOGLE_IAM_RUN_DIR) {
    const folder = path.resolve(cwd, env.CDKTF_GOOGLE_IAM_RUN_DIR);
    return usable(folder, false) ? { folder, tried } : { tried };
  }
  const candidates: string[] = [];
  const dataDir = path.resolve(cwd, env.TF_DATA_DIR || '.terraform');
  const dataDirProblem = notWritable(dataDir);
  if (dataDirProblem === undefined) candidates.push(path.join(dataDir, 'googleiam-runs'));
  else tried.push(`${dataDir}: ${dataDirProblem}`);
  const uid = process.getuid?.();
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && path.isAbsolute(xdg)) {
    const owner = statOrUndefined(xdg)?.uid;
    // Another account's, left in the environment (`sudo` keeps it): not this user's to write in.
    if (uid !== undefined && owner !== undefined && owner !== uid) tried.push(`${xdg}: not this user's (owner ${owner})`);
    else candidates.push(path.join(xdg, 'terraform-provider-googleiam'));
  }
  const tmp = path.resolve(cwd, env.TMPDIR || os.tmpdir());
  candidates.push(path.join(tmp, `terraform-provider-googleiam-${uid ?? os.userInfo().username}`));
  return { folder: candidates.find((folder) => usable(folder, true)), tried };
}

/** Makes `folder` (mode 0700) if it is not there; what makes it unusable (not this user's alone), or undefined. */
function ownFolder(folder: string, parentMustExist: boolean): string | undefined {
  try {
    fs.mkdirSync(folder, { mode: 0o700, recursive: !parentMustExist });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') return describe(error);
  }
  const problem = notOwnFolder(folder);
  return problem === 'missing' ? 'gone as soon as made' : (problem ?? notWritable(folder));
}

/**
 * Why `folder` is not this user's alone: a link (it could point anywhere),
 * not a folder, another account's, or open to others (mode bits for group or
 * other). `missing` if it is not there; undefined if it is this user's own.
 */
function notOwnFolder(folder: string): string | 'missing' | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(folder);
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? 'missing' : describe(error);
  }
  const uid = process.getuid?.();
  const mode = (stat.mode & 0o7777).toString(8);
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) {
    return `not this user's own folder (${stat.isSymbolicLink() ? 'a link' : stat.isDirectory() ? 'a folder' : 'not a folder'}, owner ${stat.uid}, mode ${mode})`;
  }
  return undefined;
}

function notWritable(folder: string): string | undefined {
  try {
    fs.accessSync(folder, fs.constants.W_OK | fs.constants.X_OK);
    return fs.statSync(folder).isDirectory() ? undefined : 'not a folder';
  } catch (error) {
    return errorCode(error) === 'ENOENT' ? 'not there' : describe(error);
  }
}

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

/** The boot and PID namespace this process runs in: a pid names a process only within both. */
export interface ProcessSpace {
  /** /proc/sys/kernel/random/boot_id without its dashes; `x` where unknown (no /proc). */
  readonly boot: string;
  /** The inode number of /proc/self/ns/pid; `x` where unknown. */
  readonly pidNamespace: string;
}

let thisSpace: ProcessSpace | undefined;

/** This process's boot and PID namespace. */
export function processSpace(): ProcessSpace {
  if (!thisSpace) {
    let boot = 'x';
    let pidNamespace = 'x';
    try {
      const id = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replace(/-/g, '');
      if (/^[0-9a-f]{32}$/.test(id)) boot = id;
    } catch {
      // not Linux
    }
    try {
      pidNamespace = /^pid:\[(\d+)\]$/.exec(fs.readlinkSync('/proc/self/ns/pid'))?.[1] ?? 'x';
    } catch {
      // not Linux, or /proc/self/ns hidden
    }
    thisSpace = { boot, pidNamespace };
  }
  return thisSpace;
}

/** `run-<boot>-<PID namespace>-<terraform's pid>-<its start time>`: what tells whether the run has ended. */
export function runFolderName(pid: number, started: string, space: ProcessSpace = processSpace()): string {
  return `run-${space.boot}-${space.pidNamespace}-${pid}-${started}`;
}

const RUN_FOLDER_NAME = /^run-([0-9a-f]{32}|x)-(\d+|x)-(\d+)-([A-Za-z0-9]+)$/;

/** How long a folder of a run in another PID namespace (a container sharing the folder) is kept untouched. */
const OTHER_NAMESPACE_KEPT_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the run folders in `dir` (but `own`) whose run has ended, of this
 * user's only. Best-effort: anything that fails is left for the next run.
 */
function removeEndedRuns(dir: string, own: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const run = RUN_FOLDER_NAME.exec(name);
    if (!run || name === own) continue;
    const folder = path.join(dir, name);
    try {
      const stat = fs.lstatSync(folder);
      if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) continue; // not one of this user's runs
      const [, boot, pidNamespace, pid, started] = run;
      if (runEnded({ boot, pidNamespace }, Number(pid), started, () => lastTouched(folder, stat))) {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    } catch {
      // Left for the next run.
    }
  }
}

/**
 * Whether the run of terraform `pid`, started at `started` in `space`, has
 * ended: of another boot, yes; of this boot and PID namespace, if that pid
 * is not running with that start time; of another PID namespace (a container
 * sharing the folder), where its pid tells nothing, once its folder has been
 * untouched for a day.
 */
function runEnded(space: ProcessSpace, pid: number, started: string, touched: () => number): boolean {
  const here = processSpace();
  if (space.boot !== 'x' && here.boot !== 'x' && space.boot !== here.boot) return true;
  if (space.boot === here.boot && space.pidNamespace === here.pidNamespace) return processStart(pid) !== started;
  return Date.now() - touched() > OTHER_NAMESPACE_KEPT_MS;
}

/** When `folder` or a file in it last changed (appends change the file, not the folder). */
function lastTouched(folder: string, stat: fs.Stats): number {
  let latest = stat.mtimeMs;
  for (const file of fs.readdirSync(folder)) latest = Math.max(latest, fs.lstatSync(path.join(folder, file)).mtimeMs);
  return latest;
}

/**
 * The watcher's `sh` script ($1 terraform's pid, $2 the run's folder): waits
 * for terraform to end, then removes the folder. It gives up after a day,
 * leaving the folder (terraform may still be running) to the next run's
 * removal of ended runs.
 */
const WATCHER = 'n=0; while kill -0 "$1" 2>/dev/null; do [ "$n" -ge 86400 ] && exit 0; n=$((n+1)); sleep 1; done; rm -rf "$2"';

/**
 * Starts the watcher that removes `folder` once process `pid` has ended. It
 * is detached: a session of its own, so that Ctrl-C (SIGINT to terraform's
 * process group) or a closed terminal does not end it; its stdio is
 * /dev/null, since terraform waits for its providers' output to close; and
 * unref'd, so that this process does not wait for it. A watcher that cannot
 * start is no matter: the next run removes the folder.
 */
function watchRun(pid: number, folder: string): void {
  try {
    const child = spawn('sh', ['-c', WATCHER, 'googleiam-run-watcher', String(pid), folder], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // As above.
  }
}

/** The start time of process `pid`, as the system tells it (Linux: /proc; macOS and BSD: ps); undefined if it cannot. */
export function processStart(pid: number): string | undefined {
  try {
    // Field 22 of /proc/<pid>/stat, after the command name in parentheses (which may hold spaces).
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    if (fs.existsSync('/proc/self/stat')) return undefined; // /proc answers: not running (ps would say the same, slower)
    try {
      const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 5_000 }).trim();
      return started ? started.replace(/[^A-Za-z0-9]+/g, '') : undefined;
    } catch {
      return undefined;
    }
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** An error's message, without the path Node.js ends a file error with (the folder is named before it). */
function describe(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message.replace(/ '[^']*'$/, '') : String(error);
}
