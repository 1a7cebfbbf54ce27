/**
 * The runner: what Terraform runs of this library, with no shell in between.
 * - `node runner.js grant-worker apply|remove`: the work of the local-exec
 *   provisioners of the stack's grant resources (`node runner.js apply|remove`,
 *   which loader.ts hands to supervisor.ts without loading this bundle), with
 *   the grant in CDKTF_GOOGLE_IAM_GRANT, in a process group of its own that
 *   survives Terraform's kill on Ctrl-C (supervisor.ts, grant-run.ts).
 * - `node runner.js read`: the program of an `external` data source (a
 *   plan-time lookup or a grant's etag), with the query on stdin.
 * - `node runner.js drift`: the same for a stack's drift check of one policy.
 * - `node runner.js lookup`: a Direct-form lookup, run synchronously by the
 *   synthesizing process, with the query on stdin and the answer on stdout.
 * esbuild bundles this file and everything it imports into dist/runner/main.js,
 * which dist/runner/runner.js (loader.ts) loads; TerraformAsset copies the
 * directory into cdktf.out, so no node_modules are needed.
 */
import { parseDriftQuery } from '../contract/drift-query';
import { serializeLookupAnswer } from '../contract/lookup-answer';
import { parseReadQuery } from '../contract/read-query';
import { runDrift } from './drift';
import { RunnerErrors } from './errors';
import { calledGoogle as grantCalledGoogle, runGrant } from './grant-run';
import { Interruption } from './interruption';
import { PREFIX } from './lines';
import { runLookup, runRead } from './read';
import { WorkerReports } from './reports';
import { StateDir } from './state-dir';
import { WORKER_COMMAND } from './supervisor';

let googleCalled = false;

/** Whether this process called Google: loader.ts caches compiled code only from such a run. */
export function calledGoogle(): boolean {
  return googleCalled || grantCalledGoogle();
}

/** The worker of one grant: its lines go to the supervisor, or, once that is gone, into a report for the next run. */
async function grantWorker(action: string | undefined, log: (line: string) => void): Promise<boolean> {
  if (action !== 'apply' && action !== 'remove') throw RunnerErrors.usage(`${WORKER_COMMAND} ${action}`);
  const interruption = Interruption.fromSupervisor();
  const lines: string[] = [];
  process.stdout.on('error', () => undefined); // the supervisor is gone; the report keeps the lines
  const keep = (line: string) => {
    lines.push(line);
    log(line);
  };
  try {
    return await runGrant(action, process.env, keep, interruption);
  } catch (error) {
    lines.push(`${PREFIX} ${(error as Error).message}`);
    throw error;
  } finally {
    if (interruption.supervisorGone) new WorkerReports(StateDir.open(process.env)).save(lines);
  }
}

/** `read`: one plan-time read for the `external` data source; the result is the only thing on stdout. */
async function readForTerraform(env: NodeJS.ProcessEnv): Promise<boolean> {
  const query = parseReadQuery(await readStdin());
  try {
    googleCalled = true;
    process.stdout.write(JSON.stringify(await runRead(query, env)));
    return true;
  } catch (error) {
    throw new Error(`${query.label ? `${query.label}: ` : ''}${(error as Error).message}`);
  }
}

function readStdin(): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    process.stdin.on('data', (chunk: Buffer) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

/** `lookup`: a Direct-form read for the synthesizing process; the answer (the value or the error) is the only thing on stdout. */
async function lookupForSynth(env: NodeJS.ProcessEnv): Promise<boolean> {
  const query = await readStdin();
  googleCalled = true;
  process.stdout.write(serializeLookupAnswer(await runLookup(query, env)));
  return true;
}

/** `drift`: the drift check of one policy; the report is the only thing on stdout. */
async function driftForTerraform(env: NodeJS.ProcessEnv): Promise<boolean> {
  const query = parseDriftQuery(await readStdin());
  googleCalled = true;
  process.stdout.write(JSON.stringify(await runDrift(query, env)));
  return true;
}

function main(command: string | undefined): Promise<boolean> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  if (command === WORKER_COMMAND) return grantWorker(process.argv[3], log);
  if (command === 'read') return readForTerraform(process.env);
  if (command === 'drift') return driftForTerraform(process.env);
  if (command === 'lookup') return lookupForSynth(process.env);
  return Promise.reject(RunnerErrors.usage(command));
}

if (require.main === module) {
  main(process.argv[2]).then(
    (ok) => process.exit(ok ? 0 : 1),
    (error: Error) => {
      process.stderr.write(`${PREFIX} ${error.message}\n`);
      process.exit(1);
    },
  );
}
