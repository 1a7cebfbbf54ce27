/**
 * `npm run demo`: the library working end to end with no Google account.
 * Starts the embedded emulator, synthesizes the example app, runs the real
 * `terraform` on both stacks (grants, then plan-time lookups), shows drift
 * as the plan's change and repairs it with a plain apply, and destroys. It
 * prints what a user looks at: the policies, the planned change, and the
 * results of both lookup forms. `npm run demo -- --verbose` also prints
 * everything Terraform says.
 *
 * Nothing is downloaded: synth lays the library's own provider out in each
 * stack's folder, where `terraform init` finds it offline. The demo runs
 * terraform with an empty CLI configuration, so nothing of the machine's
 * (an explicit `provider_installation`) gets in the way.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GoogleLookups } from '../lib';
import { AUTHORIZATION_POLICY, EXAMPLE_CONTEXT_FILE, IMPORT_JOB, MIGRATION_JOB, PROJECT, buildExampleApp } from './app';
import { startSeededEmulator } from './emulated';

const VERBOSE = process.argv.includes('--verbose');
const OUTDIR = process.env.DEMO_OUTDIR ?? path.join(__dirname, '..', 'cdktf.out');
const stackDir = (stack: string) => path.join(OUTDIR, 'stacks', stack);
const print = (text: string) => process.stdout.write(`${text}\n`);

function step(title: string): void {
  print(`\n=== ${title}`);
}

/**
 * Runs a command line through `sh` in a stack's folder, as a user would type
 * it (answering "yes" if asked); its output is shown only with --verbose.
 */
function shell(stack: string, commandLine: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (VERBOSE) print(`$ (cd ${path.relative(process.cwd(), stackDir(stack))} && ${commandLine})`);
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', commandLine], { cwd: stackDir(stack), env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk;
      if (VERBOSE) process.stdout.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.stdin.end('yes\n');
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${commandLine} in ${stack} exited with ${code}:\n${output}`)),
    );
  });
}

/**
 * What a plan would change: its `# <address> will be …` lines, the attributes that change (`~ name = …`) and
 * the list elements that do (`+ "…"`, `- "…"`).
 */
function plannedChanges(plan: string): string[] {
  return plan.split('\n').filter((line) => /^\s+# \S+ will be /.test(line) || /^\s+[-+~] (?:"|\w+\s+=)/.test(line));
}

async function main(): Promise<void> {
  const emulator = await startSeededEmulator();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-demo-'));
  const cliConfig = path.join(scratch, 'terraform.rc');
  fs.writeFileSync(cliConfig, '');
  const env = { ...process.env, ...emulator.env(), TF_CLI_CONFIG_FILE: cliConfig, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  const showPolicies = () => {
    for (const name of [AUTHORIZATION_POLICY, MIGRATION_JOB]) {
      print(name);
      for (const b of emulator.policy(name).bindings ?? []) {
        print(`  ${b.role}${b.condition ? ` (if ${b.condition.title})` : ''}: ${(b.members ?? []).join(', ')}`);
      }
    }
  };

  try {
    step(`The local Google API emulator (${emulator.url}), with someone else's bindings`);
    showPolicies();

    step("cdktf synth of examples/app.ts; its Direct-form lookup is answered from the example's committed context file");
    Object.assign(process.env, emulator.env());
    fs.rmSync(OUTDIR, { recursive: true, force: true });
    // The demo's Terraform state lives in a temporary folder: it never mixes with a real deployment's.
    (await buildExampleApp({ outdir: OUTDIR, stateDir: scratch })).synth();
    // The lookup blocks this process, which also serves the emulator: only the context file can answer it here.
    const job = new GoogleLookups({ project: PROJECT, contextFile: EXAMPLE_CONTEXT_FILE }).getImportJob({
      ...IMPORT_JOB,
      view: 'IMPORT_JOB_VIEW_BASIC',
    });
    print(`GoogleLookups.getImportJob: ${job.displayName} is ${job.state}, so the app adds MigrationOperators`);

    step('terraform apply, stack iam-grants: the example grants join them');
    await shell('iam-grants', 'terraform init -input=false -no-color', env);
    await shell('iam-grants', 'terraform apply -auto-approve -input=false -no-color', env);
    showPolicies();

    step('Someone removes alice in the console; terraform plan shows it as a change (exit code 2)');
    const policy = emulator.policy(MIGRATION_JOB);
    emulator.addResource(MIGRATION_JOB, {
      ...policy,
      bindings: policy.bindings?.map((b) => ({ ...b, members: (b.members ?? []).filter((m) => m !== 'user:alice@example.com') })),
    });
    const plan = await shell('iam-grants', 'terraform plan -input=false -no-color -detailed-exitcode; test $? -eq 2', env);
    const changes = plannedChanges(plan);
    if (changes.length === 0) throw new Error(`the plan did not show the drift:\n${plan}`);
    print('What the plan would change, in its own words (the binding, then its attributes; + is what apply puts back):');
    print(changes.join('\n'));

    step('The repair: a plain terraform apply');
    await shell('iam-grants', 'terraform apply -auto-approve -input=false -no-color', env);
    showPolicies();
    await shell('iam-grants', 'terraform plan -input=false -no-color -detailed-exitcode', env);
    print('terraform plan: no changes');

    step('terraform apply, stack iam-lookups: the Output-form lookups read at plan time');
    await shell('iam-lookups', 'terraform init -input=false -no-color', env);
    await shell('iam-lookups', 'terraform apply -auto-approve -input=false -no-color', env);
    const outputs = JSON.parse(await shell('iam-lookups', 'terraform output -json', env)) as Record<string, { value: unknown }>;
    for (const [name, { value }] of Object.entries(outputs)) print(`${name} = ${JSON.stringify(value)}`);

    step('terraform destroy, both stacks: only the example grants go');
    await shell('iam-lookups', 'terraform destroy -auto-approve -input=false -no-color', env);
    await shell('iam-grants', 'terraform destroy -auto-approve -input=false -no-color', env);
    showPolicies();
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
