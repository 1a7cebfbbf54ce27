import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { TerraformCli, type CommandResult } from '../../lib/testing';

/**
 * An empty Terraform CLI configuration in `dir`, for the terraform commands
 * run there: nothing of the machine's is used (a `provider_installation`
 * block would turn off the implied local mirror synth lays the provider out in).
 */
export function emptyCliConfig(dir: string): Record<string, string> {
  const file = path.join(dir, 'terraform.rc');
  if (!fs.existsSync(file)) fs.writeFileSync(file, '');
  return { TF_CLI_CONFIG_FILE: file };
}

/**
 * A plugin cache of the project's own, for a run of the cdktf or cdktn CLI: they set TF_PLUGIN_CACHE_DIR to
 * ~/.terraform.d/plugin-cache unless it is set, and Terraform's plugin cache is not safe for inits running at
 * the same moment (hashicorp/terraform#31964): with test files side by side, one CLI's init replaced the
 * provider package the other's terraform was reading ("could not read package directory").
 */
export function ownPluginCache(dir: string): Record<string, string> {
  return { TF_PLUGIN_CACHE_DIR: path.join(dir, '.terraform-plugin-cache') };
}

export type { CommandResult };

/** One object in the Terraform state. */
export interface StateObject {
  readonly address: string;
  readonly tainted: boolean;
}

/**
 * A synthesized stack in a temporary directory, driven by the real
 * `terraform` binary. Commands are spawned asynchronously so that an
 * emulator in the test process keeps answering while Terraform runs.
 */
export class TerraformWorkspace {
  /** Synthesizes one stack built by `build` and returns its workspace. */
  public static synth(build: (stack: TerraformStack) => void, stackName = 'grants'): TerraformWorkspace {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-e2e-'));
    const app = new App({ outdir });
    const stack = new TerraformStack(app, stackName);
    // cdktf's default state path is absolute under the current directory, which
    // every workspace would share; keep each workspace's state in its own dir.
    new LocalBackend(stack, { path: 'terraform.tfstate' });
    build(stack);
    app.synth();
    return new TerraformWorkspace(outdir, path.join(outdir, 'stacks', stackName));
  }

  private constructor(
    public readonly outdir: string,
    public readonly dir: string,
  ) {}

  public async init(): Promise<void> {
    await this.run(['init', '-input=false', '-no-color'], {}, true);
  }

  public apply(env: Record<string, string>, extra: string[] = []): Promise<CommandResult> {
    return this.run(['apply', '-auto-approve', '-input=false', '-no-color', ...extra], env);
  }

  public destroy(env: Record<string, string>, extra: string[] = []): Promise<CommandResult> {
    return this.run(['destroy', '-auto-approve', '-input=false', '-no-color', ...extra], env);
  }

  public plan(env: Record<string, string>, extra: string[] = []): Promise<CommandResult> {
    return this.run(['plan', '-input=false', '-no-color', '-detailed-exitcode', ...extra], env);
  }

  /** `terraform state list`: the addresses in the state. */
  public async stateList(env: Record<string, string> = {}): Promise<string[]> {
    const result = await this.run(['state', 'list'], env);
    return result.stdout.split('\n').filter(Boolean);
  }

  /** Every resource object in the state (`terraform show -json`), tainted or not. */
  public async objects(env: Record<string, string> = {}): Promise<StateObject[]> {
    const shown = await this.run(['show', '-json', '-no-color'], env, true);
    const resources: Array<{ address: string; tainted?: boolean }> = JSON.parse(shown.stdout).values?.root_module?.resources ?? [];
    return resources.filter((r) => !r.address.startsWith('data.')).map((r) => ({ address: r.address, tainted: r.tainted === true }));
  }

  /** The one address in the state that contains `fragment`, for -target and -replace; `resource` narrows it to one resource type. */
  public async address(fragment: string, env: Record<string, string> = {}, resource = ''): Promise<string> {
    const matches = (await this.stateList(env)).filter((a) => a.startsWith(resource) && a.includes(fragment));
    if (matches.length !== 1) throw new Error(`expected one state address containing ${fragment}, got ${JSON.stringify(matches)}`);
    return matches[0];
  }

  /** Replaces this workspace's configuration with a new synth of `build`, keeping the state. */
  public resynth(build: (stack: TerraformStack) => void, stackName = 'grants'): void {
    const next = TerraformWorkspace.synth(build, stackName);
    for (const entry of fs.readdirSync(next.dir)) {
      if (entry === '.terraform' || entry.endsWith('.tfstate')) continue;
      fs.rmSync(path.join(this.dir, entry), { recursive: true, force: true });
      fs.cpSync(path.join(next.dir, entry), path.join(this.dir, entry), { recursive: true });
    }
    next.dispose();
  }

  /** The local state: cdktf's default backend writes `terraform.<stack>.tfstate`. */
  public state(): string {
    return fs
      .readdirSync(this.dir)
      .filter((entry) => entry.endsWith('.tfstate'))
      .map((entry) => fs.readFileSync(path.join(this.dir, entry), 'utf8'))
      .join('\n');
  }

  public dispose(): void {
    fs.rmSync(this.outdir, { recursive: true, force: true });
  }

  public run(args: string[], env: Record<string, string>, mustSucceed = false): Promise<CommandResult> {
    return runCommand('terraform', args, this.dir, { ...emptyCliConfig(this.outdir), ...env }).then((result) => {
      if (mustSucceed && result.code !== 0) {
        throw new Error(`terraform ${args.join(' ')} failed (${result.code}):\n${result.output}`);
      }
      return result;
    });
  }
}

/**
 * For a test file that deploys: returns a function that synthesizes one stack
 * and runs `terraform init` on it, and removes every workspace it made after
 * the file's last test. Call it at the top level of the file.
 */
export function workspacesOfThisFile(): (build: (stack: TerraformStack) => void, stackName?: string) => Promise<TerraformWorkspace> {
  const made: TerraformWorkspace[] = [];
  afterAll(() => made.forEach((ws) => ws.dispose()));
  return async (build, stackName) => {
    const ws = TerraformWorkspace.synth(build, stackName);
    made.push(ws);
    await ws.init();
    return ws;
  };
}

/** Runs a command without a shell, with the test's environment plus `env` (and Terraform's automation flags). */
export function runCommand(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<CommandResult> {
  return TerraformCli.spawn(command, args, cwd, { TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...env });
}
