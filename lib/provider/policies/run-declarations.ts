import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { declaredEdits, parseRunDeclaration, serializeRunDeclaration, type RunDeclaration } from '../../contract/run-declaration';
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
 * the rest of the run (a provider process can end before another's removal);
 * the folder of a run whose terraform has ended is removed by the next run.
 */
export class RunDeclarations {
  /**
   * This run's: the folder is named by terraform's pid and start time (a pid
   * alone may be reused). Undefined where the start time cannot be known.
   */
  public static ofThisRun(): RunDeclarations | undefined {
    const ppid = process.ppid;
    const started = processStart(ppid);
    if (started === undefined) return undefined;
    return new RunDeclarations(path.join(os.tmpdir(), `${FOLDER_PREFIX}${ppid}-${started}`), String(process.pid));
  }

  /** What was read of each process's file. */
  private readonly read = new Map<string, FileRead>();
  private created = false;
  private ended = false;
  private destroyingNoted = false;

  constructor(
    /** The run's folder. */
    public readonly folder: string,
    /** This process's file name in it. */
    private readonly self: string,
    /** When this process started (ms since the epoch). */
    private readonly startedAt: number = Math.round(performance.timeOrigin),
  ) {}

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
   * those of processes that ended before a destroy walk started.
   */
  public others(policy: string): PolicyEdit[] {
    let files: string[];
    try {
      files = fs.readdirSync(this.folder);
    } catch {
      return []; // no process of this run has written anything yet
    }
    const reads = files.map((file) => ({ file, read: this.catchUp(file) }));
    const destroyWalkStarted = Math.max(-Infinity, ...reads.flatMap(({ read }) => read.destroyingSince));
    return reads
      .filter(({ file, read }) => file !== this.self && !(read.endedAt !== undefined && read.endedAt <= destroyWalkStarted))
      .flatMap(({ read }) => read.byPolicy.get(policy) ?? []);
  }

  private append(declaration: RunDeclaration): void {
    if (!this.created) {
      removeEndedRuns(path.dirname(this.folder));
      fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      // A folder someone else made (its name can be guessed) could declare grants that spare removals: refused.
      const { uid, mode } = fs.statSync(this.folder);
      if ((process.getuid && uid !== process.getuid()) || (mode & 0o077) !== 0) {
        throw new Error(`${this.folder} is not this user's own folder (owner ${uid}, mode ${(mode & 0o777).toString(8)})`);
      }
      this.created = true;
      // Terraform ends each walk's processes (Shutdown) before it starts the next walk's.
      if (unended.size === 0) process.once('exit', () => unended.forEach((run) => run.end()));
      unended.add(this);
    }
    this.write(declaration);
  }

  /** Records that this process has ended (when it exits). */
  public end(): void {
    if (this.created && !this.ended) this.write({ kind: 'ended', at: Date.now() });
    this.ended = true;
    unended.delete(this);
  }

  private write(declaration: RunDeclaration): void {
    fs.appendFileSync(path.join(this.folder, this.self), `${serializeRunDeclaration(declaration)}\n`, { mode: 0o600 });
  }

  /** Reads what `file` gained since the last time (whole lines only: another process may be appending). */
  private catchUp(file: string): FileRead {
    let known = this.read.get(file);
    if (!known) this.read.set(file, (known = { offset: 0, tail: '', byPolicy: new Map(), destroyingSince: [] }));
    const fd = fs.openSync(path.join(this.folder, file), 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= known.offset) return known;
      const chunk = Buffer.alloc(size - known.offset);
      fs.readSync(fd, chunk, 0, chunk.length, known.offset);
      known.offset = size;
      const lines = (known.tail + chunk.toString('utf8')).split('\n');
      known.tail = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        const declaration = parseRunDeclaration(line);
        if (declaration.kind === 'destroying') known.destroyingSince.push(declaration.since);
        else if (declaration.kind === 'ended') known.endedAt = declaration.at;
        else {
          const list = known.byPolicy.get(declaration.policy) ?? [];
          list.push(...declaration.grants);
          known.byPolicy.set(declaration.policy, list);
        }
      }
      return known;
    } finally {
      fs.closeSync(fd);
    }
  }
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
}

/** The instances that have written and not yet ended: each writes its end when the process exits. */
const unended = new Set<RunDeclarations>();

const FOLDER_PREFIX = 'terraform-provider-googleiam-run-';

/** The start time of process `pid`, as the system tells it (Linux: /proc; macOS and BSD: ps); undefined if it cannot. */
function processStart(pid: number): string | undefined {
  try {
    // Field 22 of /proc/<pid>/stat, after the command name in parentheses (which may hold spaces).
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    try {
      const started = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 5_000 }).trim();
      return started ? started.replace(/[^A-Za-z0-9]+/g, '') : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Removes the run folders in `dir` whose terraform process has ended. */
function removeEndedRuns(dir: string): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir).filter((name) => name.startsWith(FOLDER_PREFIX));
  } catch {
    return;
  }
  for (const name of entries) {
    const [pid, started] = name.slice(FOLDER_PREFIX.length).split('-');
    if (processStart(Number(pid)) === started) continue; // still running
    fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}
