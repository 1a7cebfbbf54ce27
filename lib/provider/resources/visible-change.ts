import { GoogleApiError } from '../../api/errors';
import { notYetVisible, type NotYetVisible } from '../../api/retry-policy';
import { retrying } from '../../api/retrying';
import { describeGrant, type Grant } from '../../iam/grant';
import type { PolicyEdit } from '../../iam/policy-edit';
import { ProviderErrors } from '../errors';
import { formatDuration } from '../framework/duration';
import type { CallContext } from '../framework/resource';
import type { ChangeResult } from '../policies/policy-batcher';
import type { GoogleIamContext } from '../provider-context';

/** What a failed call says about Google's eventual consistency (retry-policy.ts `notYetVisible`). */
function notYetVisibleOf(error: unknown): NotYetVisible | undefined {
  return error instanceof GoogleApiError ? notYetVisible(error.httpStatus, error.status, error.apiMessage) : undefined;
}

/** What a grant waits for: its resource, or a service account it grants to. */
function waitedFor(grant: Grant, kind: NotYetVisible): string {
  if (kind === 'resource') return grant.resource.name;
  return grant.mode === 'member' ? grant.member : 'a service account among its members';
}

/**
 * Queues `edits` in the policy's batcher. While Google answers as it does
 * for something created moments ago (NOT_FOUND or PERMISSION_DENIED for the
 * resource, "Service account … does not exist" for a member), waits with
 * backoff within the provider's `eventual_consistency_timeout`, logging
 * each wait. Terraform cannot tell a provider which values it learned at
 * apply (it plans every change again before applying it, from the state's
 * private data), so every create and update waits the same way.
 */
export async function changeOnceVisible(
  context: CallContext<GoogleIamContext>,
  grant: Grant,
  edits: readonly PolicyEdit[],
): Promise<ChangeResult> {
  const started = Date.now();
  let attempts = 0;
  try {
    const { value } = await retrying(
      async () => {
        attempts++;
        return (await context.provider.policies.of(grant.resource)).change(edits, context.signal);
      },
      {
        ...context.provider.visibilityRetry,
        retryOn: (error) => notYetVisibleOf(error) !== undefined,
        signal: context.signal,
        onRetry: (error, attempt, delayMs) =>
          context.log(
            'warn',
            `${describeGrant(grant)}: waiting for ${waitedFor(grant, notYetVisibleOf(error)!)} to become visible to IAM`,
            {
              attempt,
              retry_in_ms: delayMs,
              waited_ms: Date.now() - started,
              budget_ms: context.provider.visibilityRetry.maxElapsedMs,
              google_error: (error as Error).message,
            },
          ),
      },
    );
    return value;
  } catch (error) {
    const kind = notYetVisibleOf(error);
    if (kind === undefined || attempts < 2) throw error;
    throw ProviderErrors.notVisible(kind, waitedFor(grant, kind), formatDuration(Date.now() - started), attempts, error as GoogleApiError);
  }
}
