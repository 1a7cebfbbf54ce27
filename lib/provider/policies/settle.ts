import { retrying, type RetryOptions } from '../../api/retrying';
import type { PolicyEdit } from '../../iam/policy-edit';
import { ProviderErrors } from '../errors';
import type { EditOutcome, IamPolicyEndpoint } from './engine';
import type { ChangeResult } from './policy-batcher';
import { editsInEffect } from './undo';

type Failure = Extract<EditOutcome, { ok: false }>;

/**
 * Settles the failed requests of a batch whose write was sent: one fresh
 * read (retried within the `check` budget) tells, for each, whether Google
 * has the change (then it succeeded: the state Terraform saves is true) or
 * not (it failed, nothing of it written). When no read answers, a request
 * whose write went unanswered has an unknown outcome, and says so; the others
 * keep their own error. Returns what each settled request resolves or rejects with, by id.
 */
export async function settleUnanswered(
  endpoint: IamPolicyEndpoint,
  failures: readonly { readonly outcome: Failure; readonly edits: readonly PolicyEdit[] }[],
  check: RetryOptions,
): Promise<Map<string, ChangeResult | Error>> {
  const settled = new Map<string, ChangeResult | Error>();
  try {
    const { value: policy } = await retrying(() => endpoint.getIamPolicy(), check);
    for (const { outcome, edits } of failures) {
      if (editsInEffect(policy, edits)) {
        settled.set(outcome.id, { etag: policy.etag ?? '', changed: outcome.writeUnanswered === true, batchSize: outcome.batchSize });
      }
    }
  } catch (error) {
    const readFailure = (error as Error)?.message ?? String(error);
    for (const { outcome } of failures) {
      if (outcome.writeUnanswered)
        settled.set(outcome.id, ProviderErrors.outcomeUnknown(`${outcome.status}: ${outcome.message}`, readFailure));
    }
  }
  return settled;
}
