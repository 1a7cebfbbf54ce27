import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { CommandResult } from '../../lib/testing';
import { externalProviderEnv, type TerraformWorkspace } from './terraform';

/** A terraform command running in a process group of its own, so that a test can press Ctrl-C on it. */
export interface GroupRun {
  /** Sends `signal` to the whole process group, as a terminal's Ctrl-C does (SIGINT). */
  signal(signal: NodeJS.Signals): void;
  readonly done: Promise<CommandResult>;
}

/** `terraform <args>` in the workspace, as the leader of a new process group. */
export function startInGroup(ws: TerraformWorkspace, args: string[], env: Record<string, string>): GroupRun {
  const child = spawn('terraform', args, {
    cwd: ws.dir,
    env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...externalProviderEnv(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout.on('data', (d: Buffer) => ((stdout += d), (output += d)));
  child.stderr.on('data', (d: Buffer) => ((stderr += d), (output += d)));
  const done = new Promise<CommandResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, output }));
  });
  return { signal: (signal) => process.kill(-child.pid!, signal), done };
}

/**
 * Waits until a grant's worker, whose supervisor Terraform killed, has left
 * its report in the state folder (its last act), and returns it. The worker
 * runs on after Terraform exits; this is how a test knows it has finished.
 */
export async function workerReport(stateDir: string): Promise<string> {
  const dir = path.join(stateDir, 'reports');
  for (;;) {
    const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.txt') && !f.startsWith('.')) : [];
    if (names.length > 0) return names.map((name) => fs.readFileSync(path.join(dir, name), 'utf8')).join('');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
