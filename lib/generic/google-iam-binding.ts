import type { Construct } from 'constructs';
import { IamBindingGrant } from '../grant/iam-binding-grant';
import type { IamCondition } from '../grant/iam-condition';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import type { GoogleIamResource } from '../grant/google-iam-resource';
import { checkAt } from '../synth/errors';
import { isKnown } from '../synth/known-values';
import { genericResourceConfig, settledResource, shownResource, validateGoogleIamResource } from '../grant/generic-resource';
import { GoogleiamIamBinding } from '../provider-bindings/iam-binding.generated';

/** Properties of a `GoogleIamBinding`. */
export interface GoogleIamBindingProps extends IamGrantOptions {
  /** The resource whose IAM policy holds the binding, e.g. `{ service: 'cloudresourcemanager', apiVersion: 'v3', name: 'projects/p' }`. */
  readonly resource: GoogleIamResource;
  /** The role that is applied. Only one binding construct can own a role (and condition) on a resource. */
  readonly role: string;
  /** The identities granted `role`; the binding's member list becomes exactly this list. */
  readonly members: string[];
  /**
   * An IAM condition for the binding (only where the resource type supports conditions).
   * @default - the binding is unconditional
   */
  readonly condition?: IamCondition;
}

/**
 * Owns the full member list of one role (and condition) on any resource with
 * REST `:getIamPolicy` / `:setIamPolicy`. Other roles' bindings are left
 * alone; changing `members` rewrites the list in one write; deleting it
 * removes the binding.
 */
export class GoogleIamBinding extends IamBindingGrant {
  /** The resource, with its getIamPolicy method settled. */
  public readonly resource: GoogleIamResource;

  /**
   * @param scope the construct it belongs to (a stack, or a construct in one)
   * @param id the construct's id, unique among its siblings. The grant's Terraform address is made from what it grants, not from this id
   * @param props what is granted, and on which resource
   */
  constructor(scope: Construct, id: string, props: GoogleIamBindingProps) {
    const resource = settledResource(props.resource);
    super(
      scope,
      id,
      { typeName: 'GoogleIamBinding', resource },
      props,
      (self, rid, config) => new GoogleiamIamBinding(self, rid, { ...config, ...genericResourceConfig(resource) }),
    );
    checkAt(this, () => validateGoogleIamResource(props.resource, isKnown, 'resource.', 'write'));
    this.resource = shownResource(resource);
  }
}
