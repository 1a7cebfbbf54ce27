import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';

export interface ProcessRun {
  /** Wall time from spawn to exit, in milliseconds. */
  readonly ms: number;
  /** The exit code (one of `acceptExitCodes`). */
  readonly code: number;
  /** Peak of the summed RSS of the process and all its descendants (sampled from /proc), in MiB; 0 when not sampled. */
  readonly peakTreeRssMiB: number;
  readonly stdout: string;
  /** CPU seconds (user + system) of the process itself (not its children), last sampled; 0 when not sampled. */
  readonly ownCpuS: number;
  /** The same two for the descendants whose command line contains `options.part` (0 when not sampled or none). */
  readonly peakPartRssMiB: number;
  readonly partCpuS: number;
}

export interface ProcessOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Sample the RSS of the whole process tree every this many ms (Linux /proc). @default - not sampled */
  readonly sampleRssEveryMs?: number;
  /** Also sample, apart, the descendants whose command line contains this (e.g. the provider's name). */
  readonly part?: string;
  /** Called with each line of stdout and the ms since spawn. */
  readonly onLine?: (line: string, ms: number) => void;
  /** The exit codes that are not a failure (`plan -detailed-exitcode`: 0 and 2). @default [0] */
  readonly acceptExitCodes?: readonly number[];
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
    let peakPart = 0;
    const partCpu = new Map<number, number>();
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
            const tree = processTree(child.pid!);
            peak = Math.max(
              peak,
              tree.reduce((sum, p) => sum + rssBytes(p), 0),
            );
            ownCpuS = Math.max(ownCpuS, cpuSeconds(child.pid!));
            if (options.part === undefined) return;
            const part = tree.filter((p) => commandLine(p).includes(options.part!));
            peakPart = Math.max(
              peakPart,
              part.reduce((sum, p) => sum + rssBytes(p), 0),
            );
            for (const p of part) partCpu.set(p, Math.max(partCpu.get(p) ?? 0, cpuSeconds(p)));
          }, options.sampleRssEveryMs)
        : undefined;
    child.on('error', (error) => {
      if (sampler) clearInterval(sampler);
      reject(error);
    });
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (sampler) clearInterval(sampler);
      const partCpuS = [...partCpu.values()].reduce((a, b) => a + b, 0);
      if ((options.acceptExitCodes ?? [0]).includes(code ?? -1)) {
        resolve({ ms, code: code!, peakTreeRssMiB: peak / 2 ** 20, stdout, ownCpuS, peakPartRssMiB: peakPart / 2 ** 20, partCpuS });
      } else reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${stderr}\n${stdout.slice(-4000)}`));
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
 * `root` and every process below it, from /proc/<pid>/stat (parent pid). The RSS of each (rssBytes) counts
 * pages shared between processes (e.g. the node binary) once per process, as RSS does.
 */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [root];
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
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** The resident set of one process, from /proc/<pid>/statm (0 once it has exited). */
function rssBytes(pid: number): number {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_BYTES;
  } catch {
    return 0;
  }
}

/** The command line of one process, its arguments joined by spaces ('' once it has exited). */
function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Runs a bench worker (plain node, no ts-node) and parses the JSON it prints. */
export function runWorker<T>(script: string, args: readonly string[]): Promise<T> {
  return runProcess(process.execPath, [script, ...args]).then((r) => JSON.parse(r.stdout) as T);
}

/**
 * Keeps every core busy (one spinning node process per core, at normal
 * priority), as on a shared CI runner, until the returned function is called.
 */
export function busyCpu(): () => void {
  const spinners = os.cpus().map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
  return () => {
    for (const spinner of spinners) spinner.kill('SIGKILL');
  };
}
