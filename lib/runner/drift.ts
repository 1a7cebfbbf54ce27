import { GoogleRestClient } from '../api/client';
import { retrying } from '../api/backoff';
import { GET_IAM_POLICY_SHAPES } from '../api/iam-apis';
import { IamPolicyApi } from '../api/iam-policy';
import { grantDrift } from '../iam/drift';
import { describeGrant } from '../iam/grant';
import { parseGrant } from './grant-input';

/** What the drift check of one policy hands the runner (strings only, as `external` requires). */
export interface DriftQuery {
  readonly service: string;
  readonly apiVersion: string;
  readonly getIamPolicyMethod?: string;
  readonly name: string;
  /** JSON: `[{ key, label, grant }]`, `grant` being the grant's JSON as the grants resource holds it. */
  readonly grants: string;
  /** The Terraform address of the grants resource, for the repair command. */
  readonly resource: string;
}

/** How long a drift read retries transient errors before it reports them. */
const READ_RETRY_MS = 20_000;

interface CheckedGrant {
  readonly key: string;
  readonly label: string;
  readonly grant: string;
}

/**
 * Reads the policy once and reports, for every grant of this stack on it,
 * how Google differs from the code, each with the one command that repairs
 * it. An empty `drift` means no drift. Runs at plan time, from the stack's
 * drift check (a Terraform `check` block: a report is a warning, not an error).
 */
export async function runDrift(query: DriftQuery, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const grants = JSON.parse(query.grants) as CheckedGrant[];
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
    // A check warns; it must not fail the plan (the grants' own apply reports such errors).
    const labels = [...new Set(grants.map((g) => g.label))].join(', ');
    return {
      drift: `the IAM policy of ${query.name} could not be read to check ${labels}: ${(error as Error).message}`,
      checked: String(grants.length),
      drifted: String(grants.length),
    };
  }
  const reports = grants.flatMap(({ key, label, grant: json }) => {
    const grant = parseGrant(json);
    const problems = grantDrift(grant, policy);
    if (problems.length === 0) return [];
    const address = `${query.resource}[${JSON.stringify(key)}]`;
    return [`${label}: ${describeGrant(grant)}: ${problems.join('; ')}. Repair: terraform apply -replace='${address}'`];
  });
  return { drift: reports.join('\n'), checked: String(grants.length), drifted: String(reports.length) };
}
