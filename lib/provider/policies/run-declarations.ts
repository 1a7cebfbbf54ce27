import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { declaredEdits, parseRunDeclaration, serializeRunDeclaration } from '../../contract/run-declaration';
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
 * write fail on its etag and read again. What a process recorded stays for
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

  /** What was read of each other process's file: how far, and the grants by policy. */
  private readonly read = new Map<string, { offset: number; tail: string; byPolicy: Map<string, PolicyEdit[]> }>();
  private created = false;

  constructor(
    /** The run's folder. */
    public readonly folder: string,
    /** This process's file name in it. */
    private readonly self: string,
  ) {}

  /** Records that this process is about to write `edits`' grants to `policy` (its identity key). */
  public record(policy: string, edits: readonly PolicyEdit[]): void {
    const grants = declaredEdits(edits);
    if (grants.length === 0) return;
    if (!this.created) {
      removeEndedRuns(path.dirname(this.folder));
      fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
      // A folder someone else made (its name can be guessed) could declare grants that spare removals: refused.
      const { uid, mode } = fs.statSync(this.folder);
      if ((process.getuid && uid !== process.getuid()) || (mode & 0o077) !== 0) {
        throw new Error(`${this.folder} is not this user's own folder (owner ${uid}, mode ${(mode & 0o777).toString(8)})`);
      }
      this.created = true;
    }
    fs.appendFileSync(path.join(this.folder, this.self), `${serializeRunDeclaration({ policy, grants })}\n`, { mode: 0o600 });
  }

  /** The grants the run's other processes declared on `policy` so far. */
  public others(policy: string): PolicyEdit[] {
    let files: string[];
    try {
      files = fs.readdirSync(this.folder);
    } catch {
      return []; // no process of this run has written anything yet
    }
    const declared: PolicyEdit[] = [];
    for (const file of files) {
      if (file === this.self) continue;
      declared.push(...(this.catchUp(file).get(policy) ?? []));
    }
    return declared;
  }

  /** Reads what `file` gained since the last time (whole lines only: another process may be appending). */
  private catchUp(file: string): Map<string, PolicyEdit[]> {
    let known = this.read.get(file);
    if (!known) this.read.set(file, (known = { offset: 0, tail: '', byPolicy: new Map() }));
    const fd = fs.openSync(path.join(this.folder, file), 'r');
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= known.offset) return known.byPolicy;
      const chunk = Buffer.alloc(size - known.offset);
      fs.readSync(fd, chunk, 0, chunk.length, known.offset);
      known.offset = size;
      const lines = (known.tail + chunk.toString('utf8')).split('\n');
      known.tail = lines.pop() ?? '';
      for (const line of lines) {
        if (!line) continue;
        const { policy, grants } = parseRunDeclaration(line);
        const list = known.byPolicy.get(policy) ?? [];
        list.push(...grants);
        known.byPolicy.set(policy, list);
      }
      return known.byPolicy;
    } finally {
      fs.closeSync(fd);
    }
  }
}

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
