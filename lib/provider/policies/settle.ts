import { retrying, type RetryOptions } from '../../api/retrying';
import { IamValidationError } from '../../iam/errors';
import { applyEdits, type PolicyEdit } from '../../iam/policy-edit';
import type { Policy } from '../../iam/types';
import { ProviderErrors } from '../errors';
import type { IamPolicyEndpoint } from '../../api/iam-policy';
import type { EditOutcome } from './engine';
import { samePolicy } from './policy-compare';

type Failure = Extract<EditOutcome, { ok: false }>;

/** A change that a settling read found in effect. */
export interface SettledChange {
  readonly etag: string;
  /** Whether this change altered the policy (false: it was already so). */
  readonly changed: boolean;
  /** How many changes were written together with this one. */
  readonly batchSize: number;
}

/**
 * Settles the failed requests of a batch whose write was sent: one fresh
 * read (retried within the `check` budget) tells, for each, whether Google
 * has the change (then it succeeded: the state Terraform saves is true). A
 * request Google refused keeps its own error. A request whose write went
 * unanswered and that the read does not show has an unknown outcome: Google's
 * reads may lag writes, so a read without the change does not prove the write
 * was not carried out; so has one when no read answers. Returns what each
 * settled request resolves or rejects with, by id.
 */
export async function settleUnanswered(
  endpoint: IamPolicyEndpoint,
  failures: readonly { readonly outcome: Failure; readonly edits: readonly PolicyEdit[] }[],
  check: RetryOptions,
): Promise<Map<string, SettledChange | Error>> {
  const settled = new Map<string, SettledChange | Error>();
  try {
    const { value: policy } = await retrying(() => endpoint.getIamPolicy(), check);
    for (const { outcome, edits } of failures) {
      if (editsInEffect(policy, edits)) {
        settled.set(outcome.id, { etag: policy.etag ?? '', changed: outcome.writeUnanswered === true, batchSize: outcome.batchSize });
      } else if (outcome.writeUnanswered) {
        settled.set(outcome.id, ProviderErrors.outcomeUnknown(`${outcome.status}: ${outcome.message}`, ProviderErrors.LAGGING_READ));
      }
    }
  } catch (error) {
    const readFailure = (error as Error)?.message ?? String(error);
    for (const { outcome } of failures) {
      if (outcome.writeUnanswered)
        settled.set(
          outcome.id,
          ProviderErrors.outcomeUnknown(`${outcome.status}: ${outcome.message}`, `a read to check it failed too (${readFailure})`),
        );
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
