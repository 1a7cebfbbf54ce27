import { checkGrant, raisedFindings, type CheckFinding } from '../../iam/check-grant';
import {
  checkRule,
  validateAllowedDomain,
  validateRuleSetting,
  validateSuppression,
  type CheckRuleSetting,
  type CheckSettings,
} from '../../iam/check-rules';
import { IamValidationError } from '../../iam/errors';
import type { Grant } from '../../iam/grant';
import { reportError } from '../errors';
import type { CtyObject, CtyValue } from '../framework/cty';
import { knownValue, stringOf } from '../framework/cty-values';
import type { Diagnostics } from '../framework/diagnostics';
import type { ValidationRequest } from '../framework/resource';
import type { Attribute } from '../framework/schema';

/**
 * The IAM security rules (lib/iam/check-rules.ts) in the provider, as the
 * GoogleIamChecks aspect applies them at synth: for HCL users, and for values
 * Terraform learns only at plan or apply. The provider block sets them up
 * (`iam_checks`, `allowed_member_domains`, `iam_check_rules`), each grant
 * resource may accept findings (`check_suppressions`, rule ID → reason).
 *
 * When each finding is reported (Terraform validates a configuration
 * statically in a process it never configures, then again in every plan and
 * apply walk, see framework/resource.ts):
 * - `warn` (the default): every finding is a warning, inside a plan or apply
 *   walk (so `terraform plan` prints it once);
 * - `enforce`: an error-level finding is an error where Terraform validates
 *   statically, a warning inside a plan or apply walk (an error there would
 *   stop `terraform destroy`'s refresh) saying that the apply refuses it, and
 *   the create or update refuses it before anything is sent; warning-level
 *   findings as under `warn`;
 * - `off`: nothing.
 * A suppression with an unknown rule ID or a short reason, like any refused
 * value, is an error statically, a warning in a walk, refused by the apply.
 */

/** `iam_checks`: what findings do. */
export type IamChecksMode = 'warn' | 'enforce' | 'off';

/** The provider block's check settings. */
export interface ProviderCheckSettings {
  readonly mode: IamChecksMode;
  readonly settings: CheckSettings;
}

const MODES: readonly IamChecksMode[] = ['warn', 'enforce', 'off'];
const DEFAULT_SETTINGS: ProviderCheckSettings = { mode: 'warn', settings: {} };

/** The provider block's attributes of the checks. */
export const CHECK_PROVIDER_ATTRIBUTES: readonly Attribute[] = [
  {
    name: 'iam_checks',
    description:
      'What the IAM security rules (docs/checks.md) do with a finding: `warn` (the default) reports each as a warning; `enforce` makes the findings of error-level rules errors (terraform plan fails where the configuration states the values, and terraform apply refuses a grant before sending anything); `off` checks nothing.',
    type: 'string',
    optional: true,
  },
  {
    name: 'allowed_member_domains',
    description:
      'The domains members may belong to, e.g. `["example.com"]` (subdomains included): a `user:`, `group:`, `serviceAccount:` or `domain:` member of another domain is a GoogleIam-Domain finding (an error-level rule), as the organization policy `constraints/iam.allowedPolicyMemberDomains` would refuse it. Unset: not checked.',
    type: ['list', 'string'],
    optional: true,
  },
  {
    name: 'iam_check_rules',
    description:
      'Rule levels that differ from the rules\' own: rule ID → `error`, `warning` or `off`, e.g. `{ "GoogleIam-BasicRole" = "error" }`.',
    type: ['map', 'string'],
    optional: true,
  },
];

const parsed = new WeakMap<CtyObject, ProviderCheckSettings>();

/** The check settings of the provider block's values (defaults for what is unset, unknown or refused). */
export function checkSettingsOf(config: CtyObject | undefined): ProviderCheckSettings {
  if (!config) return DEFAULT_SETTINGS;
  let settings = parsed.get(config);
  if (!settings) {
    try {
      settings = readSettings(config);
    } catch {
      settings = DEFAULT_SETTINGS;
    }
    parsed.set(config, settings);
  }
  return settings;
}

/** ValidateProviderConfig's part: each refused check setting is an error on its attribute. */
export function validateCheckSettings(config: CtyObject, diagnostics: Diagnostics): void {
  try {
    readSettings(config);
  } catch (error) {
    reportError(diagnostics, 'Invalid IAM check settings', error, (field) => [field.split(/[.[]/)[0]]);
  }
}

function readSettings(config: CtyObject): ProviderCheckSettings {
  const mode = stringOf(config.iam_checks) ?? 'warn';
  if (!(MODES as readonly string[]).includes(mode)) {
    throw new IamValidationError('iam_checks', mode, 'expected "warn", "enforce" or "off"');
  }
  const domains = Array.isArray(config.allowed_member_domains) ? config.allowed_member_domains : [];
  const allowedMemberDomains = domains
    .filter((d): d is string => typeof d === 'string')
    .map((d) => validateAllowedDomain(d, 'allowed_member_domains'));
  const rules = new Map<string, CheckRuleSetting>();
  for (const [id, setting] of knownStrings(config.iam_check_rules)) rules.set(id, validateRuleSetting(id, setting, 'iam_check_rules'));
  return { mode: mode as IamChecksMode, settings: { allowedMemberDomains, rules } };
}

/** The known string entries of a map value. */
function knownStrings(value: CtyValue | undefined): [string, string][] {
  if (!(value instanceof Map)) return [];
  return [...value].filter((e): e is [string, string] => typeof e[1] === 'string');
}

/** `check_suppressions` as rule ID → reason; an unknown rule ID or a short reason throws (IamValidationError). */
export function suppressionsOf(value: CtyValue | ReadonlyMap<string, string> | undefined): Map<string, string> {
  const suppressions = new Map<string, string>();
  for (const [id, reason] of knownStrings(value as CtyValue)) {
    suppressions.set(id, validateSuppression(id, reason, `check_suppressions[${JSON.stringify(id)}]`));
  }
  return suppressions;
}

/**
 * ValidateResourceConfig's part (one call in grant-resource.ts): the findings of what is known of `grant`
 * (its resource's `name` read from `values`), reported as the module's comment says.
 */
export function reportCheckFindings(diagnostics: Diagnostics, grant: Grant, values: CtyObject, request: ValidationRequest): void {
  const { mode, settings } = checkSettingsOf(request.providerConfig);
  if (mode === 'off') return;
  let suppressions: Map<string, string>;
  try {
    suppressions = suppressionsOf(values.check_suppressions);
  } catch (error) {
    reportSuppressionError(diagnostics, error, request.providerConfigured);
    return;
  }
  const name = values.name;
  const resource = { ...grant.resource, name: typeof name === 'string' ? name : (name as unknown as string) };
  const check = checkGrant({ ...grant, resource }, { settings, now: new Date(), isKnown: knownValue, suppressions });
  for (const finding of raisedFindings(check)) {
    const enforced = mode === 'enforce' && finding.level === 'error';
    if (!request.providerConfigured) {
      if (enforced) diagnostics.error(summaryOf(finding), detailOf(finding));
    } else {
      diagnostics.warning(
        summaryOf(finding),
        enforced
          ? `${detailOf(finding)} With iam_checks = "enforce", terraform apply refuses it before sending anything to Google (a warning here, not an error, so that terraform destroy still works with this configuration).`
          : detailOf(finding),
      );
    }
  }
}

/**
 * Create's and Update's part (one call each in grant-resource.ts): with `enforce`, the error-level findings of
 * the grant about to be written, values learned at apply included, are errors, and nothing is sent. A refused
 * suppression is refused as in validate. True when the grant is refused.
 */
export function refusedByChecks(
  checks: ProviderCheckSettings,
  grant: Grant,
  checkSuppressions: ReadonlyMap<string, string> | undefined,
  diagnostics: Diagnostics,
): boolean {
  if (checks.mode === 'off') return false;
  let suppressions: Map<string, string>;
  try {
    suppressions = suppressionsOf(checkSuppressions);
  } catch (error) {
    reportSuppressionError(diagnostics, error, false);
    return true;
  }
  if (checks.mode !== 'enforce') return false;
  const check = checkGrant(grant, { settings: checks.settings, now: new Date(), suppressions });
  const refused = raisedFindings(check).filter((f) => f.level === 'error');
  for (const finding of refused) {
    diagnostics.error(summaryOf(finding), `${detailOf(finding)} Refused by iam_checks = "enforce": nothing was sent to Google.`);
  }
  return refused.length > 0;
}

function reportSuppressionError(diagnostics: Diagnostics, error: unknown, inWalk: boolean): void {
  const summary = 'Invalid check_suppressions';
  if (!(error instanceof IamValidationError)) throw error;
  const detail = `${error.message}. Each entry is a rule ID (docs/checks.md) and the reason the finding is accepted`;
  const attribute = ['check_suppressions'];
  if (inWalk) {
    diagnostics.warning(summary, `${detail}. terraform apply refuses it before sending anything to Google`, attribute);
  } else {
    diagnostics.error(summary, detail, attribute);
  }
}

/** `GoogleIam-Public: Public principal`. */
function summaryOf(finding: CheckFinding): string {
  return `${finding.rule}: ${checkRule(finding.rule)?.name ?? finding.rule}`;
}

/** What was found, what to do, and how to accept it. */
function detailOf(finding: CheckFinding): string {
  return `${finding.message}. ${finding.instead} To accept it, set check_suppressions = { "${finding.rule}" = "<why>" } on this resource.`;
}
