import { spawn } from 'child_process';
import { externalProviderEnv, type CommandResult, type TerraformWorkspace } from './terraform';

/**
 * The drift reports of a plan, one per drifted grant (`<Construct> <path>: <what differs>.`).
 * Terraform wraps long lines, so the output is read with line breaks as spaces.
 */
export function driftReports(plan: CommandResult): string[] {
  const text = asSeen(plan.output).replace(/\s*\n\s*/g, ' ');
  const label = '[A-Z][A-Za-z]*Iam[A-Za-z]* [\\w-]+/\\S+: ';
  return [...text.matchAll(new RegExp(`${label}.*?\\.(?= (?:${label}|Repair \\())`, 'g'))].map((m) => m[0]);
}

/** Runs the one Terraform repair command the plan printed, exactly as printed, in the stack's folder. */
export async function repairAsPrinted(ws: TerraformWorkspace, plan: CommandResult, env: Record<string, string>): Promise<CommandResult> {
  const { terraform } = printedRepairs(plan.output);
  if (terraform.length !== 1) throw new Error(`expected one printed repair command, got ${JSON.stringify(terraform)} in:\n${plan.output}`);
  return runPrinted(terraform[0], ws.dir, { ...externalProviderEnv(), ...env });
}

/**
 * The repair commands a drift report prints, each on a line of its own:
 * Terraform's form (run in the stack's folder) and cdktf's (in the project's).
 * Taken from output as a user copies it: a line holding the command, whatever
 * surrounds it (cdktf-cli prefixes each line with the stack's name, Terraform
 * draws box characters around a message when it has colours).
 */
export function printedRepairs(output: string): { terraform: string[]; cdktf: string[] } {
  const lines = asSeen(output).split('\n');
  const commands = (pattern: RegExp) => [...new Set(lines.flatMap((line) => pattern.exec(line)?.[0] ?? []))];
  return {
    terraform: commands(/terraform apply -replace=\S+/),
    cdktf: commands(/TF_CLI_ARGS_apply=\S+ cdktf deploy \S+/),
  };
}

/**
 * Runs a command line exactly as printed, through `sh -c`, answering "yes" to
 * a confirmation prompt as a user at the terminal would.
 */
export function runPrinted(commandLine: string, cwd: string, env: Record<string, string>): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', commandLine], { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let output = '';
    child.stdout.on('data', (d: Buffer) => ((stdout += d), (output += d)));
    child.stderr.on('data', (d: Buffer) => ((stderr += d), (output += d)));
    child.stdin.end('yes\n');
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, output }));
  });
}

/** Output as a terminal shows it: without colour codes, and without the frame Terraform draws around a message. */
export function asSeen(output: string): string {
  return output.replace(/\x1b\[[0-9;]*m/g, '').replace(/^(.*?)[│╷╵]/gm, '$1');
}
