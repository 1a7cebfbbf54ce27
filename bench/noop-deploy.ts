/**
 * The no-op floor: as many `noop_grant` resources of the bench's no-op plugin
 * provider (bench/noop-provider) as a deploy has grants, laid out as synth
 * lays out the googleiam provider (Terraform's implied local mirror and a lock
 * entry), so `terraform init` installs it offline.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildSync } from 'esbuild';
import { fileSha256, installProvider, lockEntry, terraformPlatform, writeLockEntry, type ProviderPackage } from '../lib/install';
import { APPLY_ARGS, memberName, policyName, ROLE, stateBytes, type FloorRun } from './deploy';
import { runProcess } from './processes';
import { TF_ENV } from './workspace';

/**
 * The no-op provider, built once per bench process: its bundle, and as its executable for this machine's
 * platform an sh script running the bundle on the Node.js running the bench (as the tests' providers run).
 */
let bundled: ProviderPackage | undefined;
function noopPackage(): ProviderPackage {
  if (!bundled) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-noop-'));
    // Each deploy's layout holds its own copy (installProvider), so the build folder goes with the bench process.
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const outfile = path.join(dir, 'terraform-provider-noop.js');
    buildSync({
      entryPoints: [path.join(__dirname, 'noop-provider', 'main.ts')],
      bundle: true,
      platform: 'node',
      target: 'node22',
      format: 'cjs',
      minify: true,
      logLevel: 'warning',
      logOverride: { 'impossible-typeof': 'silent' },
      loader: { '.proto': 'text' },
      outfile,
    });
    const script = path.join(dir, 'terraform-provider-noop');
    fs.writeFileSync(script, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(outfile)} "$@"\n`, { mode: 0o755 });
    const executables = { [terraformPlatform()]: { path: script, sha256: fileSha256(script) } };
    bundled = { hostname: 'registry.terraform.io', namespace: 'bench', type: 'noop', version: '0.0.1', executables };
  }
  return bundled;
}

/** `count` no-op plugin resources holding a grant's values, grant i on policy i mod `policies`. */
export class NoopDeploy {
  public static async create(count: number, policies: number): Promise<NoopDeploy> {
    const pkg = noopPackage();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-bench-noop-'));
    const resources: Record<string, { name: string; role: string; member: string }> = {};
    for (let i = 0; i < count; i++) resources[`M${i}`] = { name: policyName(i % policies), role: ROLE, member: memberName(i) };
    const config = {
      terraform: {
        required_providers: { noop: { source: `${pkg.hostname}/${pkg.namespace}/${pkg.type}`, version: pkg.version } },
        backend: { local: { path: 'terraform.tfstate' } },
      },
      provider: { noop: [{}] },
      resource: { noop_grant: resources },
    };
    fs.writeFileSync(path.join(dir, 'main.tf.json'), JSON.stringify(config, null, 2));
    installProvider(dir, { layout: 'plugins', package: pkg });
    writeLockEntry(dir, lockEntry(pkg));
    await runProcess('terraform', ['init', '-input=false', '-no-color'], { cwd: dir, env: TF_ENV });
    return new NoopDeploy(dir);
  }

  private constructor(private readonly dir: string) {}

  public async apply(parallelism: number, sampleRssEveryMs?: number): Promise<FloorRun> {
    fs.rmSync(path.join(this.dir, 'terraform.tfstate'), { force: true });
    const run = await runProcess('terraform', APPLY_ARGS(parallelism), { cwd: this.dir, env: TF_ENV, sampleRssEveryMs });
    return { ms: run.ms, peakTreeRssMiB: run.peakTreeRssMiB, terraformCpuS: run.ownCpuS, stateBytes: stateBytes(this.dir) };
  }

  public dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
