import { TerraformResource, type TerraformResourceLifecycle } from 'cdktf';
import type { Construct } from 'constructs';
import { RUNNER_ENV } from '../contract/runner-env';

/** The Terraform name of every stack's applications of its grants: `terraform_data.google_iam_grants_applied`. */
export const APPLIED_RESOURCE_NAME = 'google_iam_grants_applied';

/** How the two grant resources of a stack render the `for_each` over the grants. */
export interface GrantsForEach {
  /** For JSON output: the reference as a template. */
  readonly json: string;
  /** For HCL output: cdktf's description of the bare reference. */
  readonly hcl: unknown;
}

/**
 * `terraform_data.google_iam_grants_applied`: one instance per grant, beside
 * the grant's instance in `terraform_data.google_iam_grants` (which records
 * the grant and revokes it when destroyed). Its create provisioner runs the
 * runner's `apply`; it is replaced with every new object of the grant's
 * instance (a changed grant, `-replace`, `taint`, the stack's repair).
 *
 * Why the apply is not on the grant's own instance: that instance must be
 * replaced create-before-destroy (the replaced object then goes without its
 * destroy provisioner, so nothing is revoked in between), and Terraform
 * keeps the replaced object of a create-before-destroy replacement as
 * "deposed" until the new object's create succeeds. A failed create taints
 * the new object, and the next apply replaces that one create-before-destroy
 * too: every failed apply left one more deposed object (`9 destroyed` on the
 * next good apply). Here a failed apply taints only this instance, which has
 * no destroy provisioner and no create_before_destroy (Terraform forces it
 * onto what a create-before-destroy resource depends on, not onto what
 * depends on one, as this does), so the next apply simply destroys and
 * re-creates it: at most the one object the replacement deposed stays until
 * the grant applies (checked with terraform 1.11). The grant's instance is never
 * tainted by a failure: deleting the grant, or `terraform destroy`, runs its
 * revoke even after a failed apply.
 */
export class GrantsApplied extends TerraformResource {
  constructor(
    scope: Construct,
    id: string,
    private readonly grants: string,
    runnerPath: string,
    private readonly grantsForEach: GrantsForEach,
  ) {
    super(scope, id, { terraformResourceType: 'terraform_data', terraformGeneratorMetadata: { providerName: 'terraform' } });
    this.overrideLogicalId(APPLIED_RESOURCE_NAME);
    // Said out loud: create_before_destroy here would bring back one deposed object per failed apply.
    this.lifecycle = { createBeforeDestroy: false } satisfies TerraformResourceLifecycle;
    const grant = `${grants}[each.key]`;
    this.provisioners = [
      {
        type: 'local-exec',
        command: 'apply',
        interpreter: ['node', runnerPath],
        environment: {
          [RUNNER_ENV.grant]: `\${${grant}.triggers_replace}`,
          [RUNNER_ENV.label]: `\${${grant}.input}`,
          [RUNNER_ENV.run]: '${plantimestamp()}',
        },
      },
    ];
  }

  public toTerraform(): any {
    return withForEach(super.toTerraform(), this, this.grantsForEach.json);
  }

  public toHclTerraform(): any {
    return withForEach(super.toHclTerraform(), this, this.grantsForEach.hcl);
  }

  /** Each new object of the grant's instance (its id) is applied by a new instance here. */
  protected synthesizeAttributes(): { [name: string]: unknown } {
    return { triggers_replace: `\${${this.grants}[each.key].id}` };
  }

  protected synthesizeHclAttributes(): { [name: string]: unknown } {
    return { triggers_replace: { value: `\${${this.grants}[each.key].id}`, isBlock: false, type: 'simple', storageClassType: 'string' } };
  }
}

/**
 * Adds `for_each` to cdktf's rendering of `resource` (cdktf renders its own
 * `forEach` meta-argument, left unset here, over any attribute of that name).
 */
export function withForEach(rendered: any, resource: TerraformResource, forEach: unknown): any {
  const attributes = rendered.resource?.[resource.terraformResourceType]?.[resource.friendlyUniqueId];
  if (attributes) attributes.for_each = forEach;
  return rendered;
}
