/**
 * A working directory of both providers, for moves and imports from the google provider: the googleiam provider
 * against the emulator (GoogleIamWorkspace) and the stand-in `hashicorp/google` (bundle.ts), whose RPCs are logged
 * so that a test can say what terraform asked of it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { providerPackage } from '../../../lib/install';
import type { GoogleApiEmulator } from '../../../lib/testing';
import { GoogleIamWorkspace } from '../googleiam-workspace';
import { installGoogleStandin, STANDIN_VERSION } from './bundle';

/** The resource blocks of a configuration: type, then name, then attributes. */
export type Resources = Record<string, Record<string, Record<string, unknown>>>;

export class BothProvidersWorkspace {
  /** The `terraform` and `provider` blocks of both providers. */
  public static providers() {
    return {
      terraform: {
        required_providers: {
          googleiam: { source: 'cdktf-google-iam/googleiam', version: providerPackage().version },
          google: { source: 'hashicorp/google', version: STANDIN_VERSION },
        },
      },
      provider: { googleiam: {}, google: {} },
    };
  }

  /** Both providers installed; the googleiam provider pointed at the emulator for `services` too. */
  public static create(emulator: GoogleApiEmulator, services: readonly string[] = []): BothProvidersWorkspace {
    const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'standin-log-')), 'google.jsonl');
    const endpoints = services.map((service) => [`CLOUDSDK_API_ENDPOINT_OVERRIDES_${service.toUpperCase()}`, emulator.endpoint(service)]);
    const workspace = GoogleIamWorkspace.create(emulator, { GOOGLE_STANDIN_LOG: log, ...Object.fromEntries(endpoints) });
    installGoogleStandin(workspace.root, workspace.dir, `${process.platform}_${process.arch === 'x64' ? 'amd64' : process.arch}`);
    return new BothProvidersWorkspace(workspace, log);
  }

  private seen = 0;

  private constructor(
    public readonly workspace: GoogleIamWorkspace,
    private readonly log: string,
  ) {}

  /** Writes main.tf.json: both providers, `resource`, and `import`, `removed` and `moved` blocks (an empty list left out). */
  public configure(
    resource: Resources,
    blocks: Partial<Record<'import' | 'removed' | 'moved', readonly Record<string, unknown>[]>> = {},
  ): void {
    const kept = Object.entries(blocks).filter(([, list]) => list !== undefined && list.length > 0);
    const config = { ...BothProvidersWorkspace.providers(), resource, ...Object.fromEntries(kept) };
    fs.writeFileSync(path.join(this.workspace.dir, 'main.tf.json'), `${JSON.stringify(config, null, 2)}\n`);
  }

  /** Writes main.tf (`hcl`) beside a providers.tf.json of both providers, in place of main.tf.json. */
  public configureHcl(hcl: string): void {
    fs.rmSync(path.join(this.workspace.dir, 'main.tf.json'), { force: true });
    fs.writeFileSync(
      path.join(this.workspace.dir, 'providers.tf.json'),
      `${JSON.stringify(BothProvidersWorkspace.providers(), null, 2)}\n`,
    );
    fs.writeFileSync(path.join(this.workspace.dir, 'main.tf'), `${hcl}\n`);
  }

  /** The RPCs terraform sent the stand-in google provider since the last call, as `rpc type`. */
  public googleCalls(): string[] {
    const lines = fs.existsSync(this.log) ? fs.readFileSync(this.log, 'utf8').trim().split('\n').filter(Boolean) : [];
    const calls = lines.slice(this.seen).map((line) => {
      const { rpc, type } = JSON.parse(line) as { rpc: string; type?: string };
      return type ? `${rpc} ${type}` : rpc;
    });
    this.seen = lines.length;
    return calls;
  }

  /** Removes the working directory and the stand-in's log. */
  public remove(): void {
    this.workspace.remove();
    fs.rmSync(path.dirname(this.log), { recursive: true, force: true });
  }
}
