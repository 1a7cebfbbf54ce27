import type { IamPolicyEndpoint } from '../../api/iam-policy';
import type { IamResource } from '../../iam/grant';
import { PolicyIdentity } from '../../iam/identity';
import { BatchPace } from './batch-pace';
import { PolicyBatcher, type PolicyBatcherOptions } from './policy-batcher';
import type { RunDeclarations } from './run-declarations';

/**
 * One PolicyBatcher per policy a provider process touches, however its grants
 * reach it: a policy is its service and resource name (PolicyIdentity), so
 * grants that name it through two API versions of the service (a typed grant
 * on v1, a generic one on v1beta1) share one batcher, one read-modify-write
 * at a time and one record of what the run declares. The batcher calls the
 * API as the first grant to reach the policy named it (every version of a
 * service serves the same policy).
 */
export class PolicyBatchers {
  private readonly batchers = new Map<string, PolicyBatcher>();
  private stopped = false;
  /** The pace of every batcher's requests and writes, counted together: Terraform's slots are shared. */
  private readonly pace = new BatchPace();

  constructor(
    /** How a policy is called: lib/api's IamPolicyApi, for the provider's client. */
    private readonly endpointOf: (resource: IamResource) => IamPolicyEndpoint,
    private readonly options: PolicyBatcherOptions,
    /** What the run's other provider processes declare (an alias is another process). @default - this process alone */
    private readonly declarations?: RunDeclarations,
  ) {}

  /** The batcher of `resource`'s policy; throws an IamValidationError for a service or version that cannot be called. */
  public of(resource: IamResource): PolicyBatcher {
    const key = PolicyIdentity.of(resource).key;
    let batcher = this.batchers.get(key);
    if (!batcher) {
      batcher = new PolicyBatcher(
        this.endpointOf(resource),
        this.options,
        this.pace,
        this.declarations && { policy: key, declarations: this.declarations },
      );
      if (this.stopped) batcher.stop();
      this.batchers.set(key, batcher);
    }
    return batcher;
  }

  /** How long a refresh re-reads a policy while Google answers a version older than this provider's own write. */
  public get staleReadBudgetMs(): number {
    return this.options.staleRead.maxElapsedMs ?? 0;
  }

  /** Ctrl-C: every batcher cancels what it has not sent. */
  public stop(): void {
    this.stopped = true;
    for (const batcher of this.batchers.values()) batcher.stop();
  }
}
