import type { Construct } from 'constructs';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { IamMemberRolesGrant, type IamRoleEntryProps } from '../grant/iam-member-roles-grant';
import type { GoogleIamResource } from '../grant/google-iam-resource';
import { checkAt } from '../synth/errors';
import { isKnown } from '../synth/known-values';
import { genericResourceConfig, settledResource, shownResource, validateGoogleIamResource } from '../grant/generic-resource';
import { GoogleiamIamMemberRoles } from '../provider-bindings/iam-member-roles.generated';

/** Properties of a `GoogleIamMemberRoles`. */
export interface GoogleIamMemberRolesProps extends IamGrantOptions {
  /** The resource whose IAM policy holds the roles, e.g. `{ service: 'secretmanager', apiVersion: 'v1', name: 'projects/p/secrets/s' }`. */
  readonly resource: GoogleIamResource;
  /** The principal whose roles these are, e.g. `serviceAccount:app@my-project.iam.gserviceaccount.com`. */
  readonly member: string;
  /** Every role it holds on the resource, each optionally under a condition: **a role it holds there that is not listed is removed**. */
  readonly roles: IamRoleEntryProps[];
}

/**
 * Owns every role of one principal on any resource with REST
 * `:getIamPolicy` / `:setIamPolicy`: after each apply it holds exactly
 * `roles` there, and any other role it holds on that policy is removed;
 * other principals are left alone. Same lifecycle as the typed
 * `*IamMemberRoles` constructs.
 */
export class GoogleIamMemberRoles extends IamMemberRolesGrant {
  /** The resource, with its getIamPolicy method settled. */
  public readonly resource: GoogleIamResource;

  /**
   * @param scope the construct it belongs to (a stack, or a construct in one)
   * @param id the construct's id, unique among its siblings. The Terraform address is made from the resource and the principal, not from this id
   * @param props whose roles, which, and on which resource
   */
  constructor(scope: Construct, id: string, props: GoogleIamMemberRolesProps) {
    const resource = settledResource(props.resource);
    super(
      scope,
      id,
      { typeName: 'GoogleIamMemberRoles', resource },
      props,
      (self, rid, config) => new GoogleiamIamMemberRoles(self, rid, { ...config, ...genericResourceConfig(resource) }),
    );
    checkAt(this, () => validateGoogleIamResource(props.resource, isKnown, 'resource.', 'write'));
    this.resource = shownResource(resource);
  }
}
