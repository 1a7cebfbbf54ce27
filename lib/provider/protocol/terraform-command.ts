import { execFileSync } from 'child_process';
import * as fs from 'fs';

/**
 * What the terraform command that started this provider process is about,
 * as far as a provider needs to know. Terraform tells a provider nothing of
 * the command: `terraform destroy` first plans the whole configuration in
 * normal mode (its "pre-destroy refresh", context_plan.go `destroyPlan`),
 * exactly as `terraform plan` does, and an error there stops the destroy. So
 * a finding that judges the configuration (two resources claiming one grant)
 * must not be an error there, and the only place that tells is terraform's
 * own command line (the provider's parent process).
 */
export interface TerraformCommand {
  /**
   * `terraform destroy`, or `terraform apply -destroy` / `plan -destroy`: the configuration is about to be taken
   * away; false: another command; undefined: not known (the command line could not be read).
   */
  readonly destroys?: boolean;
  /**
   * `terraform apply <file>`: the saved plan it applies, as written (relative to terraform's working directory,
   * which is the provider's: `-chdir` changes both). Such a run has no validation and no plan walk, and calls
   * the provider for none of the resources the plan leaves as they are (saved-plan.ts). @default - not a saved plan's apply
   */
  readonly savedPlan?: string;
}

/** A command about which nothing is known. */
export const UNKNOWN_COMMAND: TerraformCommand = {};

/** The command of terraform, this process's parent (Linux: /proc; macOS and BSD: ps); UNKNOWN_COMMAND if it cannot tell. */
export function terraformCommandOfParent(pid = process.ppid): TerraformCommand {
  const args = parentArguments(pid);
  return args === undefined ? UNKNOWN_COMMAND : terraformCommandOf(args);
}

/** What terraform's arguments (after the program) say: global options (`-chdir=…`) first, then the subcommand and its options. */
export function terraformCommandOf(args: readonly string[]): TerraformCommand {
  const at = args.findIndex((arg) => !arg.startsWith('-'));
  if (at < 0) return UNKNOWN_COMMAND;
  const subcommand = args[at];
  const options = args.slice(at + 1);
  const destroyFlag = options.some((arg) => arg === '-destroy' || arg === '--destroy' || /^--?destroy=(true|1)$/.test(arg));
  const destroys = subcommand === 'destroy' || ((subcommand === 'apply' || subcommand === 'plan') && destroyFlag);
  const savedPlan = subcommand === 'apply' ? positionalOf(options) : undefined;
  return savedPlan === undefined ? { destroys } : { destroys, savedPlan };
}

/**
 * `terraform apply`'s options that take a value, which Go's flag package also reads from the next argument
 * (`-state path`); boolean ones never do. From terraform 1.11's `command/arguments/apply.go` and `extended.go`.
 */
const VALUE_OPTIONS = new Set(['backup', 'lock-timeout', 'parallelism', 'replace', 'state', 'state-out', 'target', 'var', 'var-file']);

/** The one positional argument of `terraform apply` (its saved plan), if any: Go's flag package stops at the first. */
function positionalOf(options: readonly string[]): string | undefined {
  for (let i = 0; i < options.length; i++) {
    const arg = options[i];
    if (arg === '--') return options[i + 1];
    if (!arg.startsWith('-') || arg === '-') return arg;
    const name = arg.replace(/^--?/, '');
    if (!name.includes('=') && VALUE_OPTIONS.has(name)) i++;
  }
  return undefined;
}

function parentArguments(pid: number): string[] | undefined {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline
      .split('\0')
      .filter((arg) => arg !== '')
      .slice(1);
  } catch {
    try {
      // No /proc: ps prints the arguments joined by spaces (an argument holding one is split, which no flag here does).
      const line = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8', timeout: 5_000 }).trim();
      return line ? line.split(/\s+/).slice(1) : undefined;
    } catch {
      return undefined;
    }
  }
}
