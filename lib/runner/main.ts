/**
 * The runner: what Terraform runs of this library, with no shell in between.
 * - `node runner.js apply|remove`: the local-exec provisioners of the stack's
 *   grants resource, with the grant in CDKTF_GOOGLE_IAM_GRANT.
 * - `node runner.js read`: the program of an `external` data source (a
 *   plan-time lookup or a grant's etag), with the query on stdin.
 * - `node runner.js drift`: the same for a stack's drift check of one policy.
 * - `node runner.js lookup`: a Direct-form lookup, run synchronously by the
 *   synthesizing process, with the query on stdin and the answer on stdout.
 * esbuild bundles this file and everything it imports into dist/runner/main.js,
 * which dist/runner/runner.js (loader.ts) loads; TerraformAsset copies the
 * directory into cdktf.out, so no node_modules are needed.
 */
import { GoogleRestClient } from '../api/client';
import { credentialIdentity } from '../api/credentials';
import { IamPolicyApi } from '../api/iam-policy';
import { policyShapeProblem } from '../api/policy-shape';
import { serviceRootUrl } from '../api/services';
import { describeGrant, grantEdits, grantKey, grantMembers, type Grant, type GrantAction } from '../iam/grant';
import type { PolicyEdit } from '../iam/policy-edit';
import type { Policy } from '../iam/types';
import { applyEditBatch, type EditOutcome } from './engine';
import { RUNNER_ENV } from '../contract/runner-env';
import { RunnerErrors } from './errors';
import { parseGrant } from './grant-input';
import { policyEndpoint } from './policy-endpoint';
import { PolicyQueue } from './policy-queue';
import type { DriftQuery } from '../contract/drift-query';
import { runDrift } from './drift';
import { parseReadQuery, runLookup, runRead } from './read';
import { RunMarkers } from './run-markers';
import { StateDir } from './state-dir';

const PREFIX = 'cdktf-google-iam:';

/**
 * How long the lock holder waits, after its read, for a queue that grew
 * during the read and is still growing (Terraform starting more provisioners
 * of the same policy): 30 ms at a time, 150 ms at most. A lone grant never
 * waits. (At 100 ms per call and -parallelism=10: 0.36 → 0.20 IAM calls per
 * grant, see bench/.)
 */
const BATCH_SETTLE = { settleMs: 30, maxSettleMs: 150 };

let googleCalled = false;

/** Whether this process called Google (held the policy lock): loader.ts caches compiled code only from such a run. */
export function calledGoogle(): boolean {
  return googleCalled;
}

/** Applies or removes the grant in the environment; logs progress and returns whether it succeeded. */
export async function runGrant(action: GrantAction, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<boolean> {
  const grant = parseGrant(env[RUNNER_ENV.grant]);
  const label = env[RUNNER_ENV.label]?.trim() || grant.mode;
  const what = `${PREFIX} ${label} ${describeGrant(grant)}`;
  const state = StateDir.open(env);
  const rootUrl = serviceRootUrl(grant.resource.service, env);
  const markers = new RunMarkers(state, env[RUNNER_ENV.run]);
  const markerKey = JSON.stringify([rootUrl, grantKey(grant)]);

  if (action === 'remove' && markers.wasApplied(markerKey)) {
    log(`${what}: kept (this apply has just applied it again, under another address)`);
    return true;
  }

  const client = new GoogleRestClient({ env });
  const api = new IamPolicyApi(client, grant.resource);
  const endpoint = policyEndpoint(api, grant.resource.name);
  const queue = new PolicyQueue<PolicyEdit[], EditOutcome>(state, batchKey(grant, rootUrl, env), editsOrUndefined, outcomeOrUndefined);
  const run = markers.run;

  // The lock holder authenticates and reads the policy before it takes the batch: requests that queue
  // meanwhile (Terraform starts up to -parallelism provisioners at once) join its write. Within one
  // apply, the policy as the previous holder wrote it stands in for the read (see engine: assumedPolicy).
  const lead = async () => {
    googleCalled = true;
    await client.authenticate();
    const assumed = run === undefined ? undefined : queue.readNote((note) => writtenInRun(note, run));
    if (assumed) return { assumed };
    const read = endpoint.getIamPolicy();
    await read.catch(() => undefined); // a failed read is the engine's first attempt failing (and retried)
    return { read };
  };
  const outcome = await queue.submitLed(grantEdits(grant, action), { lead, ...BATCH_SETTLE }, (batch, led) =>
    applyEditBatch(
      endpoint,
      batch.map((item) => ({ id: item.id, edits: item.payload })),
      {
        maxElapsedMs: numberFromEnv(env, RUNNER_ENV.retryMaxMs),
        initialDelayMs: numberFromEnv(env, RUNNER_ENV.retryInitialMs),
        firstRead: led.read && (() => led.read),
        assumedPolicy: led.assumed,
        onWritten: run === undefined ? undefined : (policy) => queue.leaveNote({ run, policy }),
        onRetry: (error, attempt, delayMs) =>
          log(`${what}: attempt ${attempt} failed (${(error as Error).message}); retrying in ${(delayMs / 1000).toFixed(1)} s`),
      },
    ).then((outcomes) => new Map(outcomes.map((o) => [o.id, o]))),
  );

  const attempts = `${outcome.attempts} attempt${outcome.attempts === 1 ? '' : 's'}, batch of ${outcome.batchSize}`;
  if (outcome.ok) {
    if (action === 'apply') markers.markApplied(markerKey);
    log(`${what}: ${describeOutcome(grant, action, outcome.changed)} (${attempts}); etag ${outcome.etag || '-'}`);
    return true;
  }
  log(`${what}: failed to ${verb(grant, action)}: ${outcome.status}: ${outcome.message} (${attempts}); the policy was left as it was`);
  return false;
}

function verb(grant: Grant, action: GrantAction): string {
  const members = grantMembers(grant).join(', ');
  switch (grant.mode) {
    case 'member':
      return action === 'apply' ? `add ${members}` : `remove ${members}`;
    case 'binding':
      return action === 'apply' ? `set the members to [${members}]` : 'remove the binding';
    case 'policy':
      return action === 'apply' ? `set the policy's ${grant.bindings.length} bindings` : 'remove the declared bindings';
  }
}

function describeOutcome(grant: Grant, action: GrantAction, changed: boolean): string {
  const members = grantMembers(grant).join(', ');
  switch (grant.mode) {
    case 'member':
      if (action === 'apply') return changed ? `added ${members}` : `${members} was already granted`;
      return changed ? `removed ${members}` : `${members} was already absent`;
    case 'binding':
      if (action === 'apply') return changed ? `members set to [${members}]` : `members already [${members}]`;
      return changed ? 'binding removed' : 'binding was already absent';
    case 'policy':
      if (action === 'apply')
        return changed ? `bindings set (${grant.bindings.length})` : `bindings already as declared (${grant.bindings.length})`;
      return changed ? 'declared bindings removed' : 'declared bindings were already absent';
  }
}

/**
 * Requests batch together only when they target the same policy at the same
 * endpoint with the same credentials: one stack's runner must never write
 * another stack's grant with its own identity. (The queue hashes this key.)
 */
function batchKey(grant: Grant, rootUrl: string, env: NodeJS.ProcessEnv): string {
  return JSON.stringify([rootUrl, grant.resource.apiVersion, grant.resource.name, credentialIdentity(env)]);
}

const EDIT_KINDS = new Set<string>(['addMember', 'removeMember', 'setBinding', 'removeBinding', 'replaceBindings', 'replaceAuditConfigs']);

/** A queued request: a list of policy edits (their content is checked again when they are applied). */
function editsOrUndefined(value: unknown): PolicyEdit[] | undefined {
  const ok = Array.isArray(value) && value.every((e) => typeof e === 'object' && e !== null && EDIT_KINDS.has((e as PolicyEdit).kind));
  return ok ? (value as PolicyEdit[]) : undefined;
}

/** The policy a lock holder of this run left in its note (`{run, policy}`), or undefined. */
function writtenInRun(note: unknown, run: string): Policy | undefined {
  const { run: noteRun, policy } = (note ?? {}) as { run?: unknown; policy?: unknown };
  return noteRun === run && policyShapeProblem(policy) === undefined ? (policy as Policy) : undefined;
}

function outcomeOrUndefined(value: unknown): EditOutcome | undefined {
  const o = value as Partial<
    Record<'id' | 'status' | 'message' | 'etag', unknown> & Record<'ok' | 'changed', unknown> & Record<'attempts' | 'batchSize', unknown>
  > | null;
  const ok =
    typeof o === 'object' &&
    o !== null &&
    typeof o.id === 'string' &&
    typeof o.ok === 'boolean' &&
    typeof o.attempts === 'number' &&
    typeof o.batchSize === 'number' &&
    (o.ok ? typeof o.changed === 'boolean' && typeof o.etag === 'string' : typeof o.status === 'string' && typeof o.message === 'string');
  return ok ? (o as EditOutcome) : undefined;
}

function numberFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw RunnerErrors.badMilliseconds(name, raw);
  return value;
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
  const query = parseReadQuery(await readStdin());
  googleCalled = true;
  process.stdout.write(JSON.stringify(await runLookup(query, env)));
  return true;
}

/** `drift`: the drift check of one policy; the report is the only thing on stdout. */
async function driftForTerraform(env: NodeJS.ProcessEnv): Promise<boolean> {
  const query = parseReadQuery(await readStdin()) as unknown as DriftQuery;
  googleCalled = true;
  process.stdout.write(JSON.stringify(await runDrift(query, env)));
  return true;
}

function main(command: string | undefined): Promise<boolean> {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  if (command === 'apply' || command === 'remove') return runGrant(command, process.env, log);
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
