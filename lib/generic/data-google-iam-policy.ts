import type { Construct } from 'constructs';
import { DataIamPolicyRead } from '../lookups/data-iam-policy';
import { checkAt } from '../synth/errors';
import { isKnown, projectOfName } from '../synth/known-values';
import type { GoogleIamResource } from '../grant/google-iam-resource';
import { genericResourceConfig, settledResource, shownResource, validateGoogleIamResource } from '../grant/generic-resource';
import { DataGoogleiamIamPolicy } from '../provider-bindings/data-iam-policy.generated';

/** Properties of a `DataGoogleIamPolicy`: the arguments of `getIamPolicy`. */
export interface DataGoogleIamPolicyProps {
  /** The resource whose policy is read, e.g. `{ service: 'secretmanager', apiVersion: 'v1', name: 'projects/p/secrets/s' }`. */
  readonly resource: GoogleIamResource;
  /**
   * Policy version to request: 0, 1 or 3 (see `IamPolicyVersion`). Below 3, Google returns conditional
   * bindings with mangled roles and no condition.
   * @default 3
   */
  readonly optionsRequestedPolicyVersion?: number;
}

/**
 * The Output form of `GoogleLookups.getIamPolicy`: reads the IAM policy of
 * any resource with REST `:getIamPolicy` at plan time (the provider's
 * `googleiam_iam_policy` data source), so its attributes are Terraform
 * expressions usable in other resources.
 */
export class DataGoogleIamPolicy extends DataIamPolicyRead {
  /** The resource that is read, with its getIamPolicy method settled. */
  public readonly resource: GoogleIamResource;

  /**
   * @param scope the construct it belongs to (a stack, or a construct in one)
   * @param id the construct's id, unique among its siblings
   * @param props what is read
   */
  constructor(scope: Construct, id: string, props: DataGoogleIamPolicyProps) {
    const resource = settledResource(props.resource);
    super(
      scope,
      id,
      undefined,
      props.optionsRequestedPolicyVersion,
      (self, rid, optionsRequestedPolicyVersion) =>
        new DataGoogleiamIamPolicy(self, rid, { ...genericResourceConfig(resource), name: resource.name, optionsRequestedPolicyVersion }),
      projectOfName(resource.name),
    );
    checkAt(this, () => validateGoogleIamResource(props.resource, isKnown));
    this.resource = shownResource(resource);
  }
}
