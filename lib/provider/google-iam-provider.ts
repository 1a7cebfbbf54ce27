import { reportError } from './errors';
import type { CtyObject } from './framework/cty';
import { parseDuration } from './framework/duration';
import type { ProviderDefinition } from './framework/resource';
import { IMPORT_JOB_DATA_SOURCE } from './data-sources/import-job';
import { IAM_POLICY_DATA_SOURCES } from './data-sources/iam-policy';
import { createContext, type GoogleIamContext, type ProviderSettings } from './provider-context';
import { stringOf } from './framework/cty-values';
import { IAM_RESOURCE_TYPES } from './resources/iam-types';
import { RunDeclarations } from './policies/run-declarations';
import { CHECK_PROVIDER_ATTRIBUTES, checkSettingsOf, validateCheckSettings } from './resources/check-findings';
import { terraformCommandOfParent, type TerraformCommand } from './protocol/terraform-command';

/**
 * The `googleiam` provider: the IAM member, binding and policy resources of
 * every typed resource type and the generic one, the IAM policy and import
 * job data sources, configured as the Terraform google provider is. `run`
 * gives what the other provider processes of the terraform run declare
 * (each alias is a process of its own); `command`, what the terraform
 * command is about (terraform-command.ts).
 */
export function googleIamProvider(
  env: NodeJS.ProcessEnv = process.env,
  run: () => RunDeclarations | undefined = () => RunDeclarations.ofThisRun(),
  command: () => TerraformCommand = () => terraformCommandOfParent(),
): ProviderDefinition<GoogleIamContext> {
  const contexts: GoogleIamContext[] = [];
  // One per process, made when first needed: the static validation records in it too (it is never configured).
  let declarations: { readonly run: RunDeclarations | undefined } | undefined;
  const runOnce = () => (declarations ??= { run: run() }).run;
  return {
    name: 'googleiam',
    get scope() {
      return runOnce();
    },
    schema: {
      version: 0,
      description:
        'Google Cloud IAM grants the Terraform google provider lacks. Credentials, endpoints and retries as the google provider and gcloud read them from the environment.',
      attributes: [
        {
          name: 'project',
          description: "The default project of the data sources; else `GOOGLE_CLOUD_PROJECT` and the like, else the credentials'.",
          type: 'string',
          optional: true,
        },
        {
          name: 'credentials',
          description:
            'A credentials JSON, or the path of one (as the google provider); else `GOOGLE_CREDENTIALS` and Application Default Credentials.',
          type: 'string',
          optional: true,
          sensitive: true,
        },
        {
          name: 'access_token',
          description: 'An OAuth 2 access token; else `GOOGLE_OAUTH_ACCESS_TOKEN`.',
          type: 'string',
          optional: true,
          sensitive: true,
        },
        {
          name: 'impersonate_service_account',
          description: 'A service account to impersonate; else `GOOGLE_IMPERSONATE_SERVICE_ACCOUNT`.',
          type: 'string',
          optional: true,
        },
        {
          name: 'eventual_consistency_timeout',
          description:
            "How long a grant's create or update waits, retrying with backoff, while Google answers NOT_FOUND or PERMISSION_DENIED for its resource, or refuses a service account member as not existing: what IAM answers for a while about things created moments ago (Google's IAM is eventually consistent). A duration such as `90s` or `2m`; `0s` fails at once. Default `2m`.",
          type: 'string',
          optional: true,
        },
        ...CHECK_PROVIDER_ATTRIBUTES,
      ],
    },
    resources: IAM_RESOURCE_TYPES,
    dataSources: [...IAM_POLICY_DATA_SOURCES, IMPORT_JOB_DATA_SOURCE],
    validate(config, diagnostics) {
      // As the google provider's schema (ConflictsWith): one way to authenticate.
      if (stringOf(config.credentials) !== undefined && stringOf(config.access_token) !== undefined) {
        diagnostics.error('Conflicting credentials', 'set either credentials or access_token in the provider block, not both', [
          'access_token',
        ]);
      }
      const timeout = stringOf(config.eventual_consistency_timeout);
      if (timeout !== undefined && parseDuration(timeout) === undefined) {
        diagnostics.error(
          'Invalid eventual_consistency_timeout',
          `expected a duration such as "90s", "2m" or "1m30s" (got ${JSON.stringify(timeout)})`,
          ['eventual_consistency_timeout'],
        );
      }
      validateCheckSettings(config, diagnostics);
    },
    async configure(config, diagnostics) {
      try {
        const context = createContext(settingsOf(config), env, {}, runOnce(), command());
        contexts.push(context);
        return context;
      } catch (error) {
        reportError(diagnostics, 'Cannot configure the googleiam provider', error);
        return undefined as never;
      }
    },
    stop() {
      for (const context of contexts) context.policies.stop();
    },
  };
}

function settingsOf(config: CtyObject): ProviderSettings {
  const settings: { -readonly [K in keyof ProviderSettings]: ProviderSettings[K] } = {};
  const project = stringOf(config.project);
  const credentials = stringOf(config.credentials);
  const accessToken = stringOf(config.access_token);
  const impersonate = stringOf(config.impersonate_service_account);
  const timeout = stringOf(config.eventual_consistency_timeout);
  const timeoutMs = timeout === undefined ? undefined : parseDuration(timeout);
  if (project) settings.project = project;
  if (credentials) settings.credentials = credentials;
  if (accessToken) settings.accessToken = accessToken;
  if (impersonate) settings.impersonateServiceAccount = impersonate;
  if (timeoutMs !== undefined) settings.eventualConsistencyTimeoutMs = timeoutMs;
  settings.checks = checkSettingsOf(config);
  return settings;
}
