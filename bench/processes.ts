import { spawn } from 'child_process';
import * as fs from 'fs';

export interface ProcessRun {
  /** Wall time from spawn to exit, in milliseconds. */
  readonly ms: number;
  /** Peak of the summed RSS of the process and all its descendants (sampled from /proc), in MiB; 0 when not sampled. */
  readonly peakTreeRssMiB: number;
  readonly stdout: string;
  /** CPU seconds (user + system) of the process itself (not its children), last sampled; 0 when not sampled. */
  readonly ownCpuS: number;
}

export interface ProcessOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Sample the RSS of the whole process tree every this many ms (Linux /proc). @default - not sampled */
  readonly sampleRssEveryMs?: number;
  /** Called with each line of stdout and the ms since spawn. */
  readonly onLine?: (line: string, ms: number) => void;
}

/** Runs one child process to completion; rejects if it exits non-zero. */
export function runProcess(command: string, args: readonly string[], options: ProcessOptions = {}): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    let ownCpuS = 0;
    let pending = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      if (!options.onLine) return;
      const at = Number(process.hrtime.bigint() - start) / 1e6;
      pending += d;
      let i: number;
      while ((i = pending.indexOf('\n')) >= 0) {
        options.onLine(pending.slice(0, i), at);
        pending = pending.slice(i + 1);
      }
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
    });
    const sampler =
      options.sampleRssEveryMs && child.pid
        ? setInterval(() => {
            peak = Math.max(peak, treeRssBytes(child.pid!));
            ownCpuS = Math.max(ownCpuS, cpuSeconds(child.pid!));
          }, options.sampleRssEveryMs)
        : undefined;
    child.on('error', (error) => {
      if (sampler) clearInterval(sampler);
      reject(error);
    });
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (sampler) clearInterval(sampler);
      if (code === 0) resolve({ ms, peakTreeRssMiB: peak / 2 ** 20, stdout, ownCpuS });
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stderr}\n${stdout.slice(-4000)}`));
    });
  });
}

/** Wall time of one child process, from spawn to exit, in milliseconds. */
export function timeProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Promise<number> {
  return runProcess(command, args, { env, cwd }).then((r) => r.ms);
}

const PAGE_BYTES = 4096;
const CLOCK_TICKS = 100;

/** utime + stime of one process, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/**
 * The summed resident set of `root` and every process below it, from
 * /proc/<pid>/stat (parent pid) and /proc/<pid>/statm (resident pages).
 * Pages shared between processes (e.g. the node binary) count once per process, as RSS does.
 */
export function treeRssBytes(root: number): number {
  const children = new Map<number, number[]>();
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return 0;
  }
  for (const entry of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields after it start after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // The process has exited meanwhile.
    }
  }
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    try {
      total += Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
    } catch {
      // Exited meanwhile.
    }
    pending.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Runs a bench worker (plain node, no ts-node) and parses the JSON it prints. */
export function runWorker<T>(script: string, args: readonly string[]): Promise<T> {
  return runProcess(process.execPath, [script, ...args]).then((r) => JSON.parse(r.stdout) as T);
}
