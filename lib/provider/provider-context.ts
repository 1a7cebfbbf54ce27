import { GoogleRestClient } from '../api/client';
import { IamPolicyApi } from '../api/iam-policy';
import { GoogleIamApis } from '../api/iam-apis';
import { ProjectIds } from '../api/project-ids';
import { defaultProject } from '../api/credentials';
import { retrySchedule, type RetrySchedule } from '../api/retry-policy';
import { PolicyBatchers } from './policies/policy-batchers';
import type { RunDeclarations } from './policies/run-declarations';
import type { PolicyBatcherOptions } from './policies/policy-batcher';
import { checkSettingsOf, type ProviderCheckSettings } from './resources/check-findings';
import { UNKNOWN_COMMAND, type TerraformCommand } from './protocol/terraform-command';

/** The provider block's settings (each undefined when the block leaves it out). */
export interface ProviderSettings {
  readonly project?: string;
  /** A path to a credentials JSON, or the JSON itself. */
  readonly credentials?: string;
  readonly accessToken?: string;
  readonly impersonateServiceAccount?: string;
  /** `eventual_consistency_timeout`, in ms. */
  readonly eventualConsistencyTimeoutMs?: number;
  /** `iam_checks`, `allowed_member_domains`, `iam_check_rules`. @default - warn, every rule at its level */
  readonly checks?: ProviderCheckSettings;
}

/** What every call of one configured provider process shares. */
export interface GoogleIamContext {
  /** One client: credentials are loaded, and a token fetched, once per process. */
  readonly client: GoogleRestClient;
  /** The environment with the provider block's settings applied (retry and endpoint variables, credentials). */
  readonly env: NodeJS.ProcessEnv;
  /** Every policy's batcher and kept read. */
  readonly policies: PolicyBatchers;
  /** Data source reads and lookups (retry-policy.ts `read`). */
  readonly readRetry: RetrySchedule;
  /**
   * A grant's wait for what it names to become visible to IAM (retry-policy.ts
   * `visibility`; the provider block's `eventual_consistency_timeout`).
   */
  readonly visibilityRetry: RetrySchedule;
  /** The IAM security rules' settings (resources/check-findings.ts). */
  readonly checks: ProviderCheckSettings;
  /** What the terraform command is about (a destroy: findings on the configuration are warnings, terraform-command.ts). */
  readonly command: TerraformCommand;
  /** The provider block's project, else the environment's or the credentials' (lib/api `defaultProject`). */
  defaultProject(): Promise<string | undefined>;
}

/**
 * Builds the context from the provider block and the environment. The
 * block's values take precedence as in the Terraform google provider, whose
 * `access_token` and `credentials` attributes fall back on
 * `GOOGLE_OAUTH_ACCESS_TOKEN` and `GOOGLE_CREDENTIALS` (and its aliases), and
 * which authenticates with a token whenever it has one (lib/api
 * credential-source.ts follows the same order): so `access_token` is the
 * client's token, and `credentials` stands in for `GOOGLE_CREDENTIALS`,
 * still yielding to a token in the environment. Everything else comes from
 * the environment as lib/api reads it (ADC, impersonation, endpoint
 * overrides, retries). Throws a RetrySettingError for a bad retry variable.
 */
export function createContext(
  settings: ProviderSettings,
  processEnv: NodeJS.ProcessEnv = process.env,
  batching: Partial<Pick<PolicyBatcherOptions, 'maxGatherMs' | 'idleGatherMs'>> = {},
  /** What the run's other provider processes declare (run-declarations.ts). @default - none: this process alone */
  declarations?: RunDeclarations,
  /** The terraform command this process serves. @default - unknown: judged as a plan or apply */
  command: TerraformCommand = UNKNOWN_COMMAND,
): GoogleIamContext {
  const env: NodeJS.ProcessEnv = {
    ...processEnv,
    ...(settings.credentials !== undefined ? { GOOGLE_CREDENTIALS: settings.credentials } : {}),
    ...(settings.impersonateServiceAccount !== undefined ? { GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: settings.impersonateServiceAccount } : {}),
  };
  const client = new GoogleRestClient({ env, ...(settings.accessToken !== undefined ? { accessToken: settings.accessToken } : {}) });
  const readRetry = retrySchedule('read', env);
  const projects = new ProjectIds(client, readRetry);
  // A bucket named either way (`projects/_/buckets/x`, `b/x`) is one policy: one lock, one batch.
  const policies = new PolicyBatchers(
    {
      endpointOf: (resource) => new IamPolicyApi(client, resource),
      canonicalName: (service, name) => projects.canonical(GoogleIamApis.pathName(service, name)),
      declarations,
    },
    { change: retrySchedule('change', env), read: readRetry, staleRead: retrySchedule('staleRead', env), ...batching },
  );
  return {
    client,
    env,
    policies,
    readRetry,
    visibilityRetry: retrySchedule('visibility', env, settings.eventualConsistencyTimeoutMs),
    checks: settings.checks ?? checkSettingsOf(undefined),
    command,
    defaultProject: async () => settings.project ?? (await defaultProject(env)),
  };
}
