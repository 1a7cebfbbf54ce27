/**
 * GoogleIamChecks at synth (the CDK way): added to the App, it judges every
 * grant construct of every stack (typed and generic; member, binding,
 * policy; every family); an error-level finding fails synth with the
 * construct path, the rule ID, the finding and the fix, a warning is a cdktf
 * annotation; IamSuppressions on a grant or a stack; bad input throws naming
 * the construct and writes nothing; the three reports (their content, the
 * SARIF valid against the published 2.1.0 schema); the provider block and
 * each grant resource carry the settings and suppressions to the provider.
 */
import * as fs from 'fs';
import * as path from 'path';
import { App, Aspects, TerraformStack, TerraformVariable, Testing } from 'cdktf';
import type { IConstruct } from 'constructs';
import {
  AddressGroupIamBinding,
  AuthorizationPolicyIamMember,
  AuthorizationPolicyIamMemberRoles,
  AuthorizationPolicyIamMembers,
  AuthorizationPolicyIamPolicy,
  GoogleIamBinding,
  GoogleIamChecks,
  GoogleIamMember,
  GoogleIamMembers,
  GoogleIamPolicy,
  IamCheckLevel,
  IamSuppressions,
  MigrationJobIamMember,
  NetworkSecurityAuthzPolicyIamMember,
} from '../../../lib';
import { ConstructValidationError } from '../../../lib/synth/errors';
import { thrownBy } from '../../support/rejection';
import { sarifErrors } from '../../support/sarif';

const AP = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';
const AUTHZ = 'projects/my-project/locations/us-central1/authzPolicies/lb';
const AG = 'projects/my-project/locations/global/addressGroups/office';
const MJ = 'projects/my-project/locations/us-central1/migrationJobs/orders-db';
const PROJECT = { service: 'cloudresourcemanager', apiVersion: 'v3', name: 'projects/my-project' };
const SECRET = { service: 'secretmanager', apiVersion: 'v1', name: 'projects/my-project/secrets/db-password' };

/** An app with the checks added to it, and a stack. */
function appWithChecks(props?: ConstructorParameters<typeof GoogleIamChecks>[0]): { app: App; stack: TerraformStack } {
  const app = Testing.app();
  Aspects.of(app).add(new GoogleIamChecks(props));
  return { app, stack: new TerraformStack(app, 'stack') };
}

const annotations = (construct: IConstruct, type: string) =>
  construct.node.metadata.filter((m) => m.type === type).map((m) => String(m.data));
const stackDir = (app: App, stack = 'stack') => path.join(app.outdir, 'stacks', stack);
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('findings at synth', () => {
  test('an error fails synth with the construct path, the rule ID, the finding and what to do; the reports are written', () => {
    const { app, stack } = appWithChecks();
    new AuthorizationPolicyIamMember(stack, 'Everyone', { name: AP, role: 'roles/networksecurity.viewer', member: 'allUsers' });
    const error = thrownBy(() => app.synth(), Error);
    expect(error.message).toContain(
      '[stack/Everyone] stack/Everyone: GoogleIam-Public: allUsers holds roles/networksecurity.viewer on ' +
        `${AP}: anyone on the internet, without signing in. Grant the role to the groups, users or service accounts that need it; ` +
        "if the resource must be public, suppress the finding with the reason. To accept it: IamSuppressions.addSuppressions(<this grant or a scope above it>, [{ id: 'GoogleIam-Public', reason: '<why>' }])",
    );
    // Written all the same, for CI to upload; cdk.tf.json is not.
    expect(fs.readdirSync(stackDir(app)).sort()).toEqual(['iam-report.json', 'iam-report.md', 'iam-report.sarif']);
    expect(readJson(path.join(stackDir(app), 'iam-report.sarif')).runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual([
      'GoogleIam-Public',
    ]);
  });

  test('a warning is a cdktf annotation with the same content; synth goes on', () => {
    const { app, stack } = appWithChecks();
    const grant = new AuthorizationPolicyIamMember(stack, 'Auditors', {
      name: AP,
      role: 'roles/viewer',
      member: 'group:auditors@example.com',
    });
    app.synth();
    expect(annotations(grant, '@cdktf/warn')).toEqual([
      expect.stringMatching(/^stack\/Auditors: GoogleIam-BasicRole: roles\/viewer on .* is a basic role: .*Grant a predefined role/),
    ]);
    expect(annotations(grant, '@cdktf/error')).toEqual([]);
  });

  test('every grant construct, typed and generic, member, binding and policy, on every family', () => {
    const { app, stack } = appWithChecks({ rules: { 'GoogleIam-Public': IamCheckLevel.WARNING } });
    const grants = [
      new AuthorizationPolicyIamMember(stack, 'A', { name: AP, role: 'roles/networksecurity.viewer', member: 'allUsers' }),
      new NetworkSecurityAuthzPolicyIamMember(stack, 'B', { name: AUTHZ, role: 'roles/networksecurity.viewer', member: 'allUsers' }),
      new AddressGroupIamBinding(stack, 'C', {
        name: AG,
        role: 'roles/compute.networkViewer',
        members: ['group:a@example.com', 'allUsers'],
      }),
      new MigrationJobIamMember(stack, 'D', { name: MJ, role: 'roles/datamigration.editor', member: 'allUsers' }),
      new AuthorizationPolicyIamPolicy(stack, 'E', {
        name: 'projects/my-project/locations/global/authorizationPolicies/other',
        bindings: [{ role: 'roles/networksecurity.viewer', members: ['allAuthenticatedUsers'] }],
      }),
      new GoogleIamMember(stack, 'F', { resource: SECRET, role: 'roles/secretmanager.secretAccessor', member: 'allUsers' }),
      new GoogleIamBinding(stack, 'G', { resource: SECRET, role: 'roles/secretmanager.viewer', members: ['allUsers'] }),
      new GoogleIamPolicy(stack, 'H', {
        resource: { ...SECRET, name: 'projects/my-project/secrets/other' },
        bindings: [{ role: 'roles/secretmanager.viewer', members: ['allUsers'] }],
      }),
    ];
    app.synth();
    for (const grant of grants) expect(annotations(grant, '@cdktf/warn').join('\n')).toContain('GoogleIam-Public');
  });

  test("the bulk kinds, entry by entry: many grants in one construct, and one principal's roles", () => {
    const { app, stack } = appWithChecks({ rules: { 'GoogleIam-Public': IamCheckLevel.WARNING } });
    const bulk = new AuthorizationPolicyIamMembers(stack, 'Team', {
      name: AP,
      grants: [
        { role: 'roles/networksecurity.viewer', member: 'group:team@example.com' },
        { role: 'roles/networksecurity.viewer', member: 'allUsers' },
        { role: 'roles/viewer', member: 'group:team@example.com' },
      ],
    });
    const generic = new GoogleIamMembers(stack, 'Secrets', {
      resource: SECRET,
      grants: [{ role: 'roles/secretmanager.secretAccessor', member: 'allAuthenticatedUsers' }],
    });
    const roles = new AuthorizationPolicyIamMemberRoles(stack, 'Bot', {
      name: 'projects/my-project/locations/global/authorizationPolicies/other',
      member: 'user:bot@gmail.com',
      roles: [{ role: 'roles/networksecurity.viewer' }],
    });
    app.synth();
    const bulkFindings = annotations(bulk, '@cdktf/warn').join('\n');
    expect(bulkFindings).toContain('GoogleIam-Public: allUsers holds roles/networksecurity.viewer');
    expect(bulkFindings).toContain('GoogleIam-BasicRole: roles/viewer');
    expect(bulkFindings).not.toContain('group:team@example.com holds roles/networksecurity.viewer');
    expect(annotations(generic, '@cdktf/warn').join('\n')).toContain('GoogleIam-Public: allAuthenticatedUsers holds');
    expect(annotations(roles, '@cdktf/warn').join('\n')).toContain('GoogleIam-ConsumerAccount');
  });

  test('separation of duties over the stack: both grants are told, each naming the other', () => {
    const { app, stack } = appWithChecks();
    const admin = new GoogleIamMember(stack, 'Admin', {
      resource: PROJECT,
      role: 'roles/iam.serviceAccountAdmin',
      member: 'user:ops@example.com',
    });
    const user = new GoogleIamMember(stack, 'User', {
      resource: { service: 'iam', apiVersion: 'v1', name: 'projects/my-project/serviceAccounts/ci@my-project.iam.gserviceaccount.com' },
      role: 'roles/iam.serviceAccountUser',
      member: 'user:ops@example.com',
    });
    app.synth();
    expect(annotations(admin, '@cdktf/warn').join('\n')).toContain(
      'GoogleIam-SeparationOfDuties: user:ops@example.com both administers service accounts and acts as them',
    );
    expect(annotations(admin, '@cdktf/warn').join('\n')).toContain('(stack/User)');
    expect(annotations(user, '@cdktf/warn').join('\n')).toContain('(stack/Admin)');
  });

  test('added to a stack, it checks that stack; nothing when no construct of the library is there', () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, 'stack');
    Aspects.of(stack).add(new GoogleIamChecks());
    const grant = new AuthorizationPolicyIamMember(stack, 'Auditors', {
      name: AP,
      role: 'roles/viewer',
      member: 'group:auditors@example.com',
    });
    new TerraformStack(app, 'empty');
    app.synth();
    expect(annotations(grant, '@cdktf/warn')).toHaveLength(1);
    expect(fs.existsSync(path.join(stackDir(app, 'empty'), 'iam-report.json'))).toBe(false);
  });
});

describe('IamSuppressions', () => {
  const reason = 'the status page is public by design';

  test('on a grant: not raised, in the reports with its reason, and carried to the provider', () => {
    const { app, stack } = appWithChecks();
    const statusPage = new AuthorizationPolicyIamMember(stack, 'StatusPage', {
      name: AP,
      role: 'roles/networksecurity.viewer',
      member: 'allUsers',
    });
    IamSuppressions.addSuppressions(statusPage, [{ id: 'GoogleIam-Public', reason }]);
    app.synth();
    expect(annotations(statusPage, '@cdktf/error')).toEqual([]);
    const report = readJson(path.join(stackDir(app), 'iam-report.json'));
    expect(report.grants[0].findings).toEqual([
      expect.objectContaining({ rule: 'GoogleIam-Public', level: 'error', suppressed: true, reason }),
    ]);
    expect(readJson(path.join(stackDir(app), 'iam-report.sarif')).runs[0].results).toEqual([]);
    const config = readJson(path.join(stackDir(app), 'cdk.tf.json'));
    const [resource] = Object.values(config.resource.googleiam_authorization_policy_iam_member) as Record<string, unknown>[];
    expect(resource.check_suppressions).toEqual({ 'GoogleIam-Public': reason });
  });

  test('on a stack: covers every grant under it; a grant with nothing to suppress carries nothing', () => {
    const { app, stack } = appWithChecks();
    IamSuppressions.addSuppressions(stack, [{ id: 'GoogleIam-BasicRole', reason: 'auditors need the whole project view' }]);
    const a = new AuthorizationPolicyIamMember(stack, 'A', { name: AP, role: 'roles/viewer', member: 'group:auditors@example.com' });
    new AuthorizationPolicyIamMember(stack, 'B', { name: AP, role: 'roles/networksecurity.viewer', member: 'group:readers@example.com' });
    app.synth();
    expect(annotations(a, '@cdktf/warn')).toEqual([]);
    const config = readJson(path.join(stackDir(app), 'cdk.tf.json'));
    const resources = Object.values(config.resource.googleiam_authorization_policy_iam_member) as Record<string, unknown>[];
    const byRole = (role: string) => resources.find((r) => r.role === role)!;
    expect([byRole('roles/viewer'), byRole('roles/networksecurity.viewer')].map((r) => r.check_suppressions)).toEqual([
      { 'GoogleIam-BasicRole': 'auditors need the whole project view' },
      undefined,
    ]);
  });

  test('a short reason or an unknown rule ID throws at once, naming the construct and the known rules; nothing is written', () => {
    const { app, stack } = appWithChecks();
    const grant = new AuthorizationPolicyIamMember(stack, 'G', { name: AP, role: 'roles/networksecurity.viewer', member: 'allUsers' });
    const short = thrownBy(
      () => IamSuppressions.addSuppressions(grant, [{ id: 'GoogleIam-Public', reason: 'fine' }]),
      ConstructValidationError,
    );
    expect(short.message).toBe(
      'stack/G: suppressions[0].reason: a suppression of GoogleIam-Public needs a reason of at least 10 characters that says why the finding is accepted (a reviewer reads it in the report) (got "fine")',
    );
    expect(
      thrownBy(() => IamSuppressions.addSuppressions(grant, [{ id: 'GoogleIam-Publik', reason }]), ConstructValidationError).message,
    ).toMatch(
      /^stack\/G: suppressions\[0\]\.id: not a rule ID; the rules are GoogleIam-Public, GoogleIam-BasicRole, .*\(got "GoogleIam-Publik"\)$/,
    );
    expect(fs.existsSync(stackDir(app))).toBe(false);
  });
});

describe('settings', () => {
  test('a malformed domain or an unknown rule throws at once', () => {
    expect(thrownBy(() => new GoogleIamChecks({ allowedMemberDomains: ['@example.com'] }), ConstructValidationError).message).toBe(
      'GoogleIamChecks: allowedMemberDomains[0]: not a domain; expected a domain name such as example.com (no @, no scheme, no path) (got "@example.com")',
    );
    expect(
      thrownBy(() => new GoogleIamChecks({ rules: { 'GoogleIam-Nope': IamCheckLevel.OFF } }), ConstructValidationError).message,
    ).toContain('rules: not a rule ID');
  });

  test('allowedMemberDomains, rules and the provider block: the provider judges what synth could not with the same settings', () => {
    const { app, stack } = appWithChecks({ allowedMemberDomains: ['example.com'], rules: { 'GoogleIam-BasicRole': IamCheckLevel.OFF } });
    const partner = new AuthorizationPolicyIamMember(stack, 'Partner', { name: AP, role: 'roles/viewer', member: 'user:a@partner.com' });
    expect(thrownBy(() => app.synth(), Error).message).toContain(
      '[stack/Partner] stack/Partner: GoogleIam-Domain: user:a@partner.com is outside the allowed member domains (example.com)',
    );
    expect(annotations(partner, '@cdktf/warn')).toEqual([]);
  });

  test('the provider block gets iam_checks = enforce and the settings; a token member is known at apply', () => {
    const { app, stack } = appWithChecks({ allowedMemberDomains: ['example.com'], rules: { 'GoogleIam-BasicRole': IamCheckLevel.ERROR } });
    const who = new TerraformVariable(stack, 'who', { type: 'string' });
    new AuthorizationPolicyIamMember(stack, 'Later', { name: AP, role: 'roles/networksecurity.viewer', member: who.stringValue });
    app.synth();
    const config = readJson(path.join(stackDir(app), 'cdk.tf.json'));
    expect(config.provider.googleiam).toEqual([
      { iam_checks: 'enforce', allowed_member_domains: ['example.com'], iam_check_rules: { 'GoogleIam-BasicRole': 'error' } },
    ]);
    const report = readJson(path.join(stackDir(app), 'iam-report.json'));
    expect(report.grants[0]).toMatchObject({ member: 'known at apply', role: 'roles/networksecurity.viewer', findings: [] });
    expect(report.summary).toEqual({ grants: 1, errors: 0, warnings: 0, suppressed: 0, knownAtApply: 1 });
    expect(fs.readFileSync(path.join(stackDir(app), 'iam-report.md'), 'utf8')).toContain('## Known at apply');
  });

  test('reports: false writes none', () => {
    const { app, stack } = appWithChecks({ reports: false });
    new AuthorizationPolicyIamMember(stack, 'A', { name: AP, role: 'roles/networksecurity.viewer', member: 'group:a@example.com' });
    app.synth();
    expect(fs.readdirSync(stackDir(app)).filter((f) => f.startsWith('iam-report'))).toEqual([]);
  });
});

describe('the reports', () => {
  function synthesized() {
    const { app, stack } = appWithChecks();
    new AuthorizationPolicyIamMember(stack, 'Readers', {
      name: AP,
      role: 'roles/networksecurity.viewer',
      member: 'group:api-readers@example.com',
    });
    new AuthorizationPolicyIamMember(stack, 'Auditors', { name: AP, role: 'roles/viewer', member: 'group:auditors@example.com' });
    new MigrationJobIamMember(stack, 'Temporary', {
      name: MJ,
      role: 'roles/datamigration.editor',
      member: 'user:contractor@example.com',
      condition: { title: 'until 2024', expression: 'request.time < timestamp("2024-01-01T00:00:00Z")' },
    });
    const statusPage = new AuthorizationPolicyIamMember(stack, 'StatusPage', {
      name: AP,
      role: 'roles/networksecurity.viewer',
      member: 'allUsers',
    });
    IamSuppressions.addSuppressions(statusPage, [{ id: 'GoogleIam-Public', reason: 'the status page is public by design' }]);
    app.synth();
    return stackDir(app);
  }

  test('iam-report.json: every grant with its path, address, resource, role, member, condition, authority and findings', () => {
    const report = readJson(path.join(synthesized(), 'iam-report.json'));
    expect(report.summary).toEqual({ grants: 4, errors: 0, warnings: 2, suppressed: 1, knownAtApply: 0 });
    expect(report.rules.map((r: { id: string }) => r.id)).toHaveLength(9);
    const temporary = report.grants.find((g: { constructPath: string }) => g.constructPath === 'stack/Temporary');
    expect(temporary).toEqual({
      constructPath: 'stack/Temporary',
      address: expect.stringMatching(/^googleiam_migration_job_iam_member\./),
      resourceType: 'googleiam_migration_job_iam_member',
      construct: 'MigrationJobIamMember',
      service: 'datamigration',
      resourceName: MJ,
      kind: 'member',
      authoritative: false,
      role: 'roles/datamigration.editor',
      member: 'user:contractor@example.com',
      condition: { title: 'until 2024', expression: 'request.time < timestamp("2024-01-01T00:00:00Z")' },
      findings: [expect.objectContaining({ rule: 'GoogleIam-ExpiredCondition', level: 'warning', suppressed: false })],
    });
  });

  test('iam-report.md: findings, then who gets what by principal and resource', () => {
    const md = fs.readFileSync(path.join(synthesized(), 'iam-report.md'), 'utf8');
    expect(md).toContain('4 grants give 4 principals roles on 2 resources. Findings: 0 errors, 2 warnings, 1 suppressed.');
    expect(md).toContain('| suppressed | GoogleIam-Public | `stack/StatusPage` |');
    expect(md).toContain('Reason: the status page is public by design |');
    // Public principals first.
    expect(md.indexOf('**allUsers**')).toBeLessThan(md.indexOf('**group:api-readers@example.com**'));
    expect(md).toContain(
      `**user:contractor@example.com**\n\n- \`${MJ}\`: roles/datamigration.editor if "until 2024": \`request.time < timestamp("2024-01-01T00:00:00Z")\` (GoogleIam-ExpiredCondition)`,
    );
  });

  test('iam-report.sarif: valid SARIF 2.1.0 (the published schema), one rule per ID, one result per raised finding, at cdk.tf.json', () => {
    const dir = synthesized();
    const sarif = readJson(path.join(dir, 'iam-report.sarif'));
    expect(sarifErrors(sarif)).toEqual([]);
    // The validator refuses what is not SARIF: a control.
    expect(sarifErrors({ ...sarif, runs: [{ results: [{ level: 'fatal' }] }] })).not.toEqual([]);
    const [run] = sarif.runs;
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toHaveLength(9);
    expect(run.results.map((r: { ruleId: string }) => r.ruleId).sort()).toEqual(['GoogleIam-BasicRole', 'GoogleIam-ExpiredCondition']);
    const location = run.results[0].locations[0].physicalLocation;
    expect(location.artifactLocation.uri).toBe(path.relative(process.cwd(), path.join(dir, 'cdk.tf.json')).split(path.sep).join('/'));
    const lines = fs.readFileSync(path.join(dir, 'cdk.tf.json'), 'utf8').split('\n');
    expect(lines[location.region.startLine - 1]).toMatch(/^ {6}"[^"]+": \{$/);
  });
});
