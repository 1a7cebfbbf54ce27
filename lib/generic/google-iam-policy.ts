import type { Construct } from 'constructs';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { IamPolicyGrant, type IamAuditConfigProps, type IamPolicyBindingProps } from '../grant/iam-policy-grant';
import type { GoogleIamResource } from '../grant/google-iam-resource';
import { checkAt } from '../synth/errors';
import { isKnown } from '../synth/known-values';
import { genericResourceConfig, settledResource, shownResource, validateGoogleIamResource } from '../grant/generic-resource';
import { GoogleiamIamPolicy } from '../provider-bindings/iam-policy.generated';

/** Properties of a `GoogleIamPolicy`. */
export interface GoogleIamPolicyProps extends IamGrantOptions {
  /** The resource whose IAM policy this owns. */
  readonly resource: GoogleIamResource;
  /** Every binding of the policy: the policy's bindings become exactly these (one entry per role and condition). */
  readonly bindings: IamPolicyBindingProps[];
  /**
   * The policy's audit configs, replaced at each apply when given (`[]` clears them).
   * @default - audit configs are left as they are
   */
  readonly auditConfigs?: IamAuditConfigProps[];
}

/**
 * Owns the whole IAM policy of any resource with REST `:getIamPolicy` /
 * `:setIamPolicy`: at each apply its bindings become exactly `bindings`, and
 * its audit configs `auditConfigs` when given.
 *
 * Destroying it (deleting it from the code, or `terraform destroy`) removes
 * the declared bindings only; the google provider's `google_*_iam_policy`
 * resources empty the whole policy instead. No member or binding construct
 * may grant on the same resource (synth fails, naming both).
 *
 * On a project, folder or organization, mind what an authoritative policy
 * means: a binding Google or a teammate adds (a service agent's role) is
 * removed at the next apply.
 */
export class GoogleIamPolicy extends IamPolicyGrant {
  /** The resource, with its getIamPolicy method settled. */
  public readonly resource: GoogleIamResource;

  /**
   * @param scope the construct it belongs to (a stack, or a construct in one)
   * @param id the construct's id, unique among its siblings. The grant's Terraform address is made from what it grants, not from this id
   * @param props what is granted, and on which resource
   */
  constructor(scope: Construct, id: string, props: GoogleIamPolicyProps) {
    const resource = settledResource(props.resource);
    super(
      scope,
      id,
      { typeName: 'GoogleIamPolicy', resource },
      props,
      (self, rid, config) => new GoogleiamIamPolicy(self, rid, { ...config, ...genericResourceConfig(resource) }),
    );
    checkAt(this, () =>
      validateGoogleIamResource(props.resource, isKnown, 'resource.', props.auditConfigs === undefined ? 'write' : 'write-audit-configs'),
    );
    this.resource = shownResource(resource);
  }
}
