import { Testing, TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, GetIamPolicyMethod, GoogleIamGrants, GoogleIamMember, MigrationJobIamBinding } from '../../../lib';

const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const MJ = 'projects/p-123456/locations/us-central1/migrationJobs/mj';
const ROLE = 'roles/networksecurity.authorizationPolicyViewer';

function synth(build: (stack: TerraformStack) => void): Record<string, any> {
  const stack = new TerraformStack(Testing.app(), 'iam-grants');
  build(stack);
  return JSON.parse(Testing.synth(stack));
}

const twoPolicies =
  (options: { failPlanOnDrift?: boolean } = {}) =>
  (stack: TerraformStack) => {
    new AuthorizationPolicyIamMember(stack, 'Alice', { name: AP, role: ROLE, member: 'user:alice@example.com', ...options });
    new MigrationJobIamBinding(stack, 'Viewers', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:a@example.com'] });
  };

describe('drift checks', () => {
  test('by default one read per policy at plan time and a check block (a warning); the read compares only applied grants', () => {
    const json = synth(twoPolicies());
    const reads = Object.values<any>(json.data.external);
    expect(reads).toHaveLength(2);
    for (const read of reads) {
      expect(read.query).toMatchObject({ compare: 'applied', stack: 'iam-grants', repair: 'terraform_data.google_iam_repair' });
      // Not the instances: while one has a change pending, Terraform would defer the read and
      // warn "known after apply" about the check.
      expect(read.query.grants).toContain('local.google_iam_grants[k].grant');
      expect(read.query.grants).not.toContain('terraform_data.google_iam_grants');
      expect(read.lifecycle).toBeUndefined();
    }
    expect(Object.keys(json.check).sort()).toEqual(Object.keys(json.data.external).sort());
  });

  test('failPlanOnDrift on a grant: that policy is read after pending changes and a postcondition fails the plan; the other policy still warns', () => {
    const json = synth(twoPolicies({ failPlanOnDrift: true }));
    const reads = Object.entries<any>(json.data.external);
    const failing = reads.filter(([, read]) => read.lifecycle);
    expect(failing).toHaveLength(1);
    const [name, read] = failing[0];
    expect(read.query).toMatchObject({ compare: 'all', name: AP });
    // It waits for the grants' apply: the id of their application.
    expect(read.query.grants).toContain('terraform_data.google_iam_grants_applied[k].id');
    expect(read.lifecycle.postcondition).toEqual([{ condition: '${self.result.drifted == "0"}', error_message: '${self.result.drift}' }]);
    expect(Object.keys(json.check)).toHaveLength(1);
    expect(json.check[name]).toBeUndefined();
  });

  test('failPlanOnDrift for a whole stack: no check block, every read has a postcondition', () => {
    const json = synth((stack) => {
      twoPolicies()(stack);
      GoogleIamGrants.of(stack).failPlanOnDrift = true;
    });
    expect(json.check).toBeUndefined();
    expect(Object.values<any>(json.data.external).every((read) => read.lifecycle?.postcondition)).toBe(true);
  });

  test('the repair handle: an empty terraform_data every grant is replaced by, written without construct metadata (so cdktf-cli leaves its address alone)', () => {
    const json = synth(twoPolicies());
    expect(json.resource.terraform_data.google_iam_repair).toEqual({});
    expect(json.resource.terraform_data.google_iam_grants.lifecycle.replace_triggered_by).toEqual(['terraform_data.google_iam_repair']);

    const stack = new TerraformStack(Testing.app(), 'hcl');
    twoPolicies()(stack);
    const hcl = Testing.synthHcl(stack);
    expect(hcl).toContain('resource "terraform_data" "google_iam_repair"');
    expect(hcl).toContain('replace_triggered_by = [terraform_data.google_iam_repair]');
  });

  test('one check per policy: grants that spell its read method differently share it, read as the first says', () => {
    const secret = { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p-123456/secrets/s' };
    const json = synth((stack) => {
      new GoogleIamMember(stack, 'Published', { resource: secret, role: 'roles/viewer', member: 'user:a@example.com' });
      new GoogleIamMember(stack, 'Forced', {
        resource: { ...secret, policyReadMethod: GetIamPolicyMethod.POST },
        role: 'roles/viewer',
        member: 'user:b@example.com',
      });
    });
    const reads = Object.values<any>(json.data.external);
    expect(reads).toHaveLength(1);
    expect(reads[0].query.getIamPolicyMethod).toBeUndefined();
    for (const who of ['a', 'b']) expect(reads[0].query.grants).toContain(`|roles/viewer|user:${who}@example.com`);
  });

  test('HCL output has no drift checks (its renderer has no check blocks): no read, no external provider; JSON output has them', () => {
    const stack = new TerraformStack(Testing.app(), 'hcl');
    twoPolicies({ failPlanOnDrift: true })(stack);
    const hcl = Testing.synthHcl(stack);
    expect(hcl).toContain('resource "terraform_data" "google_iam_grants"');
    expect(hcl).not.toMatch(/google_iam_drift_|data "external"|hashicorp\/external|check "/);
    expect(Object.keys(synth(twoPolicies({ failPlanOnDrift: true })).data.external)).toHaveLength(2);
  });
});
