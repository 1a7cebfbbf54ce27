/**
 * A Terraform working directory for the toy provider: the provider bundled
 * and laid out by installProvider (terraform.d/plugins, the implied local
 * mirror) for this machine's platform, the only one a test provider has an
 * executable for (bundle-test-provider.ts), with its lock entry pre-written,
 * a hand-written main.tf.json, and an empty CLI configuration (so nothing of
 * the machine's is used).
 */
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { installProvider, lockEntry, writeLockEntry, type ProviderPackage } from '../../../lib/install';
import { TerraformCli, type CommandResult } from '../../../lib/testing';
import { bundleToyProvider } from './bundle';
import { readStore, type Store } from './toy-thing';

export const TOY_TOKEN = 'toy-secret-token-4f9a1c';

export class ToyWorkspace {
  public static create(): ToyWorkspace {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-toy-'));
    const pkg = bundleToyProvider(root);
    const dir = path.join(root, 'config');
    fs.mkdirSync(dir);
    installProvider(dir, { layout: 'plugins', package: pkg });
    writeLockEntry(dir, lockEntry(pkg));
    fs.writeFileSync(path.join(root, 'terraform.rc'), '');
    return new ToyWorkspace(root, dir, pkg);
  }

  private constructor(
    public readonly root: string,
    public readonly dir: string,
    public readonly pkg: ProviderPackage,
  ) {}

  public get storePath(): string {
    return path.join(this.root, 'store.json');
  }

  public get store(): Store {
    return readStore(this.storePath);
  }

  public writeStore(store: Store): void {
    fs.writeFileSync(this.storePath, JSON.stringify(store));
  }

  /** Writes main.tf.json: the provider block and `resources` (toy_thing by name), plus `extra` top-level blocks. */
  public configure(resources: Record<string, Record<string, unknown>>, extra: Record<string, unknown> = {}): void {
    const config = {
      terraform: { required_providers: { toy: { source: 'cdktf-google-iam-test/toy', version: this.pkg.version } } },
      provider: { toy: { store_path: this.storePath, token: TOY_TOKEN } },
      ...(Object.keys(resources).length > 0 ? { resource: { toy_thing: resources } } : {}),
      ...extra,
    };
    fs.writeFileSync(path.join(this.dir, 'main.tf.json'), `${JSON.stringify(config, null, 2)}\n`);
  }

  public get env(): Record<string, string> {
    return { TF_CLI_CONFIG_FILE: path.join(this.root, 'terraform.rc') };
  }

  public terraform(args: string[], env: Record<string, string> = {}): Promise<CommandResult> {
    // Flags before positional arguments (`import -no-color ADDR ID`).
    return TerraformCli.run([args[0], '-no-color', ...args.slice(1)], { cwd: this.dir, env: { ...this.env, ...env }, check: false });
  }

  /** Starts terraform without waiting, for tests that signal it. */
  public start(args: string[]): ChildProcess {
    return spawn('terraform', [args[0], '-no-color', ...args.slice(1)], {
      cwd: this.dir,
      env: { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }

  public remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}
