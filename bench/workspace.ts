import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { runProcess } from './processes';

export const TF_ENV = { TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };

/**
 * One synthesized stack in a temporary directory, initialised for the real
 * `terraform`: synth lays the library's provider out in the stack's folder,
 * so `terraform init` installs it offline with no configuration.
 */
export class BenchWorkspace {
  public static async synth(build: (stack: TerraformStack) => void): Promise<BenchWorkspace> {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-bench-'));
    const app = new App({ outdir });
    const stack = new TerraformStack(app, 'bench');
    new LocalBackend(stack, { path: 'terraform.tfstate' });
    build(stack);
    app.synth();
    const ws = new BenchWorkspace(outdir, path.join(outdir, 'stacks', 'bench'));
    await runProcess('terraform', ['init', '-input=false', '-no-color'], { cwd: ws.dir, env: TF_ENV });
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
