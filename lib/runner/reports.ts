import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { StateDir } from './state-dir';

/**
 * What a worker had to say after its supervisor was gone (Terraform killed it
 * on Ctrl-C): kept in the state folder, printed by the next run of any grant
 * and then removed. Each report is printed once: a run claims it by renaming
 * it before reading.
 */
export class WorkerReports {
  private readonly dir: string;

  constructor(private readonly state: StateDir) {
    this.dir = state.dir('reports');
  }

  public save(lines: readonly string[]): void {
    const name = `${Date.now().toString(36)}-${process.pid}-${randomBytes(4).toString('hex')}.txt`;
    this.state.writeFile(path.join(this.dir, name), `${lines.join('\n')}\n`);
  }

  /** The reports left so far, oldest first, each taken out of the folder. */
  public take(): string[] {
    const taken: string[] = [];
    for (const name of fs
      .readdirSync(this.dir)
      .filter((f) => /^[0-9a-z]+-\d+-[0-9a-f]{8}\.txt$/.test(f))
      .sort()) {
      const claimed = path.join(this.dir, `.taken-${process.pid}-${name}`);
      try {
        fs.renameSync(path.join(this.dir, name), claimed);
      } catch {
        continue; // another run took it
      }
      try {
        const text = this.state.readFile(claimed);
        if (text) taken.push(text.toString('utf8').trimEnd());
      } finally {
        fs.rmSync(claimed, { force: true });
      }
    }
    return taken;
  }
}
