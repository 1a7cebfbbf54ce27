import { createHash } from 'crypto';
import { TerraformElement } from 'cdktf';
import type { Construct } from 'constructs';
import type { IamResource } from '../iam/grant';
import { EXTERNAL_PROVIDER_REQUIREMENT } from '../synth/external-data';
import { stringLiteral } from '../synth/terraform-expression';

/** The grants of one policy that a drift check compares with Google. */
export interface DriftGroup {
  /** The policy's resource, every string already a Terraform template (tokens as `${...}`, literals escaped). */
  readonly resource: IamResource;
  /** Their keys in the grants resource. */
  readonly keys: readonly string[];
}

/**
 * The stack's drift checks: per policy, an `external` data source that runs
 * `node <runner> drift` with the grants of that policy (their JSON and labels
 * read from the grants resource's own instances), and a Terraform `check`
 * block whose assertion fails when it reports drift. `terraform plan` and
 * `cdktf diff` then warn, per grant, how Google differs from the code and
 * which command repairs it; one read per policy per plan. While any of those
 * grants has a change pending, the read waits for the apply (it names the
 * instances' ids) and checks the result.
 *
 * The data source is not nested in the check: Terraform plans a nested one
 * to be read again during apply, so every plan would show it as a change.
 * The runner reports a failed read (e.g. the resource deleted outside
 * Terraform) as drift, so the plan warns instead of failing.
 *
 * Check blocks are written in JSON output only: cdktf's HCL renderer has no
 * `check` blocks.
 */
export class DriftChecks extends TerraformElement {
  constructor(
    scope: Construct,
    id: string,
    private readonly groups: () => DriftGroup[],
    private readonly runner: () => string,
    private readonly grantsAddress: string,
  ) {
    super(scope, id);
  }

  public toTerraform(): any {
    const groups = this.groups();
    if (groups.length === 0) return {};
    const names = groups.map(checkName);
    return {
      terraform: { required_providers: { external: EXTERNAL_PROVIDER_REQUIREMENT } },
      data: { external: Object.fromEntries(groups.map((group, i) => [names[i], this.read(group)])) },
      check: Object.fromEntries(
        names.map((name) => [
          name,
          {
            assert: [
              { condition: `\${data.external.${name}.result.drift == ""}`, error_message: `\${data.external.${name}.result.drift}` },
            ],
          },
        ]),
      ),
    };
  }

  public toHclTerraform(): any {
    return {};
  }

  private read(group: DriftGroup): unknown {
    const keys = `[${group.keys.map(stringLiteral).join(', ')}]`;
    const instance = `${this.grantsAddress}[k]`;
    const { service, apiVersion, name, getIamPolicyMethod } = group.resource;
    return {
      program: ['node', this.runner(), 'drift'],
      query: {
        service,
        apiVersion,
        name,
        ...(getIamPolicyMethod ? { getIamPolicyMethod } : {}),
        resource: this.grantsAddress,
        grants: `\${jsonencode([for k in ${keys} : { key = k, label = ${instance}.input, grant = ${instance}.triggers_replace, id = ${instance}.id }])}`,
      },
    };
  }
}

function checkName(group: DriftGroup): string {
  const { service, apiVersion, name } = group.resource;
  return `google_iam_drift_${createHash('sha256')
    .update(JSON.stringify([service, apiVersion, name]))
    .digest('hex')
    .slice(0, 16)}`;
}
