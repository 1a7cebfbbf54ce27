import { Token, type IResolvable } from 'cdktf';
import { Construct } from 'constructs';
import { checkAt } from '../grant/errors';
import { isKnown } from '../grant/known-values';
import { ADDRESS_GROUP } from '../iam/resource-name';
import { GoogleRestRead } from '../lookups/google-rest-read';
import { locatedName, validateLocatedResource, validatePolicyVersion } from '../lookups/lookup-args';

/** Properties of a {@link DataAddressGroupIamPolicy} (SPEC.md 4.3). */
export interface DataAddressGroupIamPolicyProps {
  /** The address group's id. */
  readonly addressGroupId: string;
  /** e.g. `global`. */
  readonly location: string;
  /**
   * @default - the google provider's project
   */
  readonly project?: string;
  /**
   * Policy version to request: 0, 1 or 3. Below 3, Google returns conditional
   * bindings with mangled roles and no condition.
   * @default 3
   */
  readonly optionsRequestedPolicyVersion?: number;
}

/**
 * The Output form of `getAddressGroupIamPolicy`: reads an address group's IAM
 * policy at plan time, so its attributes are Terraform expressions usable in
 * other resources. Needs the google provider (for the access token) and the
 * http provider; both are added if the stack lacks them.
 *
 * Unlike the google provider's own data source, this sends
 * `options.requestedPolicyVersion`, so conditional bindings come back intact.
 */
export class DataAddressGroupIamPolicy extends Construct {
  public readonly addressGroupId: string;
  public readonly location: string;
  /** The project that is read (a token when it defaults to the provider's). */
  public readonly project: string;
  public readonly optionsRequestedPolicyVersion: number;
  /** Etag of the policy. */
  public readonly etag: string;
  /** Policy version: 0, 1 or 3 (0 when the resource has no policy). */
  public readonly version: number;
  /** The bindings, as a list of `{role, members, condition?}` objects (`[]` when none). */
  public readonly bindings: IResolvable;
  /** The audit configs, as a list of `{service, auditLogConfigs}` objects (`[]` when none). */
  public readonly auditConfigs: IResolvable;
  /** The policy as the API returned it (JSON text). */
  public readonly body: string;

  constructor(scope: Construct, id: string, props: DataAddressGroupIamPolicyProps) {
    super(scope, id);
    const version = props.optionsRequestedPolicyVersion ?? 3;
    checkAt(this, () => {
      validateLocatedResource({ ...props, id: props.addressGroupId, idField: 'addressGroupId' }, isKnown);
      validatePolicyVersion(version, isKnown);
    });
    this.addressGroupId = props.addressGroupId;
    this.location = props.location;
    this.project = props.project ?? GoogleRestRead.clientConfigOf(this).project;
    this.optionsRequestedPolicyVersion = version;

    const read = new GoogleRestRead(this, 'Policy', {
      service: 'networksecurity',
      path: `v1/${locatedName(ADDRESS_GROUP, this.project, this.location, this.addressGroupId)}:getIamPolicy`,
      query: { 'options.requestedPolicyVersion': Token.asString(version) },
    });
    this.etag = read.field('etag');
    this.version = read.numberField('version');
    this.bindings = read.anyField('bindings', []);
    this.auditConfigs = read.anyField('auditConfigs', []);
    this.body = read.body;
  }
}
