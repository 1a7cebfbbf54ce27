/** Waiting in tests that drive terraform as a process: for time, for a condition, for the process to end. */
import type { ChildProcess } from 'child_process';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves once `condition` holds (checked every 10 ms); rejects after `timeoutMs`. */
export async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

/** The exit code of `child` and all it printed, stdout and stderr interleaved. */
export function exited(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d));
  child.stderr!.on('data', (d: Buffer) => (output += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}
