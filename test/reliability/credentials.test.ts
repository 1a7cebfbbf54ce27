/**
 * The access token reaches the runner through the environment only: after a
 * deploy, neither cdktf.out nor the Terraform state holds it, and synthesizing
 * stacks that read IAM policies at plan time writes no credential either.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Testing, TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, DataAddressGroupIamPolicy, MigrationJobIamBinding } from '../../lib';
import { GoogleApiEmulator } from '../../lib/testing';
import { grantEnv, membersOf } from '../support/grant-env';
import { TerraformWorkspace } from '../support/terraform';

jest.setTimeout(120_000);

const TOKEN = `ya29.canary-${process.pid}-${Date.now()}`;
const AP = 'projects/demo-project/locations/global/authorizationPolicies/secret';
const MJ = 'projects/demo-project/locations/us-central1/migrationJobs/secret';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

function filesContaining(dir: string, secret: string): string[] {
  return filesUnder(dir).filter((file) => fs.readFileSync(file).includes(secret));
}

test('after apply and destroy, no file in cdktf.out or the state holds the token', async () => {
  const emulator = await GoogleApiEmulator.start();
  const ws = TerraformWorkspace.synth((s) => {
    new AuthorizationPolicyIamMember(s, 'Member', { name: AP, role: 'roles/networksecurity.authorizationPolicyViewer', member: 'user:alice@example.com' });
    new MigrationJobIamBinding(s, 'Binding', { name: MJ, role: 'roles/datamigration.viewer', members: ['user:bob@example.com'] });
  });
  try {
    emulator.addResource(AP);
    emulator.addResource(MJ);
    await ws.init();
    const env = grantEnv(emulator, { GOOGLE_OAUTH_ACCESS_TOKEN: TOKEN });

    expect((await ws.apply(env)).code).toBe(0);
    expect(membersOf(emulator, AP, 'roles/networksecurity.authorizationPolicyViewer')).toEqual(['user:alice@example.com']);
    expect(ws.state()).toContain('user:alice@example.com');
    expect(ws.state()).not.toContain(TOKEN);
    expect(filesContaining(ws.outdir, TOKEN)).toEqual([]);

    expect((await ws.destroy(env)).code).toBe(0);
    expect(filesContaining(ws.outdir, TOKEN)).toEqual([]);
  } finally {
    ws.dispose();
    await emulator.close();
  }
});

test('a synthesized stack that reads policies at plan time carries no credential', () => {
  const saved = process.env.GOOGLE_OAUTH_ACCESS_TOKEN;
  process.env.GOOGLE_OAUTH_ACCESS_TOKEN = TOKEN;
  try {
    const stack = new TerraformStack(Testing.app(), 'reads');
    new DataAddressGroupIamPolicy(stack, 'Policy', { addressGroupId: 'ag', location: 'global', project: 'demo-project' });
    const grant = new AuthorizationPolicyIamMember(stack, 'Member', { name: AP, role: 'roles/networksecurity.authorizationPolicyViewer', member: 'user:alice@example.com' });
    expect(grant.etag).toMatch(/\${TfToken/);
    const synthesized = Testing.synth(stack);
    expect(synthesized).toContain('google_client_config');
    expect(synthesized).not.toContain(TOKEN);
  } finally {
    if (saved === undefined) delete process.env.GOOGLE_OAUTH_ACCESS_TOKEN;
    else process.env.GOOGLE_OAUTH_ACCESS_TOKEN = saved;
  }
});
