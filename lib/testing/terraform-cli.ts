import { spawn } from 'child_process';

/** What a finished command printed, and how it ended. */
export interface CommandResult {
  /** The exit code (-1 when the process was killed). */
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr interleaved, as a terminal would show them. */
  readonly output: string;
}

/** Options of `TerraformCli.run`. */
export interface TerraformRunOptions {
  /** The stack's folder, e.g. `cdktf.out/stacks/<stack>`. */
  readonly cwd: string;
  /** Added to this process's environment (e.g. `emulator.env()`). */
  readonly env?: { [name: string]: string };
  /**
   * Reject when terraform exits with another code than 0.
   * @default true
   */
  readonly check?: boolean;
}

/**
 * Runs the `terraform` on the PATH, asynchronously: an emulator running in
 * the same process keeps answering while Terraform (and the provider it
 * starts) calls it. A synchronous spawn would block it and time out.
 */
export class TerraformCli {
  /** `terraform <args>` in `cwd`, with `TF_IN_AUTOMATION` and `CHECKPOINT_DISABLE` set. */
  public static async run(args: string[], options: TerraformRunOptions): Promise<CommandResult> {
    const result = await TerraformCli.spawn('terraform', args, options.cwd, {
      TF_IN_AUTOMATION: '1',
      CHECKPOINT_DISABLE: '1',
      ...options.env,
    });
    if ((options.check ?? true) && result.code !== 0) {
      throw new Error(`terraform ${args.join(' ')} exited with ${result.code}:\n${result.output}`);
    }
    return result;
  }

  /** Any program, without a shell, with this process's environment plus `env`. */
  public static spawn(command: string, args: string[], cwd: string, env: { [name: string]: string } = {}): Promise<CommandResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let output = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d;
        output += d;
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d;
        output += d;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, output }));
    });
  }
}
