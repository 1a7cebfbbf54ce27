import type { IamPolicyEndpoint } from '../../api/iam-policy';
import type { IamResource } from '../../iam/grant';
import { PolicyIdentity } from '../../iam/identity';
import { BatchPace } from './batch-pace';
import { PolicyBatcher, type PolicyBatcherOptions } from './policy-batcher';
import type { RunDeclarations } from './run-declarations';

/** How the batchers reach Google, and what they learn from outside the process. */
export interface PolicyCalls {
  /** How a policy is called: lib/api's IamPolicyApi, for the provider's client. */
  readonly endpointOf: (resource: IamResource) => IamPolicyEndpoint;
  /** A resource name as one policy has it whichever form names it: a project number as its id (lib/api ProjectIds). @default - as written */
  readonly canonicalName?: (name: string) => Promise<string>;
  /** What the run's other provider processes declare (an alias is another process). @default - this process alone */
  readonly declarations?: RunDeclarations;
}

/**
 * One PolicyBatcher per policy a provider process touches, however its grants
 * reach it: a policy is its service and resource name (PolicyIdentity), with
 * a project named by its id, so grants that name it through two API versions
 * of the service (a typed grant on v1, a generic one on v1beta1), or by the
 * project's id and its number, share one batcher, one read-modify-write at a
 * time and one record of what the run declares. The batcher calls the API as
 * the first grant to reach the policy named it (every version of a service
 * serves the same policy, and every form of its name).
 */
export class PolicyBatchers {
  private readonly batchers = new Map<string, PolicyBatcher>();
  private stopped = false;
  /** The pace of every batcher's requests and writes, counted together: Terraform's slots are shared. */
  private readonly pace = new BatchPace();

  constructor(
    private readonly calls: PolicyCalls,
    private readonly options: PolicyBatcherOptions,
  ) {}

  /** The batcher of `resource`'s policy; throws an IamValidationError for a service or version that cannot be called. */
  public async of(resource: IamResource): Promise<PolicyBatcher> {
    const name = (await this.calls.canonicalName?.(resource.name)) ?? resource.name;
    const key = PolicyIdentity.of({ ...resource, name }).key;
    let batcher = this.batchers.get(key);
    if (!batcher) {
      const { endpointOf, declarations } = this.calls;
      batcher = new PolicyBatcher(endpointOf(resource), this.options, this.pace, declarations && { policy: key, declarations });
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
