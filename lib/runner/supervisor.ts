import { spawn } from 'child_process';
import { RUNNER_ENV } from '../contract/runner-env';
import { ACCEPT_MESSAGE, DONE_MESSAGE, INTERRUPT_MESSAGE } from './interruption';
import { RunnerLines } from './lines';
import { WorkerReports } from './reports';
import { StateDir } from './state-dir';
import type { GrantAction } from '../iam/grant';

/** The runner's internal command that carries out one grant in its own process group. */
export const WORKER_COMMAND = 'grant-worker';

/**
 * Runs one grant in a worker process and relays its output and exit status.
 *
 * Terraform kills a provisioner's process (SIGKILL) the moment it is
 * interrupted (Ctrl-C reaches the whole process group, provisioners included),
 * and counts the create as failed: the instance is tainted, and the grant
 * recorded as not applied. A write already on its way to Google would then
 * leave a grant that Terraform believes is not there. So the work
 * runs in a worker in a process group of its own, which neither Ctrl-C nor
 * that kill reaches; told of the interruption (a message, or this process
 * vanishing), it finishes the call in flight and takes back its own change.
 */
export function superviseGrant(action: GrantAction, runnerScript: string, log: (line: string) => void): Promise<boolean> {
  try {
    for (const report of new WorkerReports(StateDir.open(process.env)).take()) log(RunnerLines.earlierReport(report));
  } catch {
    // The worker reports the state folder's trouble itself.
  }
  return new Promise((resolve, reject) => {
    const worker = spawn(process.execPath, [...process.execArgv, runnerScript, WORKER_COMMAND, action], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: { ...process.env, [RUNNER_ENV.terraformPid]: String(process.ppid) },
    });
    worker.stdout!.on('data', (chunk: Buffer) => process.stdout.write(chunk));
    worker.stderr!.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    let signalled = false;
    const tell = (message: string) => {
      if (worker.connected) worker.send(message, () => undefined);
    };
    const onSignal = (signal: NodeJS.Signals) => {
      signalled = true;
      log(RunnerLines.interrupted(signal, worker.pid));
      tell(INTERRUPT_MESSAGE);
    };
    // A create that succeeded stands only if no signal came first: after one, Terraform counts it as failed.
    worker.on('message', (message) => {
      if (message === DONE_MESSAGE) tell(signalled ? INTERRUPT_MESSAGE : ACCEPT_MESSAGE);
    });
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
    worker.on('error', reject);
    worker.on('close', (code) => resolve(code === 0));
  });
}
