import { GoogleRestClient } from '../api/client';
import type { DriftQuery } from '../contract/drift-query';
import { retrying } from '../api/backoff';
import { GET_IAM_POLICY_SHAPES } from '../api/iam-apis';
import { IamPolicyApi } from '../api/iam-policy';
import { grantDrift } from '../iam/drift';
import { describeGrant } from '../iam/grant';
import { parseGrant } from './grant-input';
import { appliedInstances } from './terraform-state';
import { splitLabel } from './twins';

/** How long a drift read retries transient errors before it reports them. */
const READ_RETRY_MS = 20_000;

interface CheckedGrant {
  readonly key: string;
  readonly label: string;
  readonly grant: string;
}

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
  const grants = (JSON.parse(query.grants) as CheckedGrant[]).map((g) => ({ ...g, label: splitLabel(g.label).label ?? g.label }));
  const findings = await compare(query, grants, env);
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
async function runDriftFromState(query: DriftQuery, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const keys = (JSON.parse(query.grants) as Array<{ key: string }>).map((g) => g.key);
  let inState;
  try {
    inState = appliedInstances(query.resource, env, query.applied);
  } catch (error) {
    return report(query, 0, [{ text: `could not read the applied grants: ${(error as Error).message}`, keys: [] }]);
  }
  const grants = keys.flatMap((key) => {
    const applied = inState.get(key);
    return applied ? [{ key, grant: applied.grant, label: splitLabel(applied.input).label ?? key }] : [];
  });
  if (grants.length === 0) return report(query, 0, []);
  const { service, apiVersion, name, getIamPolicyMethod } = parseGrant(grants[0].grant).resource;
  return report(query, grants.length, await compare({ ...query, service, apiVersion, name, getIamPolicyMethod }, grants, env));
}

async function compare(query: DriftQuery, grants: CheckedGrant[], env: NodeJS.ProcessEnv): Promise<Finding[]> {
  const method = GET_IAM_POLICY_SHAPES.find((shape) => shape === query.getIamPolicyMethod);
  const api = new IamPolicyApi(new GoogleRestClient({ env }), {
    service: query.service,
    apiVersion: query.apiVersion,
    getIamPolicyMethod: method,
  });
  let policy;
  try {
    policy = (await retrying(() => api.getIamPolicy(query.name), { maxElapsedMs: READ_RETRY_MS })).value;
  } catch (error) {
    const labels = [...new Set(grants.map((g) => g.label))].join(', ');
    return [
      {
        text: `the IAM policy of ${query.name} could not be read to check ${labels}: ${(error as Error).message}`,
        keys: grants.map((g) => g.key),
      },
    ];
  }
  return grants.flatMap(({ key, label, grant: json }) => {
    const grant = parseGrant(json);
    const found = grantDrift(grant, policy);
    return found.length === 0 ? [] : [{ text: `${label}: ${describeGrant(grant)}: ${found.join('; ')}.`, keys: [key] }];
  });
}

/** The keys of the grants whose configured value the Terraform state holds, applied. */
function appliedKeys(grants: CheckedGrant[], query: DriftQuery, env: NodeJS.ProcessEnv): Set<string> {
  const inState = appliedInstances(query.resource, env, query.applied);
  return new Set(grants.filter(({ key, grant }) => inState.get(key)?.grant === grant).map((g) => g.key));
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
