import type { GoogleRestClient } from '../../api/client';
import { IamPolicyApi } from '../../api/iam-policy';
import type { IamResource } from '../../iam/grant';
import { BatchPace } from './batch-pace';
import { PolicyBatcher, type PolicyBatcherOptions } from './policy-batcher';

/**
 * One PolicyBatcher per policy a provider process touches. A policy is its
 * service, API version and name (one process has one set of credentials and
 * endpoints), and the getIamPolicy method it is read with.
 */
export class PolicyBatchers {
  private readonly batchers = new Map<string, PolicyBatcher>();
  private stopped = false;
  /** The pace of every batcher's requests and writes, counted together: Terraform's slots are shared. */
  private readonly pace = new BatchPace();

  constructor(
    private readonly client: GoogleRestClient,
    private readonly options: PolicyBatcherOptions,
  ) {}

  /** The batcher of `resource`'s policy; throws an IamValidationError for a service or version that cannot be called. */
  public of(resource: IamResource): PolicyBatcher {
    const key = JSON.stringify([resource.service, resource.apiVersion, resource.name, resource.getIamPolicyMethod ?? '']);
    let batcher = this.batchers.get(key);
    if (!batcher) {
      batcher = new PolicyBatcher(new IamPolicyApi(this.client, resource), this.options, this.pace);
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
