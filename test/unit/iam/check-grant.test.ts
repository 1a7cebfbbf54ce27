/**
 * The IAM security rules of lib/iam (check-rules.ts, check-grant.ts,
 * condition-expiry.ts): for each rule a grant that breaks it and a near
 * miss that does not; every kind of grant; values not known yet; levels,
 * `off` and suppressions; the rule table itself. The clock is fixed.
 */
import { checkGrant, findingText, raisedFindings, separationOfDuties, type CheckOptions } from '../../../lib/iam/check-grant';
import {
  CHECK_RULES,
  validateAllowedDomain,
  validateRuleSetting,
  validateSuppression,
  type CheckSettings,
} from '../../../lib/iam/check-rules';
import { conditionExpiry } from '../../../lib/iam/condition-expiry';
import type { Grant, IamResource } from '../../../lib/iam/grant';
import { IamValidationError } from '../../../lib/iam/errors';

const NOW = new Date('2026-09-01T12:00:00Z');
const AP: IamResource = {
  service: 'networksecurity',
  apiVersion: 'v1',
  name: 'projects/my-project/locations/global/authorizationPolicies/ap',
};
const PROJECT: IamResource = { service: 'cloudresourcemanager', apiVersion: 'v3', name: 'projects/my-project' };
const FOLDER: IamResource = { service: 'cloudresourcemanager', apiVersion: 'v3', name: 'folders/123456' };
const SA: IamResource = {
  service: 'iam',
  apiVersion: 'v1',
  name: 'projects/my-project/serviceAccounts/ci@my-project.iam.gserviceaccount.com',
};

const member = (resource: IamResource, role: string, who: string, condition?: { title: string; expression: string }): Grant => ({
  mode: 'member',
  resource,
  role,
  member: who,
  ...(condition ? { condition } : {}),
});

/** The rule IDs a grant's raised findings name, in order. */
function rules(grant: Grant, settings: CheckSettings = {}, options: Partial<CheckOptions> = {}): string[] {
  return raisedFindings(checkGrant(grant, { settings, now: NOW, ...options })).map((f) => f.rule);
}

describe('the rule table', () => {
  test('stable IDs, a level, a description, what to do and a source each', () => {
    expect(CHECK_RULES.map((r) => [r.id, r.level])).toEqual([
      ['GoogleIam-Public', 'error'],
      ['GoogleIam-BasicRole', 'warning'],
      ['GoogleIam-SaImpersonation', 'error'],
      ['GoogleIam-SaAdmin', 'warning'],
      ['GoogleIam-Domain', 'error'],
      ['GoogleIam-ConsumerAccount', 'warning'],
      ['GoogleIam-SeparationOfDuties', 'warning'],
      ['GoogleIam-ExpiredCondition', 'warning'],
      ['GoogleIam-AuthoritativeHierarchy', 'warning'],
    ]);
    for (const rule of CHECK_RULES) {
      expect(rule.description.length).toBeGreaterThan(20);
      expect(rule.instead.length).toBeGreaterThan(20);
      expect(rule.sources.length).toBeGreaterThan(0);
      for (const source of rule.sources) expect(source.url).toMatch(/^https:\/\//);
    }
  });
});

describe('each rule: found, and a near miss not', () => {
  test('GoogleIam-Public: allUsers and allAuthenticatedUsers; a named group is not', () => {
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'allUsers'))).toEqual(['GoogleIam-Public']);
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'allAuthenticatedUsers'))).toEqual(['GoogleIam-Public']);
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'group:all-users@example.com'))).toEqual([]);
  });

  test('GoogleIam-BasicRole: roles/viewer is flagged, roles/networksecurity.viewer is not', () => {
    expect(rules(member(AP, 'roles/viewer', 'user:a@example.com'))).toEqual(['GoogleIam-BasicRole']);
    expect(rules(member(AP, 'roles/owner', 'user:a@example.com'))).toEqual(['GoogleIam-BasicRole']);
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'user:a@example.com'))).toEqual([]);
  });

  test('GoogleIam-SaImpersonation: on a project or folder; on a service account it is fine', () => {
    const found = checkGrant(member(PROJECT, 'roles/iam.serviceAccountUser', 'group:deployers@example.com'), { settings: {}, now: NOW });
    expect(raisedFindings(found).map(findingText)).toEqual([
      'GoogleIam-SaImpersonation: roles/iam.serviceAccountUser on projects/my-project lets its principals act as every service account under projects/my-project. ' +
        'Grant it on the one service account that is needed (projects/{project}/serviceAccounts/{email}), not on the project, folder or organization.',
    ]);
    expect(rules(member(FOLDER, 'roles/iam.serviceAccountTokenCreator', 'group:deployers@example.com'))).toEqual([
      'GoogleIam-SaImpersonation',
    ]);
    // Another role whose permissions allow it, per the catalogue (iam.serviceAccountKeys.create).
    expect(rules(member(PROJECT, 'roles/iam.serviceAccountKeyAdmin', 'group:deployers@example.com'))).toEqual([
      'GoogleIam-SaImpersonation',
    ]);
    expect(rules(member(SA, 'roles/iam.serviceAccountUser', 'group:deployers@example.com'))).toEqual([]);
    expect(rules(member(PROJECT, 'roles/networksecurity.viewer', 'group:deployers@example.com'))).toEqual([]);
    // Basic roles are GoogleIam-BasicRole's.
    expect(rules(member(PROJECT, 'roles/editor', 'group:deployers@example.com'))).toEqual(['GoogleIam-BasicRole']);
  });

  test('GoogleIam-SaAdmin: a service account with a basic, an admin or a setIamPolicy role; a viewer role, or a person, is not', () => {
    const sa = 'serviceAccount:ci@my-project.iam.gserviceaccount.com';
    expect(rules(member(AP, 'roles/networksecurity.admin', sa))).toEqual(['GoogleIam-SaAdmin']);
    expect(rules(member(AP, 'roles/viewer', sa))).toEqual(['GoogleIam-BasicRole', 'GoogleIam-SaAdmin']);
    expect(rules(member(AP, 'projects/my-project/roles/deployAdmin', sa))).toEqual(['GoogleIam-SaAdmin']);
    expect(rules(member(AP, 'roles/networksecurity.viewer', sa))).toEqual([]);
    expect(rules(member(AP, 'roles/networksecurity.admin', 'user:a@example.com'))).toEqual([]);
  });

  test('GoogleIam-Domain: only when allowed domains are set; subdomains pass; principal:// is not a domain member', () => {
    const settings = { allowedMemberDomains: ['example.com'] };
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'user:a@partner.com'))).toEqual([]);
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'user:a@partner.com'), settings)).toEqual(['GoogleIam-Domain']);
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'domain:partner.com'), settings)).toEqual(['GoogleIam-Domain']);
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'group:a@EU.Example.com'), settings)).toEqual([]);
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'user:a@notexample.com'), settings)).toEqual(['GoogleIam-Domain']);
    expect(
      rules(
        member(AP, 'roles/networksecurity.viewer', 'principal://iam.googleapis.com/locations/global/workforcePools/staff/subject/a'),
        settings,
      ),
    ).toEqual([]);
  });

  test('GoogleIam-ConsumerAccount: @gmail.com and @googlemail.com; a corporate account is not', () => {
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'user:someone@gmail.com'))).toEqual(['GoogleIam-ConsumerAccount']);
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'user:someone@GoogleMail.com'))).toEqual(['GoogleIam-ConsumerAccount']);
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'user:gmail.com@example.com'))).toEqual([]);
  });

  test('GoogleIam-ExpiredCondition: a past end; a future end, or a start in the past, is not', () => {
    const past = { title: 'until 2024', expression: 'request.time < timestamp("2024-01-01T00:00:00Z")' };
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'user:a@example.com', past))).toEqual(['GoogleIam-ExpiredCondition']);
    const future = { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'user:a@example.com', future))).toEqual([]);
    const started = { title: 'since 2024', expression: 'request.time > timestamp("2024-01-01T00:00:00Z")' };
    expect(rules(member(AP, 'roles/networksecurity.viewer', 'user:a@example.com', started))).toEqual([]);
  });

  test('GoogleIam-AuthoritativeHierarchy: a binding or policy on a project; a member grant, or a binding elsewhere, is not', () => {
    expect(rules({ mode: 'binding', resource: PROJECT, role: 'roles/browser', members: ['group:a@example.com'] })).toEqual([
      'GoogleIam-AuthoritativeHierarchy',
    ]);
    expect(rules({ mode: 'policy', resource: FOLDER, bindings: [{ role: 'roles/browser', members: ['group:a@example.com'] }] })).toEqual([
      'GoogleIam-AuthoritativeHierarchy',
    ]);
    expect(rules(member(PROJECT, 'roles/browser', 'group:a@example.com'))).toEqual([]);
    expect(rules({ mode: 'binding', resource: AP, role: 'roles/networksecurity.viewer', members: ['group:a@example.com'] })).toEqual([]);
  });

  test('GoogleIam-SeparationOfDuties: admin and user of service accounts on the same resource or one above; apart, not', () => {
    const judge = (grant: Grant) => checkGrant(grant, { settings: {}, now: NOW });
    const admin = judge(member(PROJECT, 'roles/iam.serviceAccountAdmin', 'user:a@example.com'));
    const user = judge(member(SA, 'roles/iam.serviceAccountUser', 'user:A@example.com'));
    const other = judge(member(SA, 'roles/iam.serviceAccountUser', 'user:b@example.com'));
    separationOfDuties(
      [
        { check: admin, where: 'stack/Admin' },
        { check: user, where: 'stack/User' },
        { check: other, where: 'stack/Other' },
      ],
      {},
    );
    expect(raisedFindings(admin).map(findingText)).toEqual([
      'GoogleIam-SeparationOfDuties: user:a@example.com both administers service accounts and acts as them: it holds roles/iam.serviceAccountAdmin on projects/my-project ' +
        'and roles/iam.serviceAccountUser on projects/my-project/serviceAccounts/ci@my-project.iam.gserviceaccount.com (stack/User). ' +
        'Give the administration role and the use role to different principals.',
    ]);
    expect(raisedFindings(user).map((f) => f.rule)).toEqual(['GoogleIam-SeparationOfDuties']);
    expect(raisedFindings(other)).toEqual([]);
    // KMS: cloudkms.admin and a cryptoKey role; on unrelated resources nothing.
    const kmsAdmin = judge(member(PROJECT, 'roles/cloudkms.admin', 'user:k@example.com'));
    const kmsUser = judge(
      member(
        { service: 'cloudkms', apiVersion: 'v1', name: 'projects/my-project/locations/global/keyRings/r/cryptoKeys/k' },
        'roles/cloudkms.cryptoKeyEncrypterDecrypter',
        'user:k@example.com',
      ),
    );
    const elsewhere = judge(member({ ...PROJECT, name: 'projects/other-project' }, 'roles/cloudkms.admin', 'user:k2@example.com'));
    const elsewhereUser = judge(member(SA, 'roles/cloudkms.cryptoKeyDecrypter', 'user:k2@example.com'));
    separationOfDuties(
      [
        { check: kmsAdmin, where: 'a' },
        { check: kmsUser, where: 'b' },
        { check: elsewhere, where: 'c' },
        { check: elsewhereUser, where: 'd' },
      ],
      {},
    );
    expect(raisedFindings(kmsUser).map((f) => f.rule)).toEqual(['GoogleIam-SeparationOfDuties']);
    expect(raisedFindings(elsewhere)).toEqual([]);
  });
});

describe('every kind, levels, suppressions, unknown values', () => {
  test('a binding judges each member; a policy each binding; the bulk kinds each entry', () => {
    const binding = checkGrant(
      { mode: 'binding', resource: AP, role: 'roles/networksecurity.viewer', members: ['allUsers', 'user:x@gmail.com'] },
      { settings: {}, now: NOW },
    );
    expect(binding.entries.map((e) => [e.member, e.findings.map((f) => f.rule)])).toEqual([
      ['allUsers', ['GoogleIam-Public']],
      ['user:x@gmail.com', ['GoogleIam-ConsumerAccount']],
    ]);
    const policy = {
      mode: 'policy' as const,
      resource: AP,
      bindings: [
        { role: 'roles/networksecurity.viewer', members: ['group:a@example.com'] },
        { role: 'roles/editor', members: ['group:a@example.com'] },
      ],
    };
    expect(rules(policy)).toEqual(['GoogleIam-BasicRole']);
    expect(rules({ mode: 'members', resource: AP, grants: [{ role: 'roles/networksecurity.viewer', member: 'allUsers' }] })).toEqual([
      'GoogleIam-Public',
    ]);
    expect(rules({ mode: 'memberRoles', resource: PROJECT, member: 'group:a@example.com', roles: [{ role: 'roles/owner' }] })).toEqual([
      'GoogleIam-BasicRole',
      'GoogleIam-AuthoritativeHierarchy',
    ]);
  });

  test('a role given to many members is raised once; a finding of each member for each', () => {
    const grant: Grant = { mode: 'binding', resource: AP, role: 'roles/viewer', members: ['user:a@example.com', 'user:b@example.com'] };
    expect(rules(grant)).toEqual(['GoogleIam-BasicRole']);
  });

  test('levels: a rule set to error or off; suppressed findings stay, with their reason, and are not raised', () => {
    const grant = member(AP, 'roles/viewer', 'allUsers');
    const settings: CheckSettings = { rules: new Map([['GoogleIam-BasicRole', 'error' as const]]) };
    expect(raisedFindings(checkGrant(grant, { settings, now: NOW })).map((f) => [f.rule, f.level])).toEqual([
      ['GoogleIam-Public', 'error'],
      ['GoogleIam-BasicRole', 'error'],
    ]);
    expect(rules(grant, { rules: new Map([['GoogleIam-Public', 'off' as const]]) })).toEqual(['GoogleIam-BasicRole']);
    const suppressed = checkGrant(grant, {
      settings: {},
      now: NOW,
      suppressions: new Map([['GoogleIam-Public', 'the status page is public']]),
    });
    expect(raisedFindings(suppressed).map((f) => f.rule)).toEqual(['GoogleIam-BasicRole']);
    expect(suppressed.entries[0].findings[0]).toMatchObject({ rule: 'GoogleIam-Public', suppressedBecause: 'the status page is public' });
  });

  test('values not known yet are not judged, and the grant says it is pending', () => {
    const token = '${TfToken[TOKEN.1]}';
    const isKnown = (v: unknown) => !(typeof v === 'string' && v.includes('TfToken'));
    const check = checkGrant(member(AP, 'roles/viewer', token), { settings: {}, now: NOW, isKnown });
    expect(check.pending).toBe(true);
    expect(check.entries).toEqual([{ role: 'roles/viewer', findings: [expect.objectContaining({ rule: 'GoogleIam-BasicRole' })] }]);
    const unknownBindings = checkGrant({ mode: 'policy', resource: AP, bindings: token as never }, { settings: {}, now: NOW, isKnown });
    expect(unknownBindings.pending).toBe(true);
  });
});

describe('condition expiry', () => {
  test.each([
    ['request.time < timestamp("2026-09-01T12:00:00Z")', true],
    ['request.time <= timestamp("2026-09-01T12:00:00Z")', false],
    ['timestamp("2025-01-01T00:00:00Z") > request.time', true],
    ['request.time < timestamp("2025-01-01T00:00:00Z") || resource.name.startsWith("x")', false],
    ['request.time < timestamp("2025-01-01T00:00:00Z") && resource.name.startsWith("x")', true],
    ['!(request.time > timestamp("2025-01-01T00:00:00Z"))', true],
    ['request.time > timestamp("2025-01-01T00:00:00Z") && request.time < timestamp("2025-06-01T00:00:00Z")', true],
    ['request.time < timestamp("not a time")', false],
    ['request.time.getFullYear() < 2025', false],
  ])('%s: expired %s', (expression, expired) => {
    expect(conditionExpiry(expression, NOW) !== undefined).toBe(expired);
  });
});

describe('settings and suppressions refused', () => {
  const reason = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as IamValidationError).message;
    }
    return 'nothing thrown';
  };

  test('a reason must say something; an unknown rule names the known ones', () => {
    expect(validateSuppression('GoogleIam-Public', '  public by design  ', 's')).toBe('public by design');
    expect(reason(() => validateSuppression('GoogleIam-Public', 'ok', 's'))).toBe(
      's.reason: a suppression of GoogleIam-Public needs a reason of at least 10 characters that says why the finding is accepted (a reviewer reads it in the report) (got "ok")',
    );
    expect(reason(() => validateSuppression('CKV_GCP_41', 'a good long reason', 's'))).toMatch(
      /^s\.id: not a rule ID; the rules are GoogleIam-Public, .*GoogleIam-AuthoritativeHierarchy \(got "CKV_GCP_41"\)$/,
    );
  });

  test('domains and rule levels', () => {
    expect(validateAllowedDomain('Example.COM', 'd')).toBe('example.com');
    expect(reason(() => validateAllowedDomain('https://example.com', 'd'))).toContain('d: not a domain');
    expect(reason(() => validateRuleSetting('GoogleIam-Public', 'fatal', 'rules'))).toBe(
      'rules["GoogleIam-Public"]: expected "error", "warning" or "off" (got "fatal")',
    );
  });
});
