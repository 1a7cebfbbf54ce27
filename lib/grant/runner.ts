/**
 * The deploy-time runner: Terraform's local-exec provisioners call
 * `node runner.js apply|remove` with the grant spec in CDKTF_GOOGLE_IAM_GRANT.
 * esbuild bundles this file and everything it imports into dist/runner/main.js,
 * which dist/runner/runner.js (runner-loader.ts) loads; TerraformAsset copies
 * the directory into cdktf.out, so no node_modules are needed.
 */
import * as os from 'os';
import * as path from 'path';
import { GoogleRestClient } from '../api/client';
import { IamPolicyApi } from '../api/iam-policy';
import { serviceRootUrl } from '../api/services';
import { applyEditBatch, type EditOutcome, type EditRequest } from './engine';
import { describeGrant, grantEdit, parseGrantSpec, type GrantAction, type GrantSpec } from './grant-spec';
import { PolicyQueue } from './policy-queue';
import { resourceTypeByKey } from './resource-type';
import { RUNNER_ENV } from './runner-env';

const PREFIX = 'cdktf-google-iam:';

let googleCalled = false;

/** Whether this process called Google (held the policy lock): runner-loader.ts caches compiled code only from such a run. */
export function calledGoogle(): boolean {
  return googleCalled;
}

export async function runGrant(action: GrantAction, env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<boolean> {
  const spec = parseGrantSpec(env[RUNNER_ENV.spec]);
  const type = resourceTypeByKey(spec.type);
  const label = spec.label ?? type.nameFormat.label;
  const client = new GoogleRestClient({ env });
  const api = new IamPolicyApi(client, type);
  const queue = new PolicyQueue<EditRequest['edits'], EditOutcome>(stateDir(env), policyKey(spec, serviceRootUrl(type.service, env), env));

  const outcome = await queue.submit([grantEdit(spec, action)], (batch) => {
    googleCalled = true;
    return applyEditBatch(api, spec.resource, batch.map((item) => ({ id: item.id, edits: item.payload })), {
      maxElapsedMs: numberFromEnv(env, RUNNER_ENV.retryMaxMs),
      initialDelayMs: numberFromEnv(env, RUNNER_ENV.retryInitialMs),
      onRetry: (error, attempt, delayMs) =>
        log(`${PREFIX} ${label} ${describeGrant(spec)}: attempt ${attempt} failed (${(error as Error).message}); retrying in ${(delayMs / 1000).toFixed(1)} s`),
    }).then((outcomes) => new Map(outcomes.map((o) => [o.id, o])));
  }, () => client.authenticate());

  const what = describeChange(spec, action, outcome.ok && outcome.changed);
  const attempts = `${outcome.attempts} attempt${outcome.attempts === 1 ? '' : 's'}, batch of ${outcome.batchSize}`;
  if (outcome.ok) {
    log(`${PREFIX} ${label} ${describeGrant(spec)}: ${what} (${attempts}); etag ${outcome.etag || '-'}`);
    return true;
  }
  log(`${PREFIX} ${label} ${describeGrant(spec)}: failed to ${verb(spec, action)}: ${outcome.status}: ${outcome.message} (${attempts}); the policy was left as it was`);
  return false;
}

function verb(spec: GrantSpec, action: GrantAction): string {
  const members = spec.members.join(', ');
  if (spec.mode === 'binding') return action === 'apply' ? `set the members to [${members}]` : 'remove the binding';
  return action === 'apply' ? `add ${members}` : `remove ${members}`;
}

function describeChange(spec: GrantSpec, action: GrantAction, changed: boolean): string {
  const members = spec.members.join(', ');
  if (spec.mode === 'binding') {
    if (action === 'apply') return changed ? `members set to [${members}]` : `members already [${members}]`;
    return changed ? 'binding removed' : 'binding was already absent';
  }
  if (action === 'apply') return changed ? `added ${members}` : `${members} was already granted`;
  return changed ? `removed ${members}` : `${members} was already absent`;
}

/**
 * Requests batch together only when they target the same policy at the same
 * endpoint with the same credentials: one stack's runner must never write
 * another stack's grant with its own identity.
 */
function policyKey(spec: GrantSpec, rootUrl: string, env: NodeJS.ProcessEnv): string {
  const identity = env.GOOGLE_OAUTH_ACCESS_TOKEN ?? env.GOOGLE_APPLICATION_CREDENTIALS ?? 'adc';
  return JSON.stringify([rootUrl, spec.resource, identity]);
}

function stateDir(env: NodeJS.ProcessEnv): string {
  return env[RUNNER_ENV.stateDir] ?? path.join(os.tmpdir(), 'cdktf-google-iam');
}

function numberFromEnv(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number of milliseconds (got ${JSON.stringify(raw)})`);
  return value;
}

function parseAction(arg: string | undefined): GrantAction {
  if (arg === 'apply' || arg === 'remove') return arg;
  throw new Error(`usage: runner.js apply|remove (got ${JSON.stringify(arg)})`);
}

if (require.main === module) {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  Promise.resolve()
    .then(() => runGrant(parseAction(process.argv[2]), process.env, log))
    .then(
      (ok) => process.exit(ok ? 0 : 1),
      (error: Error) => {
        process.stderr.write(`${PREFIX} ${error.message}\n`);
        process.exit(1);
      },
    );
}
