import * as fs from 'fs';
import * as path from 'path';
import { shortDigest } from '../iam/digest';
import type { StateDir } from './state-dir';

const KEEP_MS = 24 * 60 * 60_000;

/**
 * Which grants this `terraform apply` has applied, so that revoking one of
 * them later in the same run is skipped: a grant applied in a run is declared
 * by that run's configuration, whatever is destroyed beside it.
 *
 * This is what keeps a principal's access when the same grant leaves one
 * Terraform address and arrives at another in one apply (a construct renamed
 * while its grant holds values only known at apply time, so that its address
 * follows the construct path) and Terraform happens to create the new
 * instance before it destroys the old one. Terraform does not run destroy
 * provisioners for the objects it replaces with create_before_destroy, and
 * this guard keeps that safe should a future Terraform start doing so.
 *
 * A run is `plantimestamp()` (the same for every provisioner of one apply)
 * with Terraform's process id and working directory; markers of runs older
 * than a day are removed.
 */
export class RunMarkers {
  /** This run's id (a digest), or undefined where the runner was started without a plan timestamp. */
  public readonly run?: string;
  private readonly dir?: string;

  constructor(
    private readonly state: StateDir,
    planTimestamp: string | undefined,
    terraformPid: number = process.ppid,
  ) {
    if (!planTimestamp) return;
    this.run = shortDigest(JSON.stringify([planTimestamp, terraformPid, process.cwd()]), 32);
    this.dir = path.join(state.dir('runs'), this.run);
  }

  public markApplied(markerKey: string): void {
    if (!this.dir) return;
    this.removeOldRuns();
    this.state.dir('runs', path.basename(this.dir));
    this.state.createFile(this.file(markerKey), '');
  }

  /**
   * Claims, once per run, the removal of a grant that a twin declares (see
   * twins.ts): true for the first removal of this run, which keeps the grant;
   * false for a later one (its twin is being removed in this run too), which
   * revokes it. Without a run id, always true: never revoke what another may declare.
   */
  public claimTwinKeep(markerKey: string): boolean {
    if (!this.dir) return true;
    this.state.dir('runs', path.basename(this.dir));
    return this.state.createFile(`${this.file(markerKey)}-twin`, '');
  }

  public wasApplied(markerKey: string): boolean {
    if (!this.dir) return false;
    try {
      return this.state.readFile(this.file(markerKey)) !== undefined;
    } catch {
      return false;
    }
  }

  private file(markerKey: string): string {
    return path.join(this.dir!, shortDigest(markerKey, 32));
  }

  private removeOldRuns(): void {
    const runs = this.state.dir('runs');
    for (const entry of fs.readdirSync(runs)) {
      const dir = path.join(runs, entry);
      try {
        if (Date.now() - fs.lstatSync(dir).mtimeMs > KEEP_MS) fs.rmSync(dir, { recursive: true, force: true });
      } catch {
        // Another runner removed it first.
      }
    }
  }
}
