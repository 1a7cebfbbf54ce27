/**
 * A machine that has terraform and nothing else, for the real-terraform tests of the native provider:
 * `env -i` with a PATH of one folder holding a link to terraform alone, a HOME of its own, and only the
 * variables a test passes (the emulator's, a CLI configuration).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { TerraformCli, type CommandResult } from '../../lib/testing';

/** PATH (a folder under `parent` holding a link to terraform alone), HOME (a new folder under `parent`) and `env`. */
export function bareEnvironment(parent: string, env: Record<string, string>): Record<string, string> {
  const bin = fs.mkdtempSync(path.join(parent, 'bin-'));
  const terraform = spawnSync('/bin/sh', ['-c', 'command -v terraform'], { encoding: 'utf8' }).stdout.trim();
  fs.symlinkSync(terraform, path.join(bin, 'terraform'));
  return { PATH: bin, HOME: fs.mkdtempSync(path.join(parent, 'home-')), ...env };
}

/** `env -i <env> terraform <args>` in `dir`: terraform under exactly `env`. */
export function bareTerraform(dir: string, env: Record<string, string>, args: string[]): Promise<CommandResult> {
  return TerraformCli.spawn('/usr/bin/env', ['-i', ...assignments(env), path.join(env.PATH, 'terraform'), ...args], dir);
}

/** Which of node, nodejs and npm the environment `env` finds (a test expects none). */
export function nodeCommandsIn(env: Record<string, string>): string[] {
  return ['node', 'nodejs', 'npm'].filter(
    (command) => spawnSync('/usr/bin/env', ['-i', ...assignments(env), '/bin/sh', '-c', `command -v ${command}`]).status === 0,
  );
}

function assignments(env: Record<string, string>): string[] {
  return Object.entries(env).map(([name, value]) => `${name}=${value}`);
}
