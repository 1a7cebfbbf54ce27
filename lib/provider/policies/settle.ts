import { retrying, type RetryOptions } from '../../api/retrying';
import { IamValidationError } from '../../iam/errors';
import { applyEdits, type PolicyEdit } from '../../iam/policy-edit';
import type { Policy } from '../../iam/types';
import { ProviderErrors } from '../errors';
import type { EditOutcome, IamPolicyEndpoint } from './engine';
import type { ChangeResult } from './policy-batcher';
import { samePolicy } from './policy-compare';

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

/** Whether `edits` would change nothing in `policy`: what they declare is in effect there. */
export function editsInEffect(policy: Policy, edits: readonly PolicyEdit[]): boolean {
  try {
    return samePolicy(applyEdits(policy, edits), policy);
  } catch (error) {
    if (error instanceof IamValidationError) return false;
    throw error;
  }
}
