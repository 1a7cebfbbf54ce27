import type { GrantAction } from '../iam/grant';

/** The prefix of every line the runner prints. */
export const PREFIX = 'cdktf-google-iam:';

/** What Terraform records when a run of the runner cannot report success, and the one command that settles it. */
const SETTLE: Record<GrantAction, string> = {
  apply:
    'Terraform records this grant as not created and will not revoke it by itself: run terraform apply (cdktf deploy) again once Google answers. ' +
    'It applies the grant again, after which Terraform tracks it (and deleting it from the code revokes it)',
  remove:
    'Terraform keeps this grant in its state: run terraform apply or terraform destroy (whichever you ran) again once Google answers; it removes the grant again',
};

/** The wording of the runner's progress and outcome lines, in one place. */
export const RunnerLines = {
  interrupted: (signal: string, workerPid: number | undefined) =>
    `${PREFIX} ${signal}: the grant in progress is finished by its worker (process ${workerPid ?? '?'}) and, if it was being created, taken back; ` +
    'its outcome follows here, or, if terraform has stopped listening, in the output of the next run of any grant',
  succeeded: (what: string, done: string, attempts: string, etag: string | undefined) =>
    `${what}: ${done} (${attempts}); etag ${etag || '-'}`,
  answerLostButInEffect: (what: string, done: string, failure: string, attempts: string) =>
    `${what}: ${done} (${attempts}): the answer to the write was lost (${failure}), and a fresh read shows the change in effect`,
  failedLeftAsItWas: (what: string, failed: string, failure: string, attempts: string) =>
    `${what}: failed to ${failed}: ${failure} (${attempts}); a fresh read shows the change is not in the policy: the policy was left as it was`,
  failedNothingWritten: (what: string, failed: string, failure: string, attempts: string, readFailure: string) =>
    `${what}: failed to ${failed}: ${failure} (${attempts}); nothing of it was written (Google refused every write, or none was sent), though no fresh read could confirm it (${readFailure})`,
  failedUnknown: (what: string, action: GrantAction, failed: string, failure: string, attempts: string, readFailure: string) =>
    `${what}: failed to ${failed}: ${failure} (${attempts}). The outcome is UNKNOWN: a write was sent and no answer said whether Google carried it out, ` +
    `and no read since could tell (${readFailure}). ${SETTLE[action]}`,
  interruptedTakenBack: (what: string, done: string, undone: string) =>
    `${what}: interrupted, so Terraform counts this create as failed: the write in flight ${done}, and has been taken back (${undone}); the next terraform apply grants it again`,
  interruptedNotOurs: (what: string) =>
    `${what}: interrupted, so Terraform counts this create as failed; the grant was already in place before this run wrote anything, so nothing was taken back, and the next terraform apply records it again`,
  interruptedNothingWritten: (what: string) =>
    `${what}: interrupted, so Terraform counts this create as failed; a fresh read shows the change is not in the policy: the policy was left as it was`,
  interruptedUnknown: (what: string, reason: string) =>
    `${what}: interrupted, so Terraform counts this create as failed, and the write in flight may have been carried out; it could not be taken back (${reason}). ` +
    `The outcome is UNKNOWN. ${SETTLE.apply}`,
  keptReapplied: (what: string) => `${what}: kept (this apply has just applied it again, under another address)`,
  keptForTwin: (what: string) =>
    `${what}: kept: another grant of this stack declared the same at the last apply (with values only Terraform knew); ` +
    'if it goes in this apply too, its removal revokes it',
  earlierReport: (report: string) => `${PREFIX} a run interrupted earlier reported:\n${report}`,
} as const;
