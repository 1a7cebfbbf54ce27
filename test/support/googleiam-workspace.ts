/**
 * A Terraform working directory for the real googleiam provider: the bundle
 * (`npm run bundle:provider`) laid out by installProvider as the implied
 * local mirror with its lock entry, a hand-written main.tf.json, an empty CLI
 * configuration (nothing of the machine's is used), and the emulator's
 * endpoints and token in the environment.
 */
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { installProvider, lockEntry, providerPackage, writeLockEntry } from '../../lib/install';
import { TerraformCli, type CommandResult, type GoogleApiEmulator } from '../../lib/testing';

/** The blocks of a configuration besides `terraform` and `provider`. */
export interface Blocks {
  readonly resource?: Record<string, Record<string, Record<string, unknown>>>;
  readonly data?: Record<string, Record<string, Record<string, unknown>>>;
  readonly import?: readonly Record<string, unknown>[];
  readonly output?: Record<string, Record<string, unknown>>;
}

/** A resource in the state file. */
export interface StateResource {
  readonly type: string;
  readonly name: string;
  readonly instances: readonly { readonly attributes: Record<string, unknown>; readonly status?: string }[];
}

export class GoogleIamWorkspace {
  public static create(emulator: GoogleApiEmulator, env: Record<string, string> = {}): GoogleIamWorkspace {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-provider-'));
    const dir = path.join(root, 'config');
    fs.mkdirSync(dir);
    const pkg = providerPackage();
    installProvider(dir, { layout: 'plugins', package: pkg, platforms: [`${goOs()}_${goArch()}`] });
    writeLockEntry(dir, lockEntry(pkg));
    fs.writeFileSync(path.join(root, 'terraform.rc'), '');
    return new GoogleIamWorkspace(root, dir, {
      ...emulator.env(),
      CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '50',
      CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '5000',
      TF_CLI_CONFIG_FILE: path.join(root, 'terraform.rc'),
      ...env,
    });
  }

  private initialized = false;

  private constructor(
    public readonly root: string,
    public readonly dir: string,
    public readonly env: Record<string, string>,
  ) {}

  /** Writes main.tf.json: the googleiam provider (with `provider` settings; a list for aliases) and `blocks`. */
  public configure(blocks: Blocks, provider: Record<string, unknown> | readonly Record<string, unknown>[] = {}): void {
    const config = {
      terraform: { required_providers: { googleiam: { source: 'cdktf-google-iam/googleiam', version: providerPackage().version } } },
      provider: { googleiam: provider },
      ...Object.fromEntries(Object.entries(blocks).filter(([, v]) => v !== undefined && Object.keys(v).length > 0)),
    };
    fs.writeFileSync(path.join(this.dir, 'main.tf.json'), `${JSON.stringify(config, null, 2)}\n`);
  }

  /** `terraform <command> -no-color <args>`, after `terraform init` the first time. */
  public async terraform(args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
    if (!this.initialized) {
      await TerraformCli.run(['init', '-no-color', '-input=false'], { cwd: this.dir, env: this.env });
      this.initialized = true;
    }
    return TerraformCli.run([args[0], '-no-color', ...args.slice(1)], { cwd: this.dir, env: { ...this.env, ...env }, check: false });
  }

  public apply(...args: string[]): Promise<CommandResult> {
    return this.terraform(['apply', '-auto-approve', '-input=false', ...args]);
  }

  /** `terraform plan -detailed-exitcode`: 0 no changes, 2 changes. */
  public plan(...args: string[]): Promise<CommandResult> {
    return this.terraform(['plan', '-input=false', '-detailed-exitcode', ...args]);
  }

  /** Starts terraform without waiting (after init), for tests that signal it. */
  public async start(args: string[]): Promise<ChildProcess> {
    if (!this.initialized) await this.terraform(['version']);
    return spawn('terraform', [args[0], '-no-color', ...args.slice(1)], {
      cwd: this.dir,
      env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  /** The resources of terraform.tfstate (none before the first apply). */
  public state(): StateResource[] {
    const file = path.join(this.dir, 'terraform.tfstate');
    if (!fs.existsSync(file)) return [];
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { resources: StateResource[] }).resources;
  }

  /** `type.name` (and `[key]`) of every instance in the state. */
  public addresses(): string[] {
    return this.state().flatMap((r) =>
      r.instances.map(
        (i) =>
          `${r.type}.${r.name}${(i as { index_key?: string }).index_key === undefined ? '' : `["${(i as { index_key?: string }).index_key}"]`}`,
      ),
    );
  }

  public remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

function goOs(): string {
  return process.platform === 'win32' ? 'windows' : process.platform;
}

function goArch(): string {
  return process.arch === 'x64' ? 'amd64' : process.arch;
}
