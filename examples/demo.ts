/**
 * `npm run demo`: the library working end to end with no Google account.
 * Starts the embedded emulator, synthesizes the example app, runs the real
 * `terraform apply` on the grants stack, prints the policies, destroys, and
 * prints them again.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AUTHORIZATION_POLICY, MIGRATION_JOB, buildExampleApp } from './app';
import { startSeededEmulator } from './emulated';

const OUTDIR = path.join(__dirname, '..', 'cdktf.out');
const STACK_DIR = path.join(OUTDIR, 'stacks', 'iam-grants');

function step(title: string): void {
  process.stdout.write(`\n=== ${title}\n`);
}

function terraform(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  process.stdout.write(`$ terraform ${args.join(' ')}\n`);
  return new Promise((resolve, reject) => {
    const child = spawn('terraform', args, { cwd: STACK_DIR, env, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`terraform ${args[0]} exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  step('Starting the local Google API emulator');
  const emulator = await startSeededEmulator();
  process.stdout.write(`emulator at ${emulator.url}\n`);
  const env = {
    ...process.env,
    ...emulator.env(),
    CDKTF_GOOGLE_IAM_STATE_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-demo-')),
    TF_IN_AUTOMATION: '1',
    CHECKPOINT_DISABLE: '1',
  };
  const showPolicies = (when: string) => {
    step(`Policies ${when}`);
    for (const name of [AUTHORIZATION_POLICY, MIGRATION_JOB]) {
      process.stdout.write(`${name}\n${JSON.stringify(emulator.policy(name), null, 2)}\n`);
    }
  };

  try {
    showPolicies('before apply');
    step('Synthesizing examples/app.ts');
    Object.assign(process.env, emulator.env());
    fs.rmSync(OUTDIR, { recursive: true, force: true });
    (await buildExampleApp(OUTDIR)).synth();
    process.stdout.write(`synthesized into ${path.relative(process.cwd(), OUTDIR)}/stacks/{iam-grants,iam-lookups}\n`);

    step('terraform apply (stack iam-grants)');
    await terraform(['init', '-input=false', '-no-color'], env);
    await terraform(['apply', '-auto-approve', '-input=false', '-no-color'], env);
    showPolicies('after apply');

    step('terraform destroy');
    await terraform(['destroy', '-auto-approve', '-input=false', '-no-color'], env);
    showPolicies('after destroy (only the grants made by the example are gone)');
    const stats = emulator.stats();
    step(`Done: ${stats.getIamPolicy} getIamPolicy and ${stats.setIamPolicy} setIamPolicy calls reached the emulator`);
  } finally {
    await emulator.close();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`demo failed: ${error.message}\n`);
  process.exit(1);
});
