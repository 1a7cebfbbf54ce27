import { GoogleRestClient } from '../api/client';
import { credentialIdentity } from '../api/credentials';
import { GoogleApiError } from '../api/errors';
import { IamPolicyApi } from '../api/iam-policy';
import { retrying, type RetryOptions } from '../api/retrying';
import { retrySchedule } from '../api/retry-policy';
import { policyShapeProblem } from '../api/policy-shape';
import { serviceRootUrl } from '../api/services';
import { describeGrant, grantEdits, type Grant, type GrantAction } from '../iam/grant';
import { endpointGrantKey, PolicyIdentity } from '../iam/identity';
import type { PolicyEdit } from '../iam/policy-edit';
import type { Policy } from '../iam/types';
import { applyEditBatch, type EditOutcome, type IamPolicyEndpoint } from '../provider/policies/engine';
import { ContractError } from '../contract/contract-error';
import { parseAppliedGrant, parseGrant, parseGrantLabel } from '../contract/grant';
import { RUNNER_ENV } from '../contract/runner-env';
import { RunnerErrors } from './errors';
import { Interruption } from './interruption';
import { grantDone, grantVerb } from './grant-words';
import { PREFIX, RunnerLines } from './lines';
import { policyEndpoint } from './policy-endpoint';
import { PolicyQueue } from './policy-queue';
import { RunMarkers } from './run-markers';
import { StateDir } from './state-dir';
import { declaredByTwin } from './twins';
import { editsInEffect } from '../provider/policies/undo';

/**
 * How long the lock holder waits, after its read, for a queue that grew
 * during the read and is still growing (Terraform starting more provisioners
 * of the same policy): 30 ms at a time, 150 ms at most. A lone grant never
 * waits. (At 100 ms per call and -parallelism=10: 0.36 → 0.20 IAM calls per
 * grant, see bench/.)
 */
const BATCH_SETTLE = { settleMs: 30, maxSettleMs: 150 };

let googleCalled = false;

/** Whether this process called Google: loader.ts caches compiled code only from such a run. */
export function calledGoogle(): boolean {
  return googleCalled;
}

/**
 * The grant to apply, every value checked as the constructs check it (synth
 * cannot check values only Terraform knows); or the grant to revoke, as the
 * apply left it (lib/contract/grant.ts). Errors name the declaring constructs.
 */
function grantOf(action: GrantAction, json: string | undefined, label: string | undefined): Grant {
  if (!json) throw RunnerErrors.noGrant();
  try {
    return action === 'apply' ? parseGrant(json) : parseAppliedGrant(json);
  } catch (error) {
    throw error instanceof ContractError ? error.from(label?.trim()) : error;
  }
}

/** A failure as the engine reported it (or an error of the runner's own), for the outcome lines. */
type Failure = Extract<EditOutcome, { ok: false }>;

/**
 * Applies or removes the grant in the environment; logs progress and returns
 * whether the grant now stands as Terraform will record it.
 *
 * When it cannot report success, it says what a fresh read shows (or that
 * the outcome is unknown, and the one command that settles it); when it was
 * interrupted while creating, Terraform counts the create as failed (the grant
 * is not applied), so its own change is taken back (see supervisor.ts).
 */
export async function runGrant(
  action: GrantAction,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  interruption: Interruption = Interruption.never(),
): Promise<boolean> {
  const { label: labelText, twins } = parseGrantLabel(env[RUNNER_ENV.label]);
  const grant = grantOf(action, env[RUNNER_ENV.grant], labelText);
  const label = labelText?.trim() || grant.mode;
  const what = `${PREFIX} ${label} ${describeGrant(grant)}`;
  const state = StateDir.open(env);
  const rootUrl = serviceRootUrl(grant.resource.service, env);
  const markers = new RunMarkers(state, env[RUNNER_ENV.run], Number(env[RUNNER_ENV.terraformPid]) || process.ppid);
  const markerKey = endpointGrantKey(grant, rootUrl);

  if (action === 'remove' && markers.wasApplied(markerKey)) {
    log(RunnerLines.keptReapplied(what));
    return true;
  }
  if (action === 'remove' && declaredByTwin(grant, twins) && markers.claimTwinKeep(markerKey)) {
    log(RunnerLines.keptForTwin(what));
    return true;
  }

  const client = new GoogleRestClient({ env });
  const endpoint = policyEndpoint(new IamPolicyApi(client, grant.resource), grant.resource.name);
  const queueKey = PolicyIdentity.of(grant.resource).queueKey({ rootUrl, credentials: credentialIdentity(env) });
  const queue = new PolicyQueue<PolicyEdit[], EditOutcome>(state, queueKey, editsOrUndefined, outcomeOrUndefined);
  // Taking back an interrupted create, and the read that checks a failure, are `check`s: with the
  // request timeout (60 s) of the call in flight, an interrupted worker is done within about two minutes.
  const change = retrySchedule('change', env);
  const check = retrySchedule('check', env);
  const carryOut = (edits: PolicyEdit[], options: RetryOptions) =>
    submit(queue, client, endpoint, markers.run, edits, {
      ...options,
      onRetry: (error, attempt, delayMs) =>
        log(`${what}: attempt ${attempt} failed (${(error as Error).message}); retrying in ${(delayMs / 1000).toFixed(1)} s`),
    });
  const verify = (edits: PolicyEdit[]) => freshReadShows(endpoint, edits, check);

  const edits = grantEdits(grant, action);
  const outcome = await carryOut(edits, { ...change, stopRetrying: () => interruption.interrupted });
  const attempts = describeAttempts(outcome);
  const succeeded = (changed: boolean, etag: string | undefined) => {
    if (action === 'apply') markAppliedIfPossible(markers, markerKey, log);
    log(RunnerLines.succeeded(what, grantDone(grant, action, changed), attempts, etag));
    return true;
  };

  /** Terraform counts this create as failed, the grant as not applied: takes back this run's own change. */
  async function takeBack(): Promise<false> {
    let undo: readonly PolicyEdit[];
    if (outcome.ok) {
      if (!outcome.changed) {
        log(RunnerLines.interruptedNotOurs(what));
        return false;
      }
      undo = outcome.undo ?? grantEdits(grant, 'remove');
    } else {
      const seen = await verify(edits);
      if (seen.kind === 'absent') {
        log(RunnerLines.interruptedNothingWritten(what));
        return false;
      }
      if (seen.kind === 'unknown') {
        if (outcome.writeUnanswered) log(RunnerLines.interruptedUnknown(what, seen.readFailure));
        else log(RunnerLines.failedNothingWritten(what, grantVerb(grant, action), failureText(outcome), attempts, seen.readFailure));
        return false;
      }
      if (!outcome.undo) {
        log(RunnerLines.interruptedNotOurs(what));
        return false;
      }
      undo = outcome.undo;
    }
    const done = outcome.ok ? 'was carried out' : 'was carried out although its answer was lost';
    const takenBack = await carryOut([...undo], check);
    if (takenBack.ok) {
      log(RunnerLines.interruptedTakenBack(what, done, grantDone(grant, 'remove', takenBack.changed)));
      return false;
    }
    const after = await verify(edits);
    if (after.kind === 'absent') log(RunnerLines.interruptedTakenBack(what, done, 'a fresh read shows it gone'));
    else log(RunnerLines.interruptedUnknown(what, `${failureText(takenBack)}${after.kind === 'unknown' ? `; ${after.readFailure}` : ''}`));
    return false;
  }

  if (action === 'apply' && (interruption.interrupted || (outcome.ok && !(await interruption.successStands())))) {
    return takeBack();
  }

  if (outcome.ok) return succeeded(outcome.changed, outcome.etag);

  const failed = grantVerb(grant, action);
  const failure = failureText(outcome);
  const seen = await verify(edits);
  if (seen.kind === 'inEffect') {
    if (action === 'apply' && !(await interruption.successStands())) return takeBack();
    if (action === 'apply') markAppliedIfPossible(markers, markerKey, log);
    log(RunnerLines.answerLostButInEffect(what, grantDone(grant, action, outcome.writeUnanswered === true), failure, attempts));
    return true;
  }
  if (seen.kind === 'absent') log(RunnerLines.failedLeftAsItWas(what, failed, failure, attempts));
  else if (seen.kind === 'unknown' && outcome.writeUnanswered)
    log(RunnerLines.failedUnknown(what, action, failed, failure, attempts, seen.readFailure));
  else if (seen.kind === 'unknown') log(RunnerLines.failedNothingWritten(what, failed, failure, attempts, seen.readFailure));
  return false;
}

/**
 * Queues `edits` on the policy and resolves with their outcome. The lock
 * holder authenticates and reads the policy before it takes the batch:
 * requests that queue meanwhile (Terraform starts up to -parallelism
 * provisioners at once) join its write. Within one apply, the policy as the
 * previous holder wrote it stands in for the read (see engine: assumedPolicy).
 * An error of the runner's own (e.g. a full disk) becomes a failed outcome,
 * which the caller checks with a fresh read like any other.
 */
async function submit(
  queue: PolicyQueue<PolicyEdit[], EditOutcome>,
  client: GoogleRestClient,
  endpoint: IamPolicyEndpoint,
  run: string | undefined,
  edits: PolicyEdit[],
  retry: RetryOptions,
): Promise<EditOutcome> {
  const lead = async () => {
    googleCalled = true;
    await client.authenticate();
    const assumed = run === undefined ? undefined : queue.readNote((note) => writtenInRun(note, run));
    if (assumed) return { assumed };
    const read = endpoint.getIamPolicy();
    await read.catch(() => undefined); // a failed read is the engine's first attempt failing (and retried)
    return { read };
  };
  let writeSent = false;
  const sentWrites: IamPolicyEndpoint = {
    getIamPolicy: () => endpoint.getIamPolicy(),
    setIamPolicy: (policy, setOptions) => {
      writeSent = true;
      return endpoint.setIamPolicy(policy, setOptions);
    },
  };
  try {
    return await queue.submitLed(edits, { lead, ...BATCH_SETTLE }, (batch, led) =>
      applyEditBatch(
        sentWrites,
        batch.map((item) => ({ id: item.id, edits: item.payload })),
        {
          ...retry,
          firstRead: led.read && (() => led.read),
          assumedPolicy: led.assumed,
          onWritten: run === undefined ? undefined : (policy) => queue.leaveNote({ run, policy }),
        },
      ).then((outcomes) => new Map(outcomes.map((o) => [o.id, o]))),
    );
  } catch (error) {
    if (error instanceof GoogleApiError) throw error;
    // A write that was sent before the runner's own trouble may have been carried out.
    const message = (error as Error)?.message ?? String(error);
    return { id: '-', ok: false, status: 'INTERNAL', message, attempts: 0, batchSize: 1, ...(writeSent ? { writeUnanswered: true } : {}) };
  }
}

/** What a fresh read (retried within the budget) shows of `edits`: in effect, not, or no read could tell. */
async function freshReadShows(
  endpoint: IamPolicyEndpoint,
  edits: PolicyEdit[],
  retry: RetryOptions,
): Promise<{ kind: 'inEffect' | 'absent' } | { kind: 'unknown'; readFailure: string }> {
  try {
    const { value } = await retrying(() => endpoint.getIamPolicy(), retry);
    return { kind: editsInEffect(value, edits) ? 'inEffect' : 'absent' };
  } catch (error) {
    return { kind: 'unknown', readFailure: `the last read: ${(error as Error)?.message ?? String(error)}` };
  }
}

function markAppliedIfPossible(markers: RunMarkers, markerKey: string, log: (line: string) => void): void {
  try {
    markers.markApplied(markerKey);
  } catch (error) {
    // Only a revoke later in this same apply (a grant that moved addresses) reads the marker.
    log(`${PREFIX} warning: could not note the grant as applied in this run (${(error as Error).message})`);
  }
}

function describeAttempts(outcome: EditOutcome): string {
  return `${outcome.attempts} attempt${outcome.attempts === 1 ? '' : 's'}, batch of ${outcome.batchSize}`;
}

function failureText(outcome: Failure): string {
  return `${outcome.status}: ${outcome.message}`;
}

const EDIT_KINDS = new Set<string>(['addMember', 'removeMember', 'setBinding', 'removeBinding', 'replaceBindings', 'replaceAuditConfigs']);

/** A list of policy edits (their content is checked again when they are applied). */
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
    Record<'id' | 'status' | 'message' | 'etag', unknown> &
      Record<'ok' | 'changed' | 'writeUnanswered', unknown> &
      Record<'attempts' | 'batchSize', unknown> &
      Record<'undo', unknown>
  > | null;
  const ok =
    typeof o === 'object' &&
    o !== null &&
    typeof o.id === 'string' &&
    typeof o.ok === 'boolean' &&
    typeof o.attempts === 'number' &&
    typeof o.batchSize === 'number' &&
    (o.undo === undefined || editsOrUndefined(o.undo) !== undefined) &&
    (o.writeUnanswered === undefined || typeof o.writeUnanswered === 'boolean') &&
    (o.ok ? typeof o.changed === 'boolean' && typeof o.etag === 'string' : typeof o.status === 'string' && typeof o.message === 'string');
  return ok ? (o as EditOutcome) : undefined;
}
