import type { IResolvable, TerraformDataSource } from 'cdktf';
import { Construct } from 'constructs';
import { validateLocatedResource, validatePolicyVersion, type LocatedResource } from '../iam/located-resource';
import type { IamResourceType } from '../grant/resource-type';
import { checkAt } from '../synth/errors';
import { isKnown } from '../synth/known-values';
import { useGoogleIamProvider } from '../grant/default-provider';

/** What every IAM policy data source of the provider has (`googleiam_*_iam_policy`). @internal */
export type PolicyDataSource = TerraformDataSource & {
  readonly etag: string;
  readonly version: number;
  readonly bindings: IResolvable;
  readonly auditConfigs: IResolvable;
  readonly policyData: string;
  /** The typed data sources' project (the generic one has none: the construct knows it from the name). */
  readonly project?: string;
};

/**
 * Declares a lookup's data source, of its type's generated class, as the
 * child `id` of `scope`, reading `version`. @internal
 */
export type PolicyDataSourceFactory = (scope: Construct, id: string, version: number) => PolicyDataSource;

/** What a typed Output-form lookup reads: the resource of `type` whose id is in the props field `idField`. @internal */
export interface LocatedPolicyTarget extends LocatedResource {
  readonly type: IamResourceType;
}

/** The target of a typed Output-form lookup. @internal */
export function locatedPolicyTarget(
  type: IamResourceType,
  idField: string,
  id: string,
  where: { readonly project?: string; readonly location: string },
): LocatedPolicyTarget {
  return { type, project: where.project, location: where.location, id, idField };
}

/**
 * The Output form of the `get*IamPolicy` lookups: the provider's IAM policy
 * data source, read at plan time (no credential reaches the plan or the
 * state), so its attributes are Terraform expressions usable in other
 * resources. Validates what is known at synth first.
 *
 * jsii erases this base class: its public members appear on each `Data*IamPolicy` construct.
 *
 * @internal
 */
export abstract class DataIamPolicyRead extends Construct {
  /** The project that is read: the one given, else the provider's default project (a Terraform expression then). */
  public readonly project: string;
  /** The policy version requested: 0, 1 or 3. */
  public readonly optionsRequestedPolicyVersion: number;
  /** Etag of the policy. */
  public readonly etag: string;
  /** Policy version: 0, 1 or 3 (null when the resource has no policy). */
  public readonly version: number;
  /**
   * The bindings, as a list of `{role, members, condition}` objects (null when none); a condition has
   * `expression`, `title`, `description` and `location` (null when unconditional). A field Google did not send is null.
   */
  public readonly bindings: IResolvable;
  /** The audit configs, as a list of `{service, audit_log_configs: [{log_type, exempted_members}]}` objects (null when none; a field Google did not send is null). */
  public readonly auditConfigs: IResolvable;
  /** The policy as the API returned it (JSON text). */
  public readonly body: string;

  /** `project`: what the construct knows of it, if not the data source's project. */
  protected constructor(
    scope: Construct,
    id: string,
    where: LocatedPolicyTarget | undefined,
    optionsRequestedPolicyVersion: number | undefined,
    declare: PolicyDataSourceFactory,
    project?: string,
  ) {
    super(scope, id);
    const version = optionsRequestedPolicyVersion ?? 3;
    checkAt(this, () => {
      if (where) validateLocatedResource(where, isKnown);
      validatePolicyVersion(version, isKnown);
    });
    this.optionsRequestedPolicyVersion = version;
    useGoogleIamProvider(this);
    const read = declare(this, 'Default', version);
    this.project = project ?? where?.project ?? read.project ?? '';
    this.etag = read.etag;
    this.version = read.version;
    this.bindings = read.bindings;
    this.auditConfigs = read.auditConfigs;
    this.body = read.policyData;
  }
}
