import { IamValidationError } from './errors';
import { DOMAIN_PATTERN, MAX_DOMAIN_LENGTH } from './principal-forms';

/**
 * The IAM security rules: one table, read by the synth wing (the
 * GoogleIamChecks aspect, its reports) and by the provider (the same findings
 * at validate, plan and apply). Each rule has a stable ID that users,
 * suppressions and reports rely on, a default level, one line of what it
 * finds, what to do instead, and where it comes from. check-grant.ts judges
 * grants by it.
 */

/** A finding's level: an error fails synth (and, with `iam_checks = "enforce"`, the apply); a warning is reported. */
export type CheckLevel = 'error' | 'warning';

/** What a user may set a rule to: a level, or `off`. */
export type CheckRuleSetting = CheckLevel | 'off';

/** Where a rule's source is published. */
export interface CheckSource {
  /** e.g. `CIS Google Cloud Platform Foundations Benchmark 1.6`. */
  readonly title: string;
  readonly url: string;
}

/** One rule of the table. */
export interface CheckRule {
  /** Stable: never renamed or reused (suppressions and reports name it). */
  readonly id: string;
  /** The level unless the user sets another. */
  readonly level: CheckLevel;
  /** A short name, e.g. `Public principal`. */
  readonly name: string;
  /** What it finds, one line. */
  readonly description: string;
  /** What to do instead, one line. */
  readonly instead: string;
  readonly sources: readonly CheckSource[];
  /**
   * `grant`: judged on each grant alone (at synth, and by the provider at validate, plan and apply);
   * `stack`: needs every grant of a stack in view, so judged at synth only.
   */
  readonly scope: 'grant' | 'stack';
}

const CIS = 'CIS Google Cloud Platform Foundations Benchmark';
const CIS_URL = 'https://www.cisecurity.org/benchmark/google_cloud_computing_platform';

/** The rules, in the order reports list them. */
export const CHECK_RULES: readonly CheckRule[] = [
  {
    id: 'GoogleIam-Public',
    level: 'error',
    name: 'Public principal',
    description:
      '`allUsers` or `allAuthenticatedUsers` as a member: anyone on the internet, or anyone with a Google account, holds the role.',
    instead:
      'Grant the role to the groups, users or service accounts that need it; if the resource must be public, suppress the finding with the reason.',
    sources: [
      { title: `${CIS} 1.9, 5.1, 7.1 (nothing anonymously or publicly accessible)`, url: CIS_URL },
      {
        title: 'Google Cloud: principal identifiers (allUsers, allAuthenticatedUsers)',
        url: 'https://cloud.google.com/iam/docs/principal-identifiers',
      },
    ],
    scope: 'grant',
  },
  {
    id: 'GoogleIam-BasicRole',
    level: 'warning',
    name: 'Basic role',
    description:
      '`roles/owner`, `roles/editor` or `roles/viewer`: thousands of permissions across Google Cloud services, far more than one task needs.',
    instead: 'Grant a predefined role that holds only what the principal needs (the IAM role recommender suggests one), or a custom role.',
    sources: [
      { title: "Google Cloud: basic roles (don't use them in production)", url: 'https://cloud.google.com/iam/docs/roles-overview#basic' },
    ],
    scope: 'grant',
  },
  {
    id: 'GoogleIam-SaImpersonation',
    level: 'error',
    name: 'Service account impersonation on a project, folder or organization',
    description:
      'A role that can act as service accounts or mint credentials for them (roles/iam.serviceAccountUser, roles/iam.serviceAccountTokenCreator, and every other non-basic role whose permissions allow it) granted on a project, folder or organization: it reaches every service account below.',
    instead:
      'Grant it on the one service account that is needed (projects/{project}/serviceAccounts/{email}), not on the project, folder or organization.',
    sources: [
      { title: `${CIS} 1.6 (no Service Account User or Token Creator at project level)`, url: CIS_URL },
      {
        title: 'Google Cloud: roles for service account authentication',
        url: 'https://cloud.google.com/iam/docs/service-account-permissions',
      },
    ],
    scope: 'grant',
  },
  {
    id: 'GoogleIam-SaAdmin',
    level: 'warning',
    name: 'Administrative role for a service account',
    description: 'A service account given a basic role, a role whose ID ends in admin or Admin, or a role that can change IAM policies.',
    instead:
      'Give the service account a role that holds only what its workload does; keep administration with people, who sign in and are audited as themselves.',
    sources: [{ title: `${CIS} 1.5 (service accounts have no admin privileges)`, url: CIS_URL }],
    scope: 'grant',
  },
  {
    id: 'GoogleIam-Domain',
    level: 'error',
    name: 'Member outside the allowed domains',
    description:
      'A user:, group:, serviceAccount: or domain: member whose domain is not one of the allowed member domains (checked only when they are set): what the organization policy constraints/iam.allowedPolicyMemberDomains refuses at apply.',
    instead: 'Grant a principal of an allowed domain, or add its domain to the allowed member domains if the organization allows it.',
    sources: [
      {
        title: 'Google Cloud: restricting identities by domain (constraints/iam.allowedPolicyMemberDomains)',
        url: 'https://cloud.google.com/organization-policy/restrict-domains',
      },
    ],
    scope: 'grant',
  },
  {
    id: 'GoogleIam-ConsumerAccount',
    level: 'warning',
    name: 'Consumer account',
    description:
      'A personal Google account (@gmail.com, @googlemail.com) as a member: the organization cannot manage, suspend or audit it.',
    instead: 'Grant a corporate identity (Cloud Identity or Google Workspace) or a group of them.',
    sources: [{ title: `${CIS} 1.1 (corporate login credentials are used)`, url: CIS_URL }],
    scope: 'grant',
  },
  {
    id: 'GoogleIam-SeparationOfDuties',
    level: 'warning',
    name: 'Separation of duties',
    description:
      'In one stack, one principal holds both roles/iam.serviceAccountAdmin and roles/iam.serviceAccountUser, or roles/cloudkms.admin and a roles/cloudkms.cryptoKey* role, on the same resource or one above it.',
    instead: 'Give the administration role and the use role to different principals.',
    sources: [
      { title: `${CIS} 1.8 (separation of duties for service account roles)`, url: CIS_URL },
      { title: `${CIS} 1.11 (separation of duties for KMS roles)`, url: CIS_URL },
    ],
    scope: 'stack',
  },
  {
    id: 'GoogleIam-ExpiredCondition',
    level: 'warning',
    name: 'Expired condition',
    description:
      'A condition that can no longer be true (e.g. request.time < timestamp("...") with the time past): the grant gives nothing.',
    instead: 'Remove the grant, or move the end of its condition if the access should go on.',
    sources: [
      {
        title: 'Google Cloud: date/time attributes of IAM conditions',
        url: 'https://cloud.google.com/iam/docs/conditions-attribute-reference#date-time',
      },
      { title: "Google Cloud: IAM policy linter's EffectiveTimeRangeCheck", url: 'https://cloud.google.com/iam/docs/linting-policies' },
    ],
    scope: 'grant',
  },
  {
    id: 'GoogleIam-AuthoritativeHierarchy',
    level: 'warning',
    name: 'Authoritative grant on a project, folder or organization',
    description:
      "An authoritative grant (a policy, a binding, or one principal's roles: it removes what it does not declare) on a project, folder or organization: a mistake there can lock everyone out, Terraform included.",
    instead:
      'Use member grants (…IamMember, googleiam_iam_member), which leave other principals alone, on projects, folders and organizations.',
    sources: [
      {
        title: 'Terraform google provider: IAM policy for projects (google_project_iam_policy can lock you out)',
        url: 'https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_project_iam',
      },
    ],
    scope: 'grant',
  },
];

const RULES_BY_ID: ReadonlyMap<string, CheckRule> = new Map(CHECK_RULES.map((rule) => [rule.id, rule]));

/** The rule of `id`, or undefined. */
export function checkRule(id: string): CheckRule | undefined {
  return RULES_BY_ID.get(id);
}

/** A suppression's reason must say something: at least this many characters. */
export const MIN_REASON_LENGTH = 10;

const RULE_SETTINGS: readonly CheckRuleSetting[] = ['error', 'warning', 'off'];

/** The known IDs, for messages. */
function knownIds(): string {
  return CHECK_RULES.map((rule) => rule.id).join(', ');
}

/** Checks a rule ID; `field` names where it was given. */
export function validateRuleId(id: string, field: string): string {
  if (typeof id !== 'string' || !RULES_BY_ID.has(id)) {
    throw new IamValidationError(field, id, `not a rule ID; the rules are ${knownIds()}`);
  }
  return id;
}

/** Checks one suppression: a known rule ID and a reason that says something. Returns the reason trimmed. */
export function validateSuppression(id: string, reason: string, field: string): string {
  validateRuleId(id, `${field}.id`);
  const trimmed = typeof reason === 'string' ? reason.trim() : '';
  if (trimmed.length < MIN_REASON_LENGTH) {
    throw new IamValidationError(
      `${field}.reason`,
      reason,
      `a suppression of ${id} needs a reason of at least ${MIN_REASON_LENGTH} characters that says why the finding is accepted (a reviewer reads it in the report)`,
    );
  }
  return trimmed;
}

/** Checks a rule setting (`error`, `warning` or `off`) of a known rule. */
export function validateRuleSetting(id: string, setting: string, field: string): CheckRuleSetting {
  validateRuleId(id, field);
  if (!(RULE_SETTINGS as readonly string[]).includes(setting)) {
    throw new IamValidationError(`${field}[${JSON.stringify(id)}]`, setting, 'expected "error", "warning" or "off"');
  }
  return setting as CheckRuleSetting;
}

/** Checks an allowed member domain, such as `example.com`; returns it lower-cased (Google compares domains so). */
export function validateAllowedDomain(domain: string, field: string): string {
  if (typeof domain !== 'string' || domain.length > MAX_DOMAIN_LENGTH || !DOMAIN_PATTERN.test(domain)) {
    throw new IamValidationError(field, domain, 'not a domain; expected a domain name such as example.com (no @, no scheme, no path)');
  }
  return domain.toLowerCase();
}

/** How the rules are set up: the allowed member domains and the rules' levels. */
export interface CheckSettings {
  /** The allowed member domains, lower-cased; GoogleIam-Domain is judged only when there are some. @default - none */
  readonly allowedMemberDomains?: readonly string[];
  /** Levels that differ from the rules' own, and rules turned off, by ID. @default - every rule at its own level */
  readonly rules?: ReadonlyMap<string, CheckRuleSetting>;
}

/** The level of rule `id` under `settings`, or `off`. */
export function ruleSetting(id: string, settings: CheckSettings): CheckRuleSetting {
  if (id === 'GoogleIam-Domain' && (settings.allowedMemberDomains ?? []).length === 0) return 'off';
  return settings.rules?.get(id) ?? RULES_BY_ID.get(id)?.level ?? 'off';
}
