/**
 * The IAM security rules in the provider (resources/check-findings.ts): the
 * provider block's settings (`iam_checks`, `allowed_member_domains`,
 * `iam_check_rules`), each grant's `check_suppressions`, and when a finding is
 * reported: a warning inside a plan or apply walk; under `enforce`, an
 * error-level finding is an error where Terraform validates statically and
 * the create or update refuses it before sending anything. Real terraform:
 * test/integration/provider/checks-plan.e2e.test.ts.
 */
import { Diagnostics } from '../../../lib/provider/framework/diagnostics';
import { UNKNOWN, type CtyObject } from '../../../lib/provider/framework/cty';
import { googleIamProvider } from '../../../lib/provider/google-iam-provider';
import { fullValue, ProviderHarness, withDiagnostics } from '../../support/provider-harness';

const provider = googleIamProvider({});
const AP = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';
const PROJECT = { service: 'cloudresourcemanager', api_version: 'v3', name: 'projects/my-project' };

function resourceType(typeName: string) {
  return provider.resources.find((r) => r.typeName === typeName)!;
}

/** The provider block as Terraform sends it: every attribute null unless given. */
function providerBlock(values: CtyObject): CtyObject {
  return fullValue(provider, values);
}

/** ValidateResourceConfig, statically or (`providerConfigured`) in a plan or apply walk, under the provider block `block`. */
function validate(typeName: string, values: CtyObject, block: CtyObject = {}, providerConfigured = true): Diagnostics {
  const diagnostics = new Diagnostics();
  const resource = resourceType(typeName);
  resource.validate!(fullValue(resource, values), diagnostics, { providerConfigured, providerConfig: providerBlock(block) });
  return diagnostics;
}

const summaries = (d: Diagnostics) => d.all.map((x) => `${x.severity} ${x.summary}`);

describe('the provider block', () => {
  const validateBlock = (values: CtyObject) => {
    const diagnostics = new Diagnostics();
    provider.validate!(providerBlock(values), diagnostics);
    return diagnostics.all;
  };

  test('the schema has iam_checks, allowed_member_domains and iam_check_rules', () => {
    expect(provider.schema.attributes.map((a) => a.name)).toEqual(
      expect.arrayContaining(['iam_checks', 'allowed_member_domains', 'iam_check_rules']),
    );
  });

  test('valid settings: nothing to say', () => {
    expect(
      validateBlock({
        iam_checks: 'enforce',
        allowed_member_domains: ['example.com'],
        iam_check_rules: new Map([['GoogleIam-BasicRole', 'error']]),
      }),
    ).toEqual([]);
  });

  test('a wrong mode, a malformed domain, an unknown rule or level: an error on the attribute', () => {
    expect(validateBlock({ iam_checks: 'strict' })).toEqual([
      {
        severity: 'ERROR',
        summary: 'Invalid IAM check settings',
        detail: 'iam_checks: expected "warn", "enforce" or "off" (got "strict")',
        attribute: ['iam_checks'],
      },
    ]);
    expect(validateBlock({ allowed_member_domains: ['@example.com'] })[0]).toMatchObject({
      detail:
        'allowed_member_domains: not a domain; expected a domain name such as example.com (no @, no scheme, no path) (got "@example.com")',
      attribute: ['allowed_member_domains'],
    });
    expect(validateBlock({ iam_check_rules: new Map([['GoogleIam-Basic', 'off']]) })[0].detail).toContain(
      'iam_check_rules: not a rule ID; the rules are GoogleIam-Public, GoogleIam-BasicRole,',
    );
    expect(validateBlock({ iam_check_rules: new Map([['GoogleIam-BasicRole', 'fatal']]) })[0].detail).toBe(
      'iam_check_rules["GoogleIam-BasicRole"]: expected "error", "warning" or "off" (got "fatal")',
    );
  });
});

describe('warn (the default): a warning in a plan or apply walk, nothing statically', () => {
  const publicMember = { name: AP, role: 'roles/networksecurity.viewer', member: 'allUsers' };

  test('each finding names the rule, what was found, what to do and how to accept it', () => {
    expect(validate('googleiam_authorization_policy_iam_member', publicMember).all).toEqual([
      {
        severity: 'WARNING',
        summary: 'GoogleIam-Public: Public principal',
        detail:
          `allUsers holds roles/networksecurity.viewer on ${AP}: anyone on the internet, without signing in. ` +
          'Grant the role to the groups, users or service accounts that need it; if the resource must be public, suppress the finding with the reason. ' +
          'To accept it, set check_suppressions = { "GoogleIam-Public" = "<why>" } on this resource.',
      },
    ]);
    expect(validate('googleiam_authorization_policy_iam_member', publicMember, {}, false).all).toEqual([]);
  });

  test('every kind: a binding (each member) and a policy (each binding) on the generic types', () => {
    const binding = validate('googleiam_iam_binding', {
      ...PROJECT,
      role: 'roles/editor',
      members: ['user:a@gmail.com', 'allAuthenticatedUsers'],
    });
    // Member by member; a finding of the role (the same for each member) once.
    expect(summaries(binding)).toEqual([
      'WARNING GoogleIam-BasicRole: Basic role',
      'WARNING GoogleIam-ConsumerAccount: Consumer account',
      'WARNING GoogleIam-AuthoritativeHierarchy: Authoritative grant on a project, folder or organization',
      'WARNING GoogleIam-Public: Public principal',
    ]);
    const policy = validate('googleiam_iam_policy', {
      service: 'iam',
      api_version: 'v1',
      name: 'projects/my-project/serviceAccounts/ci@my-project.iam.gserviceaccount.com',
      bindings: [
        { role: 'roles/iam.serviceAccountUser', members: ['group:deployers@example.com'], condition: null },
        {
          role: 'roles/iam.serviceAccountTokenCreator',
          members: ['serviceAccount:ci@my-project.iam.gserviceaccount.com'],
          condition: { title: 'until 2024', expression: 'request.time < timestamp("2024-01-01T00:00:00Z")', description: null },
        },
      ],
    });
    // On a service account: no SaImpersonation, nor AuthoritativeHierarchy; the expired condition is found.
    expect(summaries(policy)).toEqual(['WARNING GoogleIam-ExpiredCondition: Expired condition']);
  });

  test("the bulk kinds, entry by entry: many grants in one resource, and one principal's roles", () => {
    const bulk = validate('googleiam_authorization_policy_iam_members', {
      name: AP,
      grant: [
        { role: 'roles/networksecurity.viewer', member: 'group:team@example.com', condition: null },
        { role: 'roles/networksecurity.viewer', member: 'allUsers', condition: null },
      ],
    });
    expect(summaries(bulk)).toEqual(['WARNING GoogleIam-Public: Public principal']);
    const roles = validate('googleiam_iam_member_roles', {
      ...PROJECT,
      member: 'user:a@gmail.com',
      grant: [
        { role: 'roles/editor', condition: null },
        { role: 'roles/iam.serviceAccountTokenCreator', condition: null },
      ],
    });
    expect(summaries(roles)).toEqual(
      expect.arrayContaining([
        'WARNING GoogleIam-BasicRole: Basic role',
        'WARNING GoogleIam-ConsumerAccount: Consumer account',
        'WARNING GoogleIam-SaImpersonation: Service account impersonation on a project, folder or organization',
      ]),
    );
  });

  test('near misses: roles/iam.serviceAccountUser on a service account, roles/networksecurity.viewer', () => {
    expect(
      validate('googleiam_iam_member', {
        service: 'iam',
        api_version: 'v1',
        name: 'projects/my-project/serviceAccounts/ci@my-project.iam.gserviceaccount.com',
        role: 'roles/iam.serviceAccountUser',
        member: 'group:deployers@example.com',
      }).all,
    ).toEqual([]);
    expect(validate('googleiam_authorization_policy_iam_member', { ...publicMember, member: 'group:a@example.com' }).all).toEqual([]);
  });

  test('a value Terraform knows only at apply is not judged yet; the apply walk judges it', () => {
    expect(validate('googleiam_authorization_policy_iam_member', { ...publicMember, member: UNKNOWN }).all).toEqual([]);
  });

  test('check_suppressions: a suppressed finding is not reported; a bad suppression is an error statically, a warning in a walk', () => {
    const reason = 'the landing page is public by design';
    expect(
      validate('googleiam_authorization_policy_iam_member', {
        ...publicMember,
        check_suppressions: new Map([['GoogleIam-Public', reason]]),
      }).all,
    ).toEqual([]);
    const short = { ...publicMember, check_suppressions: new Map([['GoogleIam-Public', 'ok']]) };
    expect(validate('googleiam_authorization_policy_iam_member', short, {}, false).all).toEqual([
      {
        severity: 'ERROR',
        summary: 'Invalid check_suppressions',
        detail:
          'check_suppressions["GoogleIam-Public"].reason: a suppression of GoogleIam-Public needs a reason of at least 10 characters that says why the finding is accepted (a reviewer reads it in the report) (got "ok"). ' +
          'Each entry is a rule ID (docs/checks.md) and the reason the finding is accepted',
        attribute: ['check_suppressions'],
      },
    ]);
    const [inWalk] = validate('googleiam_authorization_policy_iam_member', short).all;
    expect(inWalk).toMatchObject({ severity: 'WARNING', summary: 'Invalid check_suppressions' });
    expect(inWalk.detail).toContain('terraform apply refuses it before sending anything to Google');
    const unknownRule = { ...publicMember, check_suppressions: new Map([['CKV_GCP_1', reason]]) };
    expect(validate('googleiam_authorization_policy_iam_member', unknownRule, {}, false).all[0].detail).toContain(
      'check_suppressions["CKV_GCP_1"].id: not a rule ID; the rules are GoogleIam-Public, GoogleIam-BasicRole, GoogleIam-SaImpersonation, GoogleIam-SaAdmin, GoogleIam-Domain, GoogleIam-ConsumerAccount, GoogleIam-SeparationOfDuties, GoogleIam-ExpiredCondition, GoogleIam-AuthoritativeHierarchy',
    );
  });

  test('allowed_member_domains, iam_check_rules and off', () => {
    const member = { ...PROJECT, name: 'projects/my-project', role: 'roles/networksecurity.viewer', member: 'user:a@partner.com' };
    expect(validate('googleiam_iam_member', member).all).toEqual([]);
    expect(summaries(validate('googleiam_iam_member', member, { allowed_member_domains: ['example.com'] }))).toEqual([
      'WARNING GoogleIam-Domain: Member outside the allowed domains',
    ]);
    expect(validate('googleiam_iam_member', member, { allowed_member_domains: ['partner.com'] }).all).toEqual([]);
    const editor = { ...member, role: 'roles/editor' };
    expect(summaries(validate('googleiam_iam_member', editor, { iam_check_rules: new Map([['GoogleIam-BasicRole', 'off']]) }))).toEqual([]);
    expect(validate('googleiam_iam_member', { ...editor, member: 'allUsers' }, { iam_checks: 'off' }).all).toEqual([]);
  });
});

describe('enforce', () => {
  const block = { iam_checks: 'enforce' };
  const impersonation = { ...PROJECT, role: 'roles/iam.serviceAccountTokenCreator', member: 'group:deployers@example.com' };

  test('an error-level finding is an error statically; in a walk a warning that the apply refuses it', () => {
    expect(validate('googleiam_iam_member', impersonation, block, false).all).toEqual([
      {
        severity: 'ERROR',
        summary: 'GoogleIam-SaImpersonation: Service account impersonation on a project, folder or organization',
        detail:
          'roles/iam.serviceAccountTokenCreator on projects/my-project lets its principals mint access and ID tokens for every service account under projects/my-project. ' +
          'Grant it on the one service account that is needed (projects/{project}/serviceAccounts/{email}), not on the project, folder or organization. ' +
          'To accept it, set check_suppressions = { "GoogleIam-SaImpersonation" = "<why>" } on this resource.',
      },
    ]);
    const [warning] = validate('googleiam_iam_member', impersonation, block).all;
    expect(warning.severity).toBe('WARNING');
    expect(warning.detail).toContain('With iam_checks = "enforce", terraform apply refuses it before sending anything to Google');
  });

  test('a warning-level rule stays a warning, and is not reported statically', () => {
    const basic = { name: AP, role: 'roles/viewer', member: 'user:a@example.com' };
    expect(validate('googleiam_authorization_policy_iam_member', basic, block, false).all).toEqual([]);
    expect(summaries(validate('googleiam_authorization_policy_iam_member', basic, block))).toEqual([
      'WARNING GoogleIam-BasicRole: Basic role',
    ]);
  });

  test('create refuses an error-level finding (a member learned at apply included) before sending anything; warn does not', async () => {
    const planned = (values: CtyObject) => fullValue(resourceType('googleiam_iam_member'), { ...values, id: 'x', etag: UNKNOWN });
    const enforced = await ProviderHarness.configure({}, { iam_checks: 'enforce' });
    const type = enforced.resource('googleiam_iam_member');
    const refused = await withDiagnostics((d) => type.create(enforced.call, planned({ ...impersonation, member: 'allUsers' }), d));
    expect(refused.value).toBeNull();
    expect(summaries(refused.diagnostics)).toEqual([
      'ERROR GoogleIam-Public: Public principal',
      'ERROR GoogleIam-SaImpersonation: Service account impersonation on a project, folder or organization',
    ]);
    expect(refused.diagnostics.all[0].detail).toContain('Refused by iam_checks = "enforce": nothing was sent to Google.');
    // Suppressed: not refused here (the call then goes to Google: an error of another kind, not a check's).
    const suppressed = await withDiagnostics((d) =>
      type.create(
        enforced.call,
        planned({
          ...impersonation,
          check_suppressions: new Map([['GoogleIam-SaImpersonation', 'the deploy pipeline mints tokens for every service account']]),
        }),
        d,
      ),
    );
    expect(summaries(suppressed.diagnostics).filter((s) => s.includes('GoogleIam-'))).toEqual([]);
    enforced.stop();
  });
});
