import type { Construct } from 'constructs';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { IamMembersGrant, type IamGrantEntryProps } from '../grant/iam-members-grant';
import type { GoogleIamResource } from '../grant/google-iam-resource';
import { checkAt } from '../synth/errors';
import { isKnown } from '../synth/known-values';
import { genericResourceConfig, settledResource, shownResource, validateGoogleIamResource } from '../grant/generic-resource';
import { GoogleiamIamMembers } from '../provider-bindings/iam-members.generated';

/** Properties of a `GoogleIamMembers`. */
export interface GoogleIamMembersProps extends IamGrantOptions {
  /** The resource whose IAM policy holds the grants, e.g. `{ service: 'secretmanager', apiVersion: 'v1', name: 'projects/p/secrets/s' }`. */
  readonly resource: GoogleIamResource;
  /** The grants: each a principal, a role and optionally a condition, as one `GoogleIamMember` would grant it. Each may be listed once. */
  readonly grants: IamGrantEntryProps[];
}

/**
 * Grants many principals roles on any resource with REST `:getIamPolicy` /
 * `:setIamPolicy`, each entry as one `GoogleIamMember` would
 * (non-authoritative). Same lifecycle, batching, drift detection and errors
 * as the typed `*IamMembers` constructs; one Terraform resource for any
 * number of grants.
 */
export class GoogleIamMembers extends IamMembersGrant {
  /** The resource, with its getIamPolicy method settled. */
  public readonly resource: GoogleIamResource;

  /**
   * @param scope the construct it belongs to (a stack, or a construct in one)
   * @param id the construct's id, unique among its siblings; with the resource's id it names the grants' Terraform resource
   * @param props what is granted, and on which resource
   */
  constructor(scope: Construct, id: string, props: GoogleIamMembersProps) {
    const resource = settledResource(props.resource);
    super(
      scope,
      id,
      { typeName: 'GoogleIamMembers', resource },
      props,
      (self, rid, config) => new GoogleiamIamMembers(self, rid, { ...config, ...genericResourceConfig(resource) }),
    );
    checkAt(this, () => validateGoogleIamResource(props.resource, isKnown, 'resource.', 'write'));
    this.resource = shownResource(resource);
  }
}
