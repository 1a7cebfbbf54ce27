import { checkRule, ruleSetting, type CheckLevel, type CheckSettings } from './check-rules';
import { conditionExpiry } from './condition-expiry';
import { grantedBindings, isAuthoritative, type Grant, type GrantedBinding } from './grant';
import type { IsKnown } from './types';
import { comparisonKey } from './principal';
import { isBasicRole } from './role';
import { predefinedRole } from './role-table';

/**
 * Judges grants by the rules of check-rules.ts, whatever their kind: every
 * role each grant gives each principal (grantedBindings), with what is known
 * of it (a value only Terraform knows is judged by the provider once it does).
 * The synth wing judges each grant and then the stack (separationOfDuties); the
 * provider judges each grant resource.
 */

/** How a grant is judged. */
export interface CheckOptions {
  readonly settings: CheckSettings;
  /** The clock GoogleIam-ExpiredCondition compares with (tests pass a fixed one). */
  readonly now: Date;
  /** Whether a value is known; unknown ones are left to the provider. @default - every value is */
  readonly isKnown?: IsKnown;
  /** The suppressions that cover the grant: rule ID → reason. @default - none */
  readonly suppressions?: ReadonlyMap<string, string>;
}

/** A rule a grant breaks. */
export interface CheckFinding {
  readonly rule: string;
  /** Its level under the settings. */
  readonly level: CheckLevel;
  /** What was found, naming the role, the principal and the resource as the rule needs. */
  readonly message: string;
  /** What to do instead. */
  readonly instead: string;
  /** The reason of the suppression that covers it: then it is reported, never raised. */
  readonly suppressedBecause?: string;
}

/** One role one grant gives one principal, as judged; undefined values are known only at apply. */
export interface CheckedEntry {
  readonly role?: string;
  readonly member?: string;
  readonly condition?: { readonly title?: string; readonly expression?: string };
  readonly findings: CheckFinding[];
}

/** One grant, judged. */
export interface GrantCheck {
  /** The resource whose policy holds it; undefined when known only at apply. */
  readonly resourceName?: string;
  /** Whether it removes what it does not declare (a binding's other members, a policy's other bindings, a principal's other roles). */
  readonly authoritative: boolean;
  readonly entries: CheckedEntry[];
  /** Whether some value is known only at apply: the provider judges it then. */
  readonly pending: boolean;
}

/** What an entry rule sees of one role given to one principal. */
interface Facts {
  readonly role?: string;
  readonly member?: string;
  readonly principal?: MemberFacts;
  readonly resourceName?: string;
  readonly authoritative: boolean;
  readonly condition?: { readonly title?: string; readonly expression?: string };
  readonly settings: CheckSettings;
  readonly now: Date;
}

/** A rule judged on each entry: the message of what it found, or undefined (also when what it needs is unknown). */
type EntryRule = (facts: Facts) => string | undefined;

/** `projects/{p}`, `folders/{f}`, `organizations/{o}`: the resources a grant reaches everything below of. */
const HIERARCHY = /^(projects\/[^/]+|folders\/[0-9]+|organizations\/[0-9]+)$/;
const CONSUMER_DOMAINS: ReadonlySet<string> = new Set(['gmail.com', 'googlemail.com']);
const EMAIL_KINDS: ReadonlySet<string> = new Set(['user', 'group', 'serviceAccount']);
/** What a service-account capability lets a principal do, for messages. */
const SERVICE_ACCOUNT_POWERS: Readonly<Record<string, string>> = {
  actAsServiceAccounts: 'act as',
  mintServiceAccountTokens: 'mint access and ID tokens for',
  createServiceAccountKeys: 'create keys for',
};

/** Whether `name` is a project, folder or organization. */
export function isHierarchyResource(name: string): boolean {
  return HIERARCHY.test(name);
}

const on = (facts: Facts) => (facts.resourceName === undefined ? '' : ` on ${facts.resourceName}`);
const list = (items: readonly string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

const ENTRY_RULES: ReadonlyArray<readonly [string, EntryRule]> = [
  [
    'GoogleIam-Public',
    (facts) => {
      const role = facts.role ?? 'the role';
      if (facts.member === 'allUsers') return `allUsers holds ${role}${on(facts)}: anyone on the internet, without signing in`;
      if (facts.member === 'allAuthenticatedUsers')
        return `allAuthenticatedUsers holds ${role}${on(facts)}: anyone with a Google account, not only your organization's`;
      return undefined;
    },
  ],
  [
    'GoogleIam-BasicRole',
    (facts) =>
      facts.role !== undefined && isBasicRole(facts.role)
        ? `${facts.role}${on(facts)} is a basic role: thousands of permissions across Google Cloud services`
        : undefined,
  ],
  [
    'GoogleIam-SaImpersonation',
    (facts) => {
      const { role, resourceName } = facts;
      if (role === undefined || resourceName === undefined || !isHierarchyResource(resourceName) || isBasicRole(role)) return undefined;
      const powers = (predefinedRole(role)?.capabilities ?? []).map((c) => SERVICE_ACCOUNT_POWERS[c]).filter((p) => p !== undefined);
      if (powers.length === 0) return undefined;
      return `${role} on ${resourceName} lets its principals ${list(powers)} every service account under ${resourceName}`;
    },
  ],
  [
    'GoogleIam-SaAdmin',
    (facts) => {
      const { role, member, principal } = facts;
      if (role === undefined || member === undefined || principal?.kind !== 'serviceAccount') return undefined;
      const why = isBasicRole(role)
        ? 'a basic role'
        : (predefinedRole(role)?.capabilities ?? []).includes('setIamPolicy')
          ? 'a role that can change IAM policies'
          : /(admin|Admin)$/.test(role)
            ? 'an administrative role'
            : undefined;
      return why === undefined ? undefined : `the service account ${member} gets ${role}${on(facts)}, ${why}`;
    },
  ],
  [
    'GoogleIam-Domain',
    (facts) => {
      const domain = facts.principal?.domain;
      const allowed = facts.settings.allowedMemberDomains ?? [];
      if (domain === undefined || allowed.length === 0 || allowed.some((d) => domain === d || domain.endsWith(`.${d}`))) return undefined;
      return `${facts.member} is outside the allowed member domains (${allowed.join(', ')}): an organization policy constraints/iam.allowedPolicyMemberDomains refuses it at apply`;
    },
  ],
  [
    'GoogleIam-ConsumerAccount',
    (facts) => {
      const domain = facts.principal && EMAIL_KINDS.has(facts.principal.kind) ? facts.principal.domain : undefined;
      return domain !== undefined && CONSUMER_DOMAINS.has(domain)
        ? `${facts.member} is a consumer Google account (@${domain}), which the organization does not manage`
        : undefined;
    },
  ],
  [
    'GoogleIam-ExpiredCondition',
    (facts) => {
      const expression = facts.condition?.expression;
      const expiry = expression === undefined ? undefined : conditionExpiry(expression, facts.now);
      if (!expiry) return undefined;
      const title = facts.condition?.title === undefined ? '' : ` ${JSON.stringify(facts.condition.title)}`;
      return `the condition${title} of ${facts.role ?? 'the role'}${on(facts)} can no longer be true: ${expiry.comparison} ended at ${expiry.time}, so the grant gives nothing`;
    },
  ],
  [
    'GoogleIam-AuthoritativeHierarchy',
    (facts) =>
      facts.authoritative && facts.resourceName !== undefined && isHierarchyResource(facts.resourceName)
        ? `an authoritative grant on ${facts.resourceName} removes what it does not declare there, and a mistake can lock everyone out, Terraform included`
        : undefined,
  ],
];

type LevelledRule = readonly [string, EntryRule, CheckLevel];
const rulesBySettings = new WeakMap<CheckSettings, readonly LevelledRule[]>();

/** The entry rules that are on under `settings`, with their levels (once per settings object). */
function entryRulesUnder(settings: CheckSettings): readonly LevelledRule[] {
  let rules = rulesBySettings.get(settings);
  if (!rules) {
    rules = ENTRY_RULES.flatMap(([id, judge]): LevelledRule[] => {
      const level = ruleSetting(id, settings);
      return level === 'off' ? [] : [[id, judge, level]];
    });
    rulesBySettings.set(settings, rules);
  }
  return rules;
}

/** Judges one grant under `options`: an entry per role and principal it gives, each with its findings. */
export function checkGrant(grant: Grant, options: CheckOptions): GrantCheck {
  const isKnown = options.isKnown ?? (() => true);
  const known = (value: unknown): value is string => typeof value === 'string' && isKnown(value);
  const resourceName = known(grant.resource?.name) && grant.resource.name !== '' ? grant.resource.name : undefined;
  const authoritative = isAuthoritative(grant.mode);
  const rules = entryRulesUnder(options.settings);
  let pending = resourceName === undefined;
  const entries: CheckedEntry[] = [];
  for (const binding of bindingsOf(grant, isKnown)) {
    const role = known(binding?.role) ? binding.role : undefined;
    const condition = conditionOf(binding?.condition, known);
    const members: readonly unknown[] =
      binding && isKnown(binding.members) && Array.isArray(binding.members) ? binding.members : [undefined];
    pending ||= role === undefined || (condition !== undefined && (condition.title === undefined || condition.expression === undefined));
    for (const value of members) {
      const member = known(value) ? value : undefined;
      pending ||= member === undefined;
      const facts: Facts = {
        role,
        member,
        principal: principalOf(member),
        resourceName,
        authoritative,
        condition,
        settings: options.settings,
        now: options.now,
      };
      const findings: CheckFinding[] = [];
      for (const [id, judge, level] of rules) {
        const message = judge(facts);
        if (message !== undefined) findings.push(finding(id, level, message, options.suppressions));
      }
      entries.push({
        ...(role === undefined ? {} : { role }),
        ...(member === undefined ? {} : { member }),
        ...(condition ? { condition } : {}),
        findings,
      });
    }
  }
  return { ...(resourceName === undefined ? {} : { resourceName }), authoritative, entries, pending };
}

/** A grant of a stack for separationOfDuties: its judgement, where it is declared (for messages), and its suppressions. */
export interface StackGrant {
  readonly check: GrantCheck;
  /** How messages name it: a construct path. */
  readonly where: string;
  readonly suppressions?: ReadonlyMap<string, string>;
}

/** The role pairs that one principal should not hold together: an administration role, and the use it administers. */
const DUTIES: ReadonlyArray<{ readonly admin: string; readonly uses: (role: string) => boolean; readonly what: string }> = [
  {
    admin: 'roles/iam.serviceAccountAdmin',
    uses: (role) => role === 'roles/iam.serviceAccountUser',
    what: 'both administers service accounts and acts as them',
  },
  {
    admin: 'roles/cloudkms.admin',
    uses: (role) => role.startsWith('roles/cloudkms.cryptoKey'),
    what: 'both administers Cloud KMS keys and uses them to encrypt or decrypt',
  },
];

/**
 * GoogleIam-SeparationOfDuties over every grant of a stack: a principal that
 * holds an administration role and the use it administers, on the same
 * resource or one above the other (a name and the names under it), gets a
 * finding on each of the two entries. Conditions are not looked into (a
 * conditional grant still gives the role at times).
 */
export function separationOfDuties(grants: readonly StackGrant[], settings: CheckSettings): void {
  const id = 'GoogleIam-SeparationOfDuties';
  const level = ruleSetting(id, settings);
  if (level === 'off') return;
  interface Held {
    readonly grant: StackGrant;
    readonly entry: CheckedEntry;
    readonly role: string;
    readonly resource: string;
  }
  const byPrincipal = new Map<string, Held[]>();
  for (const grant of grants) {
    const resource = grant.check.resourceName;
    if (resource === undefined) continue;
    for (const entry of grant.check.entries) {
      if (entry.role === undefined || entry.member === undefined) continue;
      if (!DUTIES.some((d) => d.admin === entry.role || d.uses(entry.role!))) continue;
      const key = comparisonKey(entry.member);
      const held = byPrincipal.get(key) ?? [];
      held.push({ grant, entry, role: entry.role, resource });
      byPrincipal.set(key, held);
    }
  }
  const related = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
  for (const held of byPrincipal.values()) {
    for (const duty of DUTIES) {
      for (const admin of held.filter((h) => h.role === duty.admin)) {
        for (const use of held.filter((h) => duty.uses(h.role) && related(h.resource, admin.resource))) {
          const pair = (self: Held, other: Held) =>
            `${self.entry.member} ${duty.what}: it holds ${self.role} on ${self.resource} and ${other.role} on ${other.resource} (${other.grant.where})`;
          for (const [self, other] of [
            [admin, use],
            [use, admin],
          ] as const) {
            const message = pair(self, other);
            if (!self.entry.findings.some((f) => f.rule === id && f.message === message)) {
              self.entry.findings.push(finding(id, level, message, self.grant.suppressions));
            }
          }
        }
      }
    }
  }
}

/** The findings to raise for a judged grant: not suppressed, each message once (a binding's role-level finding is the same for every member). */
export function raisedFindings(check: GrantCheck): CheckFinding[] {
  if (check.entries.every((e) => e.findings.length === 0)) return [];
  const seen = new Set<string>();
  const raised: CheckFinding[] = [];
  for (const entry of check.entries) {
    for (const f of entry.findings) {
      const key = `${f.rule}|${f.message}`;
      if (f.suppressedBecause !== undefined || seen.has(key)) continue;
      seen.add(key);
      raised.push(f);
    }
  }
  return raised;
}

/** A finding's text as raised: `GoogleIam-Public: what was found. What to do instead.` */
export function findingText(f: CheckFinding): string {
  return `${f.rule}: ${f.message}. ${f.instead}`;
}

function finding(id: string, level: CheckLevel, message: string, suppressions?: ReadonlyMap<string, string>): CheckFinding {
  const reason = suppressions?.get(id);
  return { rule: id, level, message, instead: checkRule(id)!.instead, ...(reason === undefined ? {} : { suppressedBecause: reason }) };
}

/** The grant's bindings; one unknown binding when Terraform knows them only at apply. */
function bindingsOf(grant: Grant, isKnown: IsKnown): ReadonlyArray<Partial<GrantedBinding> | undefined> {
  try {
    const bindings = grantedBindings(grant);
    return bindings.map((b) => (typeof b === 'object' && b !== null && isKnown(b) ? b : undefined));
  } catch {
    return [undefined];
  }
}

function conditionOf(
  condition: unknown,
  known: (value: unknown) => value is string,
): { readonly title?: string; readonly expression?: string } | undefined {
  if (condition === undefined || condition === null) return undefined;
  if (typeof condition !== 'object') return {};
  const { title, expression } = condition as { title?: unknown; expression?: unknown };
  return { ...(known(title) ? { title } : {}), ...(known(expression) ? { expression } : {}) };
}

/** What the rules read of a principal: its kind (`user`, `group`, `serviceAccount`, `domain`, or another) and its domain. */
interface MemberFacts {
  readonly kind: string;
  /** Lower-cased: an email principal's (`user:`, `group:`, `serviceAccount:`) or a `domain:` one's. */
  readonly domain?: string;
}

/**
 * The principal's kind and domain, read off its prefix (the validators have checked its form: lib/iam/principal.ts);
 * a Kubernetes service account (`serviceAccount:{project}.svc.id.goog[{ns}/{ksa}]`) has no domain, nor does a
 * deleted one.
 */
function principalOf(member: string | undefined): MemberFacts | undefined {
  if (member === undefined) return undefined;
  const colon = member.indexOf(':');
  if (colon < 0) return { kind: member };
  const kind = member.slice(0, colon);
  const value = member.slice(colon + 1);
  if (kind === 'domain') return { kind, domain: value.toLowerCase() };
  if (!EMAIL_KINDS.has(kind)) return { kind };
  const at = value.lastIndexOf('@');
  return at < 0 ? { kind: 'kubernetesServiceAccount' } : { kind, domain: value.slice(at + 1).toLowerCase() };
}
