import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { AuthorizationPolicyIamMember, MigrationJobIamBinding, MigrationJobIamMember } from '../../../lib';

// Names Terraform and the runner persist, as this release writes them: a change would make
// Terraform replace (revoke and re-grant) existing grants, or rename checks. Taken from the
// configuration synthesized before lib/iam/identity.ts existed; they must never change.
const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const MJ = 'projects/p-123456/locations/us-central1/migrationJobs/mj';
const VIEWER = 'roles/networksecurity.authorizationPolicyViewer';

test('for_each keys, drift check and twin check names of a representative stack are byte-identical to earlier releases', () => {
  const stack = new TerraformStack(Testing.app(), 'alpha');
  const member = new TerraformVariable(stack, 'member', { type: 'string', default: 'bob@example.com' });
  const apName = new TerraformVariable(stack, 'ap', { type: 'string', default: 'ap2' });
  const onToken = `projects/p-123456/locations/global/authorizationPolicies/${apName.stringValue}`;
  const until2030 = { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' };
  const expires = { ...until2030, description: 'expires' };
  const nasty = { title: `quote " backslash \\ \${x} ${'long'.repeat(15)}`, description: 'd "q"', expression: 'request.path == "a\\"b"' };
  new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: VIEWER, member: 'user:Alice@Example.com' });
  new AuthorizationPolicyIamMember(stack, 'AliceCond', { name: AP, role: VIEWER, member: 'user:alice@example.com', condition: until2030 });
  new AuthorizationPolicyIamMember(stack, 'AliceCondDesc', {
    name: AP,
    role: VIEWER,
    member: 'user:alice@example.com',
    condition: expires,
  });
  new AuthorizationPolicyIamMember(stack, 'Nasty', { name: AP, role: VIEWER, member: 'user:carol@example.com', condition: nasty });
  new AuthorizationPolicyIamMember(stack, 'Bob', { name: AP, role: VIEWER, member: `user:${member.stringValue}`, condition: until2030 });
  new AuthorizationPolicyIamMember(stack, 'OnToken', { name: onToken, role: VIEWER, member: 'user:dave@example.com' });
  new AuthorizationPolicyIamMember(stack, 'OnTokenFail', {
    name: onToken,
    role: 'roles/networksecurity.authorizationPolicyEditor',
    member: 'user:dave@example.com',
    failPlanOnDrift: true,
  });
  new MigrationJobIamBinding(stack, 'Viewers', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
  new MigrationJobIamBinding(stack, 'CondViewers', {
    name: MJ,
    role: 'roles/datamigration.viewer',
    members: ['user:b@example.com'],
    condition: expires,
    failPlanOnDrift: true,
  });
  new MigrationJobIamMember(stack, 'Undetected', {
    name: MJ,
    role: 'roles/datamigration.admin',
    member: 'user:x@example.com',
    detectDrift: false,
  });

  const json = JSON.parse(Testing.synth(stack));
  expect(Object.keys(json.locals.google_iam_grants).sort()).toEqual([
    `datamigration:${MJ}|roles/datamigration.admin|user:x@example.com`,
    `datamigration:${MJ}|roles/datamigration.viewer`,
    `datamigration:${MJ}|roles/datamigration.viewer|if:until_2030:8677524e5626`,
    'networksecurity:projects/p-123456/locations/global/authorizationPolicies/_var.ap_|roles/networksecurity.authorizationPolicyEditor|user:dave@example.com#3e12412ab9b8',
    `networksecurity:projects/p-123456/locations/global/authorizationPolicies/_var.ap_|${VIEWER}|user:dave@example.com#e8a7344fddf6`,
    `networksecurity:${AP}|${VIEWER}|user:_var.member_|if:until_2030:7febe63dcabf#b9776bcc0875`,
    `networksecurity:${AP}|${VIEWER}|user:alice@example.com`,
    `networksecurity:${AP}|${VIEWER}|user:alice@example.com|if:until_2030:7febe63dcabf`,
    `networksecurity:${AP}|${VIEWER}|user:alice@example.com|if:until_2030:8677524e5626`,
    `networksecurity:${AP}|${VIEWER}|user:carol@example.com|if:quote_backslash_x_longlonglonglonglonglo:09747de38933`,
  ]);
  expect(Object.keys(json.data.external).sort()).toEqual([
    'google_iam_drift_315549ee52717370',
    'google_iam_drift_85ebfcf8a8decb36',
    'google_iam_drift_a1efc6897b4c0ea1',
    'google_iam_drift_bbfa6cf3123c8ed5',
    'google_iam_drift_d17d0bba3828120a',
  ]);
  expect(Object.keys(json.check).sort()).toEqual([
    'google_iam_drift_315549ee52717370',
    'google_iam_drift_85ebfcf8a8decb36',
    'google_iam_drift_d17d0bba3828120a',
    'google_iam_twins_68a539ebf6036b4d',
  ]);
});
