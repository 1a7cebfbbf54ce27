import { Token, type IResolvable } from 'cdktf';
import { Construct } from 'constructs';
import { validateLocatedResource, validatePolicyVersion } from '../iam/located-resource';
import type { ResourceNameFormat } from '../iam/resource-name';
import type { IamResourceType } from '../grant/resource-type';
import { checkAt } from '../synth/errors';
import { isKnown } from '../synth/known-values';
import { RunnerRead } from '../synth/runner-read';
import { locatedPolicyQuery, namedPolicyQuery } from '../contract/read-query';

/** Which resource's policy an Output-form lookup reads. @internal */
export type PolicyReadTarget =
  | {
      readonly service: string;
      readonly apiVersion: string;
      readonly nameFormat: ResourceNameFormat;
      readonly project?: string;
      readonly location: string;
      readonly id: string;
      /** The props field that holds the id, e.g. `addressGroupId`. */
      readonly idField: string;
    }
  | {
      readonly service: string;
      readonly apiVersion: string;
      readonly getIamPolicyMethod?: 'GET' | 'POST' | 'POST_QUERY';
      /** A full resource name. */
      readonly name: string;
    };

/** The target of a typed Output-form lookup: the resource of `type` whose id is in the props field `idField`. @internal */
export function locatedPolicyTarget(
  type: IamResourceType,
  idField: string,
  id: string,
  where: { readonly project?: string; readonly location: string },
): PolicyReadTarget {
  return { ...type, project: where.project, location: where.location, id, idField };
}

/**
 * The Output form of the `get*IamPolicy` lookups: reads a resource's IAM
 * policy at plan time, through the library's runner (Terraform's `external`
 * data source; no credential reaches the plan or the state), so its
 * attributes are Terraform expressions usable in other resources.
 *
 * jsii erases this base class: its public members appear on each `Data*IamPolicy` construct.
 *
 * @internal
 */
export abstract class DataIamPolicyRead extends Construct {
  /** The project that is read: the one given, else the runner's default project (a Terraform expression then). */
  public readonly project: string;
  /** The policy version requested: 0, 1 or 3. */
  public readonly optionsRequestedPolicyVersion: number;
  /** Etag of the policy. */
  public readonly etag: string;
  /** Policy version: 0, 1 or 3 (0 when the resource has no policy). */
  public readonly version: number;
  /** The bindings, as a list of `{role, members, condition?}` objects (`[]` when none); a condition has all four fields. */
  public readonly bindings: IResolvable;
  /** The audit configs, as a list of `{service, auditLogConfigs}` objects (`[]` when none). */
  public readonly auditConfigs: IResolvable;
  /** The policy as the API returned it (JSON text). */
  public readonly body: string;

  protected constructor(scope: Construct, id: string, target: PolicyReadTarget, optionsRequestedPolicyVersion: number | undefined) {
    super(scope, id);
    const version = optionsRequestedPolicyVersion ?? 3;
    checkAt(this, () => {
      if ('location' in target)
        validateLocatedResource({ project: target.project, location: target.location, id: target.id, idField: target.idField }, isKnown);
      validatePolicyVersion(version, isKnown);
    });
    this.optionsRequestedPolicyVersion = version;
    const versionText = Token.isUnresolved(version) ? Token.asString(version) : String(version);
    const read = new RunnerRead(this, 'Policy', {
      query: 'location' in target ? locatedPolicyQuery(target, target, versionText) : namedPolicyQuery(target, versionText),
    });
    this.project = ('location' in target ? target.project : undefined) ?? read.field('project');
    this.etag = read.field('etag');
    this.version = read.numberField('version');
    this.bindings = read.jsonField('bindings');
    this.auditConfigs = read.jsonField('auditConfigs');
    this.body = read.field('body');
  }
}
