import type { Construct } from 'constructs';
import { AUTHORIZATION_POLICY_TYPE } from '../grant/resource-type';
import { DataIamPolicyRead } from '../lookups/data-iam-policy';

/** Properties of a {@link DataAuthorizationPolicyIamPolicy}: the arguments of `getAuthorizationPolicyIamPolicy`. */
export interface DataAuthorizationPolicyIamPolicyProps {
  /** The authorization policy's id. */
  readonly authorizationPolicyId: string;
  /** e.g. `global`. */
  readonly location: string;
  /**
   * The project of the authorization policy.
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
 * The Output form of `getAuthorizationPolicyIamPolicy`: reads a network-security authorization policy's IAM policy at
 * plan time, so its attributes are Terraform expressions usable in other
 * resources. Needs Node.js where `terraform plan` runs and the
 * `hashicorp/external` provider (required in the stack).
 *
 * Asks for policy version 3, so conditional bindings come back intact.
 */
export class DataAuthorizationPolicyIamPolicy extends DataIamPolicyRead {
  /** The authorization policy's id. */
  public readonly authorizationPolicyId: string;
  /** The authorization policy's location. */
  public readonly location: string;

  constructor(scope: Construct, id: string, props: DataAuthorizationPolicyIamPolicyProps) {
    super(
      scope,
      id,
      {
        ...AUTHORIZATION_POLICY_TYPE,
        project: props.project,
        location: props.location,
        id: props.authorizationPolicyId,
        idField: 'authorizationPolicyId',
      },
      props.optionsRequestedPolicyVersion,
    );
    this.authorizationPolicyId = props.authorizationPolicyId;
    this.location = props.location;
  }
}
