/**
 * `npm run demo`: the library working end to end with no Google account.
 * Starts the embedded emulator, synthesizes the example app, runs the real
 * `terraform` on both stacks (grants, then plan-time lookups), shows a drift
 * report and its repair, destroys, and prints the policies along the way.
 *
 * No provider can be downloaded on an offline machine: the stand-in of
 * hashicorp/external from `cdktf-google-iam/lib/testing` is installed into a
 * filesystem mirror (with a real Google account, `terraform init` downloads
 * the real provider instead).
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ExternalProviderStandIn } from '../tools/terraform-provider-external';
import { AUTHORIZATION_POLICY, MIGRATION_JOB, buildExampleApp } from './app';
import { startSeededEmulator } from './emulated';

const OUTDIR = path.join(__dirname, '..', 'cdktf.out');
const stackDir = (stack: string) => path.join(OUTDIR, 'stacks', stack);

function step(title: string): void {
  process.stdout.write(`\n=== ${title}\n`);
}

/** Runs terraform in a stack's folder, echoing its output; resolves with that output. */
function terraform(stack: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  process.stdout.write(`$ (cd cdktf.out/stacks/${stack} && terraform ${args.join(' ')})\n`);
  return new Promise((resolve, reject) => {
    const child = spawn('terraform', args, { cwd: stackDir(stack), env, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`terraform ${args[0]} in ${stack} exited with ${code}`))));
  });
}

async function main(): Promise<void> {
  step('Starting the local Google API emulator');
  const emulator = await startSeededEmulator();
  process.stdout.write(`emulator at ${emulator.url}\n`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-demo-'));
  const env = {
    ...process.env,
    ...emulator.env(),
    ...ExternalProviderStandIn.install().env,
    CDKTF_GOOGLE_IAM_STATE_DIR: fs.mkdtempSync(path.join(scratch, 'runner-')),
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
    step('Synthesizing examples/app.ts (the Direct-form lookup reads the import job now)');
    Object.assign(process.env, emulator.env());
    fs.rmSync(OUTDIR, { recursive: true, force: true });
    // The demo's Terraform state lives in a temporary folder: it never mixes with a real deployment's.
    (await buildExampleApp({ outdir: OUTDIR, stateDir: scratch })).synth();
    process.stdout.write('synthesized into cdktf.out/stacks/{iam-grants,iam-lookups}\n');

    step('terraform apply (stack iam-grants)');
    await terraform('iam-grants', ['init', '-input=false', '-no-color'], env);
    await terraform('iam-grants', ['apply', '-auto-approve', '-input=false', '-no-color'], env);
    showPolicies('after apply');

    step('Someone removes alice in the console; terraform plan reports it');
    const job = emulator.policy(MIGRATION_JOB);
    emulator.addResource(MIGRATION_JOB, {
      ...job,
      bindings: job.bindings?.map((b) => ({ ...b, members: (b.members ?? []).filter((m) => m !== 'user:alice@example.com') })),
    });
    const plan = await terraform('iam-grants', ['plan', '-input=false', '-no-color'], env);
    // Terraform shows the report twice: as the checked value (quotes escaped) and as the message.
    const repair = [...plan.replace(/\s*\n\s*/g, ' ').matchAll(/Repair: terraform apply -replace='([^']+)'/g)]
      .map((m) => m[1])
      .find((a) => !a.includes('\\'));
    if (!repair) throw new Error('the plan did not report the drift');
    step('The repair the plan names');
    await terraform('iam-grants', ['apply', '-auto-approve', '-input=false', '-no-color', `-replace=${repair}`], env);

    step('terraform apply (stack iam-lookups: plan-time reads through the runner)');
    await terraform('iam-lookups', ['init', '-input=false', '-no-color'], env);
    await terraform('iam-lookups', ['apply', '-auto-approve', '-input=false', '-no-color'], env);

    step('terraform destroy (both stacks)');
    await terraform('iam-lookups', ['destroy', '-auto-approve', '-input=false', '-no-color'], env);
    await terraform('iam-grants', ['destroy', '-auto-approve', '-input=false', '-no-color'], env);
    showPolicies('after destroy (only the grants made by the example are gone)');
    const stats = emulator.stats();
    step(`Done: ${stats.getIamPolicy} getIamPolicy and ${stats.setIamPolicy} setIamPolicy calls reached the emulator`);
  } finally {
    await emulator.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  process.stderr.write(`demo failed: ${error.message}\n`);
  process.exit(1);
});
