import { GoogleRestClient } from '../api/client';
import { IamPolicyApi } from '../api/iam-policy';
import { retrying } from '../api/retrying';
import { retrySchedule } from '../api/retry-policy';
import type { CheckedGrant, DriftQuery } from '../contract/drift-query';
import { parseAppliedGrant, parseGrantLabel } from '../contract/grant';
import { grantDrift } from '../iam/drift';
import { describeGrant, type IamResource } from '../iam/grant';
import { appliedInstances } from './terraform-state';

/** One difference, and the grants it concerns. */
interface Finding {
  readonly text: string;
  readonly keys: readonly string[];
}

/**
 * Reads the policy once and reports, for every grant of this stack on it,
 * how Google differs from the code, followed by the one command that repairs
 * the stack. An empty `drift` means no drift. Runs at plan time, from the
 * stack's drift check (a `check` block warns, a postcondition fails the plan);
 * a policy that cannot be read is reported the same way, never a runner error.
 *
 * With `compare: 'applied'`, a difference counts only for grants that the
 * Terraform state holds as configured and applied (the others have a change,
 * or an apply that failed, pending, which their apply checks). The state is
 * read only when something differs, so a plan without drift costs one read
 * of the policy and nothing more.
 */
export async function runDrift(query: DriftQuery, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  // A failing check labels grants with the instance's input, which may carry its twins after the label.
  if (query.compare === 'state') return runDriftFromState(query, env);
  const grants = query.grants.map((g) => ({ ...g, label: parseGrantLabel(g.label).label ?? g.label }));
  const findings = await compare(query.policy, grants, env);
  if (findings.length === 0 || query.compare === 'all') return report(query, grants.length, findings);
  let applied: Set<string>;
  try {
    applied = appliedKeys(grants, query, env);
  } catch (error) {
    return report(query, grants.length, [
      { text: `could not tell applied grants from pending ones: ${(error as Error).message}`, keys: [] },
    ]);
  }
  return report(
    query,
    grants.filter((g) => applied.has(g.key)).length,
    findings.filter((f) => f.keys.some((key) => applied.has(key))),
  );
}

/**
 * `compare: 'state'`: the grants (and so the policy's name) as the last apply
 * left them in the state; none applied yet means nothing to compare.
 */
async function runDriftFromState(
  query: Extract<DriftQuery, { compare: 'state' }>,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, string>> {
  let inState;
  try {
    inState = appliedInstances(query.resource, env, query.applied);
  } catch (error) {
    return report(query, 0, [{ text: `could not read the applied grants: ${(error as Error).message}`, keys: [] }]);
  }
  const grants = query.keys.flatMap((key): CheckedGrant[] => {
    const applied = inState.get(key);
    if (!applied) return [];
    return [{ key, json: applied.grant, grant: parseAppliedGrant(applied.grant), label: parseGrantLabel(applied.input).label ?? key }];
  });
  if (grants.length === 0) return report(query, 0, []);
  return report(query, grants.length, await compare(grants[0].grant.resource, grants, env));
}

async function compare(policy: IamResource, grants: readonly CheckedGrant[], env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const api = new IamPolicyApi(new GoogleRestClient({ env }), policy);
  let read;
  try {
    read = (await retrying(() => api.getIamPolicy(policy.name), retrySchedule('read', env))).value;
  } catch (error) {
    const labels = [...new Set(grants.map((g) => g.label))].join(', ');
    return [
      {
        text: `the IAM policy of ${policy.name} could not be read to check ${labels}: ${(error as Error).message}`,
        keys: grants.map((g) => g.key),
      },
    ];
  }
  return grants.flatMap(({ key, label, grant }) => {
    const found = grantDrift(grant, read);
    return found.length === 0 ? [] : [{ text: `${label}: ${describeGrant(grant)}: ${found.join('; ')}.`, keys: [key] }];
  });
}

/** The keys of the grants whose configured value the Terraform state holds, applied. */
function appliedKeys(grants: readonly CheckedGrant[], query: DriftQuery, env: NodeJS.ProcessEnv): Set<string> {
  const inState = appliedInstances(query.resource, env, query.applied);
  return new Set(grants.filter(({ key, json }) => inState.get(key)?.grant === json).map((g) => g.key));
}

/**
 * The answer Terraform gets: the problems, one per line, then the repair.
 * The commands are on lines of their own that start with spaces: Terraform
 * wraps a message's lines at the terminal's width, except lines that start
 * with a space, so each command stays whole and can be copied as it is.
 */
function report(query: DriftQuery, checked: number, findings: Finding[]): Record<string, string> {
  const drift =
    findings.length === 0
      ? ''
      : [
          ...findings.map((f) => f.text),
          "Repair (re-applies every grant of the stack), in the stack's folder:",
          `  ${DriftRepair.terraform(query.repair)}`,
          "or with cdktf, in the project's folder:",
          `  ${DriftRepair.cdktf(query.repair, query.stack)}`,
        ].join('\n');
  return { drift, checked: String(checked), drifted: String(findings.length) };
}

/** The repair commands, as printed. */
export const DriftRepair = {
  terraform: (repair: string) => `terraform apply -replace=${repair}`,
  /** `cdktf deploy` has no `-replace`; Terraform reads extra arguments of `apply` from `TF_CLI_ARGS_apply`. */
  cdktf: (repair: string, stack: string) => `TF_CLI_ARGS_apply=-replace=${repair} cdktf deploy ${stack}`,
};
