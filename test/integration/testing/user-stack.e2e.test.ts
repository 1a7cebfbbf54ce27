/**
 * The README's "Testing your stacks" example, as a user writes it in their
 * own project (there the imports are 'cdktf-google-iam' and
 * 'cdktf-google-iam/testing'): synthesize a stack with grants, run the
 * real `terraform apply` against the emulator, assert on the policy, and
 * leave no temp folder behind. The README test checks the README shows
 * exactly this file.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, LocalBackend, TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember } from '../../../lib';
import { GoogleApiEmulator, TerraformCli } from '../../../lib/testing';

jest.setTimeout(120_000);

test('the readers get the viewer role, and nobody else is touched', async () => {
  const emulator = await GoogleApiEmulator.start();
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-test-'));
  try {
    const policy = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';
    emulator.addResource(policy, {
      bindings: [{ role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] }],
    });

    const app = new App({ outdir });
    const stack = new TerraformStack(app, 'iam');
    new LocalBackend(stack, { path: 'terraform.tfstate' });
    new AuthorizationPolicyIamMember(stack, 'Readers', {
      name: policy,
      role: 'roles/networksecurity.viewer',
      member: 'group:readers@example.com',
    });
    app.synth();

    const cwd = path.join(outdir, 'stacks', 'iam');
    await TerraformCli.run(['init', '-input=false'], { cwd, env: emulator.env() });
    await TerraformCli.run(['apply', '-auto-approve', '-input=false'], { cwd, env: emulator.env() });

    expect(emulator.policy(policy).bindings).toEqual([
      { role: 'roles/networksecurity.admin', members: ['user:owner@example.com'] },
      { role: 'roles/networksecurity.viewer', members: ['group:readers@example.com'] },
    ]);
    expect(emulator.writes(policy)).toHaveLength(1);
  } finally {
    await emulator.close();
    fs.rmSync(outdir, { recursive: true, force: true });
  }
});
