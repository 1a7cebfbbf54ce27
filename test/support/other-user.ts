/**
 * Running a command as another account (`nobody`), for the tests of a shared
 * host: only root can switch, with `setpriv` (util-linux) or else `runuser`.
 * The other account cannot reach anything under /root (mode 0700), where
 * this Node.js may be: `nodeFor` gives it one in a folder it can read.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { CommandResult } from '../../lib/testing';

export interface OtherUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
  /** The program and arguments that run the rest as this account (its own groups only). */
  readonly prefix: readonly string[];
}

/** `nobody`, if this process can run commands as it; else why not (for the message of the tests it skips). */
export function otherUser(name = 'nobody'): OtherUser | string {
  if (process.getuid?.() !== 0) return 'not running as root: cannot run commands as another account';
  const id = (flag: string) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  const gid = id('-g');
  if (!Number.isInteger(uid) || uid === 0) return `no account ${name}`;
  const prefixes = [
    ['setpriv', `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups'],
    ['runuser', '-u', name, '--'],
  ];
  for (const prefix of prefixes) {
    const probe = spawnSync(prefix[0], [...prefix.slice(1), 'id', '-u'], { encoding: 'utf8' });
    if (probe.status === 0 && probe.stdout.trim() === String(uid)) return { name, uid, gid, prefix };
  }
  return `neither setpriv nor runuser can run commands as ${name}`;
}

/** A folder holding a `node` that `user` can run (this one, linked or copied): put it first on its PATH. */
export function nodeFor(dir: string): string {
  const bin = path.join(dir, 'node-bin');
  fs.mkdirSync(bin, { recursive: true, mode: 0o755 });
  const node = path.join(bin, 'node');
  try {
    fs.linkSync(process.execPath, node); // same file system: no 120 MB copy
  } catch {
    fs.copyFileSync(process.execPath, node);
    fs.chmodSync(node, 0o755);
  }
  return bin;
}

/** Gives `file` and everything under it to `user`. */
export function chownTree(file: string, user: OtherUser): void {
  fs.lchownSync(file, user.uid, user.gid);
  if (fs.lstatSync(file).isDirectory()) for (const entry of fs.readdirSync(file)) chownTree(path.join(file, entry), user);
}

/** `command args` as `user` in `cwd`, with `env` alone (nothing of this process's environment). */
export function runAs(
  user: OtherUser,
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string>,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(user.prefix[0], [...user.prefix.slice(1), command, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (d: Buffer) => ((stdout += d), (output += d)));
    child.stderr.on('data', (d: Buffer) => ((stderr += d), (output += d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, output }));
  });
}
