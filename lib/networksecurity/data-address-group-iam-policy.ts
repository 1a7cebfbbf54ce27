import type { Construct } from 'constructs';
import { ADDRESS_GROUP_TYPE } from '../grant/resource-type';
import { DataIamPolicyRead } from '../lookups/data-iam-policy';

/** Properties of a {@link DataAddressGroupIamPolicy}: the arguments of `getAddressGroupIamPolicy`. */
export interface DataAddressGroupIamPolicyProps {
  /** The address group's id. */
  readonly addressGroupId: string;
  /** e.g. `global`. */
  readonly location: string;
  /**
   * The project of the address group.
   * @default - the runner's default project: `GOOGLE_CLOUD_PROJECT`, `GOOGLE_PROJECT`, `GCLOUD_PROJECT`, `CLOUDSDK_CORE_PROJECT`, then the credentials' project
   */
  readonly project?: string;
  /**
   * Policy version to request: 0, 1 or 3 (see {@link IamPolicyVersion}). Below 3, Google returns conditional
   * bindings with mangled roles and no condition.
   * @default 3
   */
  readonly optionsRequestedPolicyVersion?: number;
}

/**
 * The Output form of `getAddressGroupIamPolicy`: reads a network-security
 * address group's IAM policy at plan time, so its attributes are Terraform
 * expressions usable in other resources. Needs Node.js where `terraform plan`
 * runs and the `hashicorp/external` provider (required in the stack).
 *
 * Unlike the google provider's own data source, this asks for policy version
 * 3, so conditional bindings come back intact.
 */
export class DataAddressGroupIamPolicy extends DataIamPolicyRead {
  /** The address group's id. */
  public readonly addressGroupId: string;
  /** The address group's location. */
  public readonly location: string;

  constructor(scope: Construct, id: string, props: DataAddressGroupIamPolicyProps) {
    super(
      scope,
      id,
      {
        ...ADDRESS_GROUP_TYPE,
        project: props.project,
        location: props.location,
        id: props.addressGroupId,
        idField: 'addressGroupId',
      },
      props.optionsRequestedPolicyVersion,
    );
    this.addressGroupId = props.addressGroupId;
    this.location = props.location;
  }
}
