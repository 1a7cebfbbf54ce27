import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { ExternalProviderStandIn, type ExternalProviderInstallation } from '../tools/terraform-provider-external';
import { runProcess } from './processes';

let standIn: ExternalProviderInstallation | undefined;

/** TF_CLI_CONFIG_FILE for the offline stand-in of hashicorp/external (installed once per bench process). */
export function externalProviderEnv(): Record<string, string> {
  standIn ??= ExternalProviderStandIn.install();
  return { ...standIn.env };
}

export const TF_ENV = { TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };

/** One synthesized stack in a temporary directory, initialised for the real `terraform`. */
export class BenchWorkspace {
  public static async synth(build: (stack: TerraformStack) => void, rewrite?: (config: any) => void): Promise<BenchWorkspace> {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-bench-'));
    const app = new App({ outdir });
    const stack = new TerraformStack(app, 'bench');
    new LocalBackend(stack, { path: 'terraform.tfstate' });
    build(stack);
    app.synth();
    const ws = new BenchWorkspace(outdir, path.join(outdir, 'stacks', 'bench'));
    if (rewrite) {
      const file = path.join(ws.dir, 'cdk.tf.json');
      const config = JSON.parse(fs.readFileSync(file, 'utf8'));
      rewrite(config);
      fs.writeFileSync(file, JSON.stringify(config, null, 2));
    }
    await runProcess('terraform', ['init', '-input=false', '-no-color'], { cwd: ws.dir, env: { ...TF_ENV, ...externalProviderEnv() } });
    return ws;
  }

  private constructor(
    public readonly outdir: string,
    public readonly dir: string,
  ) {}

  public resetState(): void {
    fs.rmSync(path.join(this.dir, 'terraform.tfstate'), { force: true });
  }

  public dispose(): void {
    fs.rmSync(this.outdir, { recursive: true, force: true });
  }
}
