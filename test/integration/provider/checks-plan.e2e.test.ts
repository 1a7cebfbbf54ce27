/**
 * The IAM security rules under the real `terraform`, in HCL (the provider
 * laid out by the package's install command, as docs/hcl.md says): a file that
 * breaks three rules gets three warnings at plan, each naming the rule, the
 * resource's address, what was found and what to do; with iam_checks =
 * "enforce" the error-level ones fail the plan and nothing is written; a
 * member known only at apply is judged at apply; check_suppressions accepts a
 * finding, and a suppression without a real reason fails the plan.
 */
import * as fs from 'fs';
import * as path from 'path';
import { hclConfigurationsOfThisFile, unwrapped } from '../../support/hcl-configurations';

jest.setTimeout(300_000);

const AP = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';
const PROJECT = 'projects/my-project';

const hcl = hclConfigurationsOfThisFile('checks-plan', [AP, PROJECT]);
const { terraform } = hcl;

/** A configuration: the provider block's `settings`, then `resources`. */
const configuration = (name: string, settings: string, resources: string) =>
  hcl.configuration(name, `\nprovider "googleiam" {${settings}}\n${resources}`);
/** The diagnostics' first lines: `Warning: <summary>` and `Error: <summary>`. */
const headings = (output: string) =>
  output
    .split('\n')
    .filter((line) => /^[│╷ ]*(Warning|Error): /.test(line))
    .map((line) => line.replace(/^[│╷ ]*/, ''));

/** Three rules broken: a public member, a basic role, and a token creator on a project. */
const THREE_RULES = `
resource "googleiam_authorization_policy_iam_member" "public" {
  name   = "${AP}"
  role   = "roles/networksecurity.viewer"
  member = "allUsers"
}

resource "googleiam_authorization_policy_iam_member" "basic" {
  name   = "${AP}"
  role   = "roles/viewer"
  member = "group:auditors@example.com"
}

resource "googleiam_iam_member" "deployers" {
  service     = "cloudresourcemanager"
  api_version = "v3"
  name        = "${PROJECT}"
  role        = "roles/iam.serviceAccountTokenCreator"
  member      = "group:deployers@example.com"
}
`;

test('warn (the default): three findings, three warnings at plan, each with the rule, the address and what to do', async () => {
  const dir = await configuration('three-rules', '', THREE_RULES);
  const plan = await terraform(dir, 'plan', '-input=false');
  expect(plan.code).toBe(0);
  expect(headings(plan.output)).toEqual([
    'Warning: GoogleIam-Public: Public principal',
    'Warning: GoogleIam-BasicRole: Basic role',
    'Warning: GoogleIam-SaImpersonation: Service account impersonation on a project, folder or organization',
  ]);
  const text = unwrapped(plan.output);
  expect(text).toContain(
    'Warning: GoogleIam-Public: Public principal with googleiam_authorization_policy_iam_member.public, on main.tf line 9, in resource "googleiam_authorization_policy_iam_member" "public": ' +
      `9: resource "googleiam_authorization_policy_iam_member" "public" { allUsers holds roles/networksecurity.viewer on ${AP}: anyone on the internet, without signing in. ` +
      'Grant the role to the groups, users or service accounts that need it; if the resource must be public, suppress the finding with the reason. ' +
      'To accept it, set check_suppressions = { "GoogleIam-Public" = "<why>" } on this resource.',
  );
  expect(text).toContain('with googleiam_authorization_policy_iam_member.basic,');
  expect(text).toContain('with googleiam_iam_member.deployers,');
  // The plan's output, for the record of what a user sees.
  fs.writeFileSync(path.join(hcl.scratch, 'three-rules.txt'), plan.output);
});

test('enforce: the error-level findings fail the plan, the warning stays a warning, nothing is written', async () => {
  const dir = await configuration('enforce', '\n  iam_checks = "enforce"\n', THREE_RULES);
  const plan = await terraform(dir, 'plan', '-input=false');
  expect(plan.code).toBe(1);
  expect(headings(plan.output)).toEqual([
    'Error: GoogleIam-Public: Public principal',
    'Error: GoogleIam-SaImpersonation: Service account impersonation on a project, folder or organization',
  ]);
  const apply = await terraform(dir, 'apply', '-auto-approve', '-input=false');
  expect(apply.code).toBe(1);
  expect(hcl.emulator.writes()).toEqual([]);
});

test('a member known only at apply: judged at apply; enforce refuses it before anything is written', async () => {
  const resources = `
resource "terraform_data" "who" {
  input = "allUsers"
}

resource "googleiam_authorization_policy_iam_member" "later" {
  name   = "${AP}"
  role   = "roles/networksecurity.viewer"
  member = terraform_data.who.output
}
`;
  const dir = await configuration('at-apply', '\n  iam_checks = "enforce"\n', resources);
  const plan = await terraform(dir, 'plan', '-input=false');
  expect(plan.code).toBe(0);
  expect(headings(plan.output)).toEqual([]);
  const apply = await terraform(dir, 'apply', '-auto-approve', '-input=false');
  expect(apply.code).toBe(1);
  expect(unwrapped(apply.output)).toContain(
    'Error: GoogleIam-Public: Public principal with googleiam_authorization_policy_iam_member.later',
  );
  expect(unwrapped(apply.output)).toContain('Refused by iam_checks = "enforce": nothing was sent to Google.');
  expect(hcl.emulator.writes()).toEqual([]);
});

test('check_suppressions: an accepted finding is not reported; a suppression without a real reason fails the plan', async () => {
  const suppressed = `
resource "googleiam_authorization_policy_iam_member" "public" {
  name   = "${AP}"
  role   = "roles/networksecurity.viewer"
  member = "allUsers"
  check_suppressions = { "GoogleIam-Public" = "the status page's policy is public by design" }
}
`;
  const dir = await configuration('suppressed', '\n  iam_checks = "enforce"\n', suppressed);
  const plan = await terraform(dir, 'plan', '-input=false');
  expect({ code: plan.code, headings: headings(plan.output) }).toEqual({ code: 0, headings: [] });
  const bad = await configuration('bad-suppression', '', suppressed.replace("the status page's policy is public by design", 'ok'));
  const refused = await terraform(bad, 'plan', '-input=false');
  expect(refused.code).toBe(1);
  expect(unwrapped(refused.output)).toContain('Error: Invalid check_suppressions with googleiam_authorization_policy_iam_member.public');
  expect(unwrapped(refused.output)).toContain('needs a reason of at least 10 characters');
});
