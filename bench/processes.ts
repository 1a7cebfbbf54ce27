import { spawn } from 'child_process';

/** Wall time of one child process, from spawn to exit, in milliseconds. */
export function timeProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (code === 0) resolve(ms);
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr}`));
    });
  });
}

/** Runs a bench worker (plain node, no ts-node) and parses the JSON it prints. */
export function runWorker<T>(script: string, args: readonly string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d; });
    child.stderr.on('data', (d: Buffer) => { stderr += d; });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(JSON.parse(stdout) as T);
      else reject(new Error(`${script} exited with ${code}: ${stderr}`));
    });
  });
}
