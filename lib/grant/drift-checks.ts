import { TerraformElement, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';
import type { IamResource } from '../iam/grant';
import { PolicyIdentity } from '../iam/identity';
import { serializeDriftQuery } from '../contract/drift-query';
import { EXTERNAL_PROVIDER_REQUIREMENT } from '../synth/external-data';
import { escapeTemplate, stringLiteral } from '../synth/terraform-expression';

/** The grants of one policy that a drift check compares with Google. */
export interface DriftGroup {
  /** The policy's resource, every string already a Terraform template (tokens as `${...}`, literals escaped). */
  readonly resource: IamResource;
  /** Whether the policy's name (or API) holds values Terraform knows only after apply. */
  readonly resourceHoldsTokens: boolean;
  /** Their keys in the grants resource. */
  readonly keys: readonly string[];
  /** Whether their drift fails the plan (a data source postcondition) rather than warns (a `check` block). */
  readonly failPlan: boolean;
}

/** The addresses a drift check names. */
export interface DriftAddresses {
  /** The stack's grants resource, `terraform_data.google_iam_grants`. */
  readonly grants: string;
  /** The local value its instances are made from (`{ "<key>": { grant, label } }`), `local.google_iam_grants`. */
  readonly grantsLocal: string;
  /** The resource whose instances apply the grants, `terraform_data.google_iam_grants_applied`. */
  readonly applied: string;
  /** The resource whose replacement re-applies every grant, `terraform_data.google_iam_repair`. */
  readonly repair: string;
}

/**
 * The stack's drift checks: per policy, an `external` data source that runs
 * `node <runner> drift` with the grants of that policy, reading the policy
 * once and reporting, per grant, how Google differs from the code and the one
 * command that repairs the stack.
 *
 * A warning is a Terraform `check` block. Terraform warns "known after
 * apply" about every check it cannot evaluate while planning, so the read
 * must not wait for pending grant changes: it is made at plan time, and the
 * runner reports differences only for grants that the Terraform state holds
 * as configured (when something differs, it asks `terraform state pull`);
 * grants with a change pending are written, and checked, by their apply.
 *
 * A failure is a postcondition of the data source (a failed `check` only
 * warns: `terraform plan -detailed-exitcode` would exit 0). Its read names the
 * grants' ids, so while any of them has a change pending (the repair
 * included) it waits for the apply and checks the result; a postcondition
 * that cannot be evaluated yet is silent.
 *
 * Conditions test the count of problems, not the report: Terraform shows the
 * values a failed condition refers to, and a report shown as a quoted value
 * (line breaks as `\n`) is not something to copy a command from.
 *
 * The data sources are not nested in the checks: Terraform plans a nested one
 * to be read again during apply, so every plan would show it as a change.
 * Drift checks are written in JSON output only: cdktf's HCL renderer has no
 * check blocks, and a read without its check would cost a call and tell no one.
 * The element renders nothing in HCL (TerraformElement's `toHclTerraform`).
 */
export class DriftChecks extends TerraformElement {
  constructor(
    scope: Construct,
    id: string,
    private readonly groups: () => DriftGroup[],
    private readonly runner: () => string,
    private readonly addresses: DriftAddresses,
  ) {
    super(scope, id);
  }

  public toTerraform(): any {
    const groups = this.groups();
    if (groups.length === 0) return {};
    const names = groups.map((group) => driftCheckName(group.resource, group.failPlan));
    const reads = groups.map((group, i) => [names[i], this.read(group)] as const);
    const warned = names.filter((_, i) => !groups[i].failPlan);
    return {
      terraform: { required_providers: { external: EXTERNAL_PROVIDER_REQUIREMENT } },
      data: { external: Object.fromEntries(reads) },
      ...(warned.length > 0
        ? {
            check: Object.fromEntries(
              warned.map((name) => [
                name,
                {
                  assert: [
                    {
                      condition: `\${data.external.${name}.result.drifted == "0"}`,
                      error_message: `\${data.external.${name}.result.drift}`,
                    },
                  ],
                },
              ]),
            ),
          }
        : {}),
    };
  }

  private read(group: DriftGroup): unknown {
    const keys = `[${group.keys.map(stringLiteral).join(', ')}]`;
    // A warning's read takes the grants from the local value the instances are made of: a reference to the
    // resource itself would make Terraform defer the read while any instance has a change pending.
    const source = group.failPlan ? `${this.addresses.grants}[k]` : `${this.addresses.grantsLocal}[k]`;
    // The id of the grant's application: a pending apply makes it unknown, and the read waits for that apply.
    const grantOf = group.failPlan ? `${source}.triggers_replace, id = ${this.addresses.applied}[k].id` : `${source}.grant`;
    const labelOf = group.failPlan ? `${source}.input` : `${source}.label`;
    if (group.resourceHoldsTokens && !group.failPlan) return { program: ['node', this.runner(), 'drift'], query: this.stateQuery(group) };
    const query = serializeDriftQuery({
      policy: group.resource,
      resource: this.addresses.grants,
      applied: this.addresses.applied,
      repair: this.addresses.repair,
      stack: TerraformStack.of(this).node.id,
      compare: group.failPlan ? 'all' : 'applied',
      grants: `\${jsonencode([for k in ${keys} : { key = k, label = ${labelOf}, grant = ${grantOf} }])}`,
    });
    return {
      program: ['node', this.runner(), 'drift'],
      query,
      ...(group.failPlan
        ? {
            lifecycle: {
              postcondition: [{ condition: '${self.result.drifted == "0"}', error_message: '${self.result.drift}' }],
            },
          }
        : {}),
    };
  }

  /**
   * A warning's read for a policy whose name Terraform knows only after
   * apply: any reference to it would make Terraform defer the read (and warn
   * "known after apply" on a plan that has nothing to compare yet). The query
   * names only the grants' keys; the runner takes each grant, resource resolved,
   * from the state as the last apply left it (`terraform state pull`), so the
   * first plan compares nothing and later plans check what was applied.
   */
  private stateQuery(group: DriftGroup): Record<string, string> {
    const query = serializeDriftQuery({
      resource: this.addresses.grants,
      applied: this.addresses.applied,
      repair: this.addresses.repair,
      stack: TerraformStack.of(this).node.id,
      compare: 'state',
      keys: group.keys,
    });
    return { ...query, grants: escapeTemplate(query.grants) };
  }
}

/** The name of the drift check (and its data source) of one policy's grants whose drift warns, or fails the plan. */
export function driftCheckName(resource: IamResource, failPlan: boolean): string {
  return `google_iam_drift_${PolicyIdentity.of(resource).shortHash(failPlan ? 'fail' : undefined)}`;
}
