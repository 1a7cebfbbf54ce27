import type { Construct } from 'constructs';
import type { IamCondition } from '../grant/iam-condition';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { IamMemberGrant } from '../grant/iam-member-grant';
import type { GoogleIamResource } from '../grant/google-iam-resource';
import { checkAt } from '../synth/errors';
import { isKnown } from '../synth/known-values';
import { genericResourceConfig, settledResource, shownResource, validateGoogleIamResource } from '../grant/generic-resource';
import { GoogleiamIamMember } from '../provider-bindings/iam-member.generated';

/** Properties of a `GoogleIamMember`. */
export interface GoogleIamMemberProps extends IamGrantOptions {
  /** The resource whose IAM policy holds the grant, e.g. `{ service: 'secretmanager', apiVersion: 'v1', name: 'projects/p/secrets/s' }`. */
  readonly resource: GoogleIamResource;
  /** The role that is applied. */
  readonly role: string;
  /**
   * One identity that is granted `role`: `user:{email}`, `serviceAccount:{email}`,
   * `group:{email}`, `domain:{domain}`, `principal://…` or `principalSet://…`.
   */
  readonly member: string;
  /**
   * An IAM condition for the binding (only where the resource type supports conditions).
   * @default - the grant is unconditional
   */
  readonly condition?: IamCondition;
}

/**
 * Grants one principal a role on any resource with REST `:getIamPolicy` /
 * `:setIamPolicy`, leaving every other grant on the policy alone; deleting
 * it removes only that principal from that role and condition. Same
 * lifecycle, batching, drift detection and errors as the typed `*IamMember`
 * constructs; a typed construct and a generic one on the same resource are
 * checked against each other.
 */
export class GoogleIamMember extends IamMemberGrant {
  /** The resource, with its getIamPolicy method settled. */
  public readonly resource: GoogleIamResource;

  /**
   * @param scope the construct it belongs to (a stack, or a construct in one)
   * @param id the construct's id, unique among its siblings. The grant's Terraform address is made from what it grants, not from this id
   * @param props what is granted, and on which resource
   */
  constructor(scope: Construct, id: string, props: GoogleIamMemberProps) {
    const resource = settledResource(props.resource);
    super(
      scope,
      id,
      { typeName: 'GoogleIamMember', resource },
      props,
      (self, rid, config) => new GoogleiamIamMember(self, rid, { ...config, ...genericResourceConfig(resource) }),
    );
    checkAt(this, () => validateGoogleIamResource(props.resource, isKnown, 'resource.', 'write'));
    this.resource = shownResource(resource);
  }
}
