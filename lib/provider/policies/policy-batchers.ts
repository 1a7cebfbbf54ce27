import type { IamPolicyEndpoint } from '../../api/iam-policy';
import { ClaimIndex, claimOverlap, type ClaimOverlap, type GrantClaims } from '../../iam/grant-claims';
import { shortDigest } from '../../iam/digest';
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

/** What the grants of the configuration claim on one policy, as one process knows them. */
interface PolicyClaims {
  /** By claim id (`claimId`: grant key and claims). */
  readonly index: ClaimIndex<string>;
  /** Claim id → how messages name its resource. */
  readonly labels: Map<string, string>;
  /** Grant key → the claims the static validation first recorded under it. */
  readonly statics: Map<string, GrantClaims>;
  /** Grant key → what a second resource of that key claims against the first (the static validation recorded it twice). */
  readonly twins: Map<string, ClaimOverlap | undefined>;
}

/** How the batchers reach Google, and what they learn from outside the process. */
export interface PolicyCalls {
  /** How a policy is called: lib/api's IamPolicyApi, for the provider's client. */
  readonly endpointOf: (resource: IamResource) => IamPolicyEndpoint;
  /** A resource name of `service` as one policy has it whichever form names it: a project number as its id (lib/api ProjectIds), a bucket's `projects/_/buckets/x` as `b/x`. @default - as written */
  readonly canonicalName?: (service: string, name: string) => Promise<string>;
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
  private readonly claimed = new Map<string, PolicyClaims>();
  /** The identity keys of the policies named as other processes recorded them (`canonicalKey`). */
  private readonly canonicalKeys = new Map<string, string>();
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
    return this.claimOn(policy, claims, who);
  }

  /** A grant the run leaves as it is, in the apply of a saved plan: no removal of the process takes what it grants away. */
  public async unchanged(resource: IamResource, edits: readonly PolicyEdit[]): Promise<void> {
    (await this.of(resource)).declareUnchanged(edits);
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
    return this.claimOn(await this.keyOf(resource), claims, who);
  }

  /**
   * `who` names the grant in messages and tells grants apart: Terraform may
   * plan one resource more than once (a replacement is planned again as a
   * create, the apply walk plans each change again), with the same values, so
   * a claim of the same grant key is the same resource's. The claims of the
   * run's other processes count too: the static validation's (every resource
   * whose values it knew, under its name as written, so each name recorded is
   * canonicalized first), in which two records of one key are two resources
   * (the same values twice, or two bindings of one role), and other aliases'.
   */
  private async claimOn(policy: string, claims: GrantClaims, who: GrantLabel): Promise<{ overlap: ClaimOverlap; declaredBy: string }[]> {
    let claimed = this.claimed.get(policy);
    if (!claimed)
      this.claimed.set(policy, (claimed = { index: new ClaimIndex(), labels: new Map(), statics: new Map(), twins: new Map() }));
    const run = this.calls.declarations;
    for (const written of run?.claimedPolicies() ?? []) {
      if ((await this.canonicalKey(written)) !== policy) continue;
      for (const other of run!.claimsSince(written)) {
        const first = claimed.statics.get(other.key);
        if (other.static && first && !claimed.twins.has(other.key)) claimed.twins.set(other.key, claimOverlap(first, other.claims));
        if (other.static && !first) claimed.statics.set(other.key, other.claims);
        const id = claimId(other.key, other.claims);
        if (claimed.labels.has(id)) continue; // this process's own claim of that resource, or one already known
        claimed.index.add(id, other.claims);
        claimed.labels.set(id, other.label);
      }
    }
    const own = claimId(who.key, claims);
    const twin = claimed.twins.get(who.key);
    const overlaps = claimed.index
      .overlapping(claims, own)
      // Another resource of this grant key: the static validation's twin says it once (below), when it saw both.
      .filter(({ id }) => !(twin && keyOfClaimId(id) === who.key))
      .map(({ id, overlap }) => ({ overlap, declaredBy: claimed.labels.get(id) ?? keyOfClaimId(id) }));
    if (twin) overlaps.push({ overlap: twin, declaredBy: who.label });
    if (!claimed.labels.has(own)) run?.claim(policy, claims, who);
    claimed.index.add(own, claims);
    claimed.labels.set(own, who.label);
    return overlaps;
  }

  /** The identity key of a policy another process recorded under its name as written: its project named by id. */
  private async canonicalKey(written: string): Promise<string> {
    let key = this.canonicalKeys.get(written);
    if (key === undefined) {
      const colon = written.indexOf(':');
      const [service, name] = [written.slice(0, colon), written.slice(colon + 1)];
      // A project number that cannot be looked up is left as written (a claim under it then goes unnoticed, as before).
      const canonical = await Promise.resolve(this.calls.canonicalName?.(service, name)).catch(() => undefined);
      key = PolicyIdentity.of({ service, apiVersion: '', name: canonical ?? name }).key;
      this.canonicalKeys.set(written, key);
    }
    return key;
  }

  /** Why the run's other processes cannot share what they declare with this one, once (run-declarations.ts `unavailable`). */
  public runUnavailable(): { readonly summary: string; readonly detail: string } | undefined {
    return this.calls.declarations?.unavailable();
  }

  /**
   * A resource planned for destruction (run-declarations.ts `destroying`), unless the command is known not to
   * destroy (`destroys` false): then it is a resource the configuration no longer holds, and what the run's
   * earlier walks declared (the static validation's, the configuration) still stands.
   */
  public plannedDestruction(destroys: boolean | undefined): void {
    if (destroys !== false) this.calls.declarations?.destroying();
  }

  /** How long a refresh re-reads a policy while Google answers a version older than this provider's own write. */
  public get staleReadBudgetMs(): number {
    return this.options.staleRead.maxElapsedMs ?? 0;
  }

  /** The identity of `resource`'s policy, its project named by id. */
  private async keyOf(resource: IamResource): Promise<string> {
    const name = (await this.calls.canonicalName?.(resource.service, resource.name)) ?? resource.name;
    return PolicyIdentity.of({ ...resource, name }).key;
  }

  /** Ctrl-C: every batcher cancels what it has not sent. */
  public stop(): void {
    this.stopped = true;
    for (const batcher of this.batchers.values()) batcher.stop();
  }
}

/**
 * How the claim index tells resources apart: by grant key, and by what they claim. Terraform plans a resource
 * more than once a run with the same values, so the same key and claims are the same resource again; two
 * resources of one key (a principal's roles declared twice, once with other roles) claim differently, and each
 * must be seen by the grants it contradicts, not replaced by the other.
 */
function claimId(key: string, claims: GrantClaims): string {
  return `${key}\n${shortDigest(claims.claims.join('\n'), 16)}`;
}

function keyOfClaimId(id: string): string {
  return id.slice(0, id.lastIndexOf('\n'));
}
