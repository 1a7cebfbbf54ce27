import type { IamPolicyEndpoint } from '../../api/iam-policy';
import { ClaimIndex, type ClaimOverlap, type GrantClaims } from '../../iam/grant-claims';
import type { IamResource } from '../../iam/grant';
import type { PolicyEdit } from '../../iam/policy-edit';
import { PolicyIdentity } from '../../iam/identity';
import { BatchPace } from './batch-pace';
import { PolicyBatcher, type PolicyBatcherOptions } from './policy-batcher';
import type { RunDeclarations } from './run-declarations';

/** How a grant is named in messages (`label`), and what tells it from others (`key`: its type and grant key). */
export interface GrantLabel {
  readonly label: string;
  readonly key: string;
}

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
  /**
   * What the grants of the configuration claim (lib/iam grant-claims.ts), by policy: as this process planned or
   * applied them, and as the run's other processes recorded them; by grant (its `GrantLabel` key), with its label.
   */
  private readonly claimed = new Map<string, { readonly index: ClaimIndex<string>; readonly labels: Map<string, string> }>();
  private stopped = false;
  /** The pace of every batcher's requests and writes, counted together: Terraform's slots are shared. */
  private readonly pace = new BatchPace();

  constructor(
    private readonly calls: PolicyCalls,
    private readonly options: PolicyBatcherOptions,
  ) {}

  /** The batcher of `resource`'s policy; throws an IamValidationError for a service or version that cannot be called. */
  public async of(resource: IamResource): Promise<PolicyBatcher> {
    const key = await this.keyOf(resource);
    let batcher = this.batchers.get(key);
    if (!batcher) {
      const { endpointOf, declarations } = this.calls;
      batcher = new PolicyBatcher(endpointOf(resource), this.options, this.pace, declarations && { policy: key, declarations });
      if (this.stopped) batcher.stop();
      this.batchers.set(key, batcher);
    }
    return batcher;
  }

  /**
   * A plan of a grant that is to be (or stays) in the configuration: what it
   * grants is recorded in the run's folder (run-declarations.ts), so that in
   * `terraform apply` the apply walk's processes, started after every plan,
   * spare it from any removal whatever order they write in (no gap, not only
   * nothing lost); and what it claims is held against what the other grants
   * of the configuration claim (`claim`).
   */
  public async planned(
    resource: IamResource,
    edits: readonly PolicyEdit[],
    claims: GrantClaims,
    who: GrantLabel,
  ): Promise<{ readonly overlap: ClaimOverlap; readonly declaredBy: string }[]> {
    const policy = await this.keyOf(resource);
    this.calls.declarations?.record(policy, edits);
    return this.claimOn(policy, claims, who, PolicyIdentity.of(resource).key);
  }

  /**
   * Records what a grant about to be written claims (its values may have been
   * unknown at plan), and returns what it claims that another grant of the
   * configuration seen so far claims too, contradicting it
   * (lib/iam/grant-claims.ts), with what claimed it.
   */
  public async claim(
    resource: IamResource,
    claims: GrantClaims,
    who: GrantLabel,
  ): Promise<{ readonly overlap: ClaimOverlap; readonly declaredBy: string }[]> {
    return this.claimOn(await this.keyOf(resource), claims, who, PolicyIdentity.of(resource).key);
  }

  /**
   * `who` names the grant in messages and tells grants apart: Terraform may
   * plan one resource more than once (a replacement is planned again as a
   * create, the apply walk plans each change again), with the same values, so
   * a claim of the same grant key is the same resource's. (Two resources of
   * the same values are told apart at synth, not here.) The claims of the
   * run's other processes count too: the static validation's (every resource
   * whose values it knew, under its name as written) and other aliases'.
   */
  private claimOn(policy: string, claims: GrantClaims, who: GrantLabel, written: string): { overlap: ClaimOverlap; declaredBy: string }[] {
    let claimed = this.claimed.get(policy);
    if (!claimed) this.claimed.set(policy, (claimed = { index: new ClaimIndex(), labels: new Map() }));
    const run = this.calls.declarations;
    for (const key of new Set([policy, written])) {
      for (const other of run?.claimsSince(key) ?? []) {
        if (claimed.labels.has(other.key)) continue; // this process's own claim of that resource
        claimed.index.add(other.key, other.claims);
        claimed.labels.set(other.key, other.label);
      }
    }
    const overlaps = claimed.index
      .overlapping(claims, who.key)
      .map(({ id, overlap }) => ({ overlap, declaredBy: claimed.labels.get(id) ?? id }));
    if (!claimed.labels.has(who.key)) run?.claim(policy, claims, who);
    claimed.index.add(who.key, claims);
    claimed.labels.set(who.key, who.label);
    return overlaps;
  }

  /** Why the run's other processes cannot share what they declare with this one, once (run-declarations.ts `unavailable`). */
  public runUnavailable(): { readonly summary: string; readonly detail: string } | undefined {
    return this.calls.declarations?.unavailable();
  }

  /** A resource planned for destruction (run-declarations.ts `destroying`). */
  public plannedDestruction(): void {
    this.calls.declarations?.destroying();
  }

  /** How long a refresh re-reads a policy while Google answers a version older than this provider's own write. */
  public get staleReadBudgetMs(): number {
    return this.options.staleRead.maxElapsedMs ?? 0;
  }

  /** The identity of `resource`'s policy, its project named by id. */
  private async keyOf(resource: IamResource): Promise<string> {
    const name = (await this.calls.canonicalName?.(resource.name)) ?? resource.name;
    return PolicyIdentity.of({ ...resource, name }).key;
  }

  /** Ctrl-C: every batcher cancels what it has not sent. */
  public stop(): void {
    this.stopped = true;
    for (const batcher of this.batchers.values()) batcher.stop();
  }
}
