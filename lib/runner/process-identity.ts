import * as fs from 'fs';
import * as os from 'os';

/**
 * Who wrote a queue entry, result, note or lock: enough to tell, later, that
 * exactly that process is still running. A process id alone is not: ids are
 * reused, and another machine sharing the state folder (CI containers, an NFS
 * home) has its own. So it is the id, the process's start time (in clock
 * ticks since boot, from /proc/<pid>/stat), the boot id and the host name.
 */
export interface ProcessIdentity {
  readonly pid: number;
  readonly host: string;
  /** The kernel's boot id (Linux); a reboot starts every process anew. */
  readonly boot?: string;
  /** The process's start time since boot (Linux); a reused id has another. */
  readonly started?: string;
}

/** Whether the process that wrote something is running: yes, no, or unknowable here (another host). */
export type Liveness = 'alive' | 'dead' | 'elsewhere';

let own: ProcessIdentity | undefined;

/** This process. */
export function thisProcess(): ProcessIdentity {
  own ??= { pid: process.pid, host: os.hostname(), ...optional('boot', bootId()), ...optional('started', startTime(process.pid)) };
  return own;
}

/** Whether `who` still runs, as far as this machine can tell. */
export function liveness(who: ProcessIdentity): Liveness {
  const me = thisProcess();
  if (who.host !== me.host) return 'elsewhere';
  if (who.boot !== undefined && me.boot !== undefined && who.boot !== me.boot) return 'dead';
  if (!pidExists(who.pid)) return 'dead';
  if (who.started !== undefined && me.started !== undefined && startTime(who.pid) !== who.started) return 'dead';
  return 'alive';
}

/** Reads an identity back (from JSON of unknown origin); undefined unless it has the right shape. */
export function identityOrUndefined(value: unknown): ProcessIdentity | undefined {
  const v = value as Partial<Record<keyof ProcessIdentity, unknown>> | null;
  const ok =
    typeof v === 'object' &&
    v !== null &&
    typeof v.pid === 'number' &&
    Number.isInteger(v.pid) &&
    v.pid > 0 &&
    typeof v.host === 'string' &&
    (v.boot === undefined || typeof v.boot === 'string') &&
    (v.started === undefined || typeof v.started === 'string');
  return ok
    ? { pid: v.pid as number, host: v.host as string, ...optional('boot', v.boot as string), ...optional('started', v.started as string) }
    : undefined;
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Field 22 of /proc/<pid>/stat (after the command name, which may hold spaces and parentheses). */
function startTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function bootId(): string | undefined {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function optional<K extends string>(key: K, value: string | undefined): { [k in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [k in K]?: string };
}
