/**
 * Credentials reach the provider through the environment only: after a deploy,
 * neither cdktf.out nor the Terraform state holds them, and synthesizing
 * stacks that read IAM policies at plan time writes no credential either.
 * The provider takes them as the Terraform google provider does (here
 * GOOGLE_CREDENTIALS holding workload identity federation JSON, with
 * impersonation), and its errors never print them.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Testing, TerraformStack } from 'cdktf';
import { AuthorizationPolicyIamMember, DataAddressGroupIamPolicy, MigrationJobIamBinding } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv, membersOf } from '../../support/grant-env';
import { TerraformWorkspace } from '../../support/terraform';

jest.setTimeout(120_000);

const TOKEN = `ya29.canary-${process.pid}-${Date.now()}`;
const AP = 'projects/demo-project/locations/global/authorizationPolicies/secret';
const MJ = 'projects/demo-project/locations/us-central1/migrationJobs/secret';

/** Every regular file below `dir` (the provider symlinks terraform init makes under .terraform are left out). */
function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return filesUnder(full);
    return entry.isFile() ? [full] : [];
  });
}

function filesContaining(dir: string, secret: string): string[] {
  return filesUnder(dir).filter((file) => fs.readFileSync(file).includes(secret));
}

test('after apply and destroy, no file in cdktf.out or the state holds the token', async () => {
  const emulator = await GoogleApiEmulator.start();
  const ws = TerraformWorkspace.synth((s) => {
    new AuthorizationPolicyIamMember(s, 'Member', {
      name: AP,
      role: 'roles/networksecurity.viewer',
      member: 'user:alice@example.com',
    });
    new MigrationJobIamBinding(s, 'Binding', { name: MJ, role: 'roles/datamigration.editor', members: ['user:bob@example.com'] });
  });
  try {
    emulator.addResource(AP);
    emulator.addResource(MJ);
    emulator.auth.acceptToken(TOKEN);
    await ws.init();
    const env = grantEnv(emulator, { GOOGLE_OAUTH_ACCESS_TOKEN: TOKEN });

    expect((await ws.apply(env)).code).toBe(0);
    expect(membersOf(emulator, AP, 'roles/networksecurity.viewer')).toEqual(['user:alice@example.com']);
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

test('GOOGLE_CREDENTIALS (federation JSON) with impersonation: the grant is made as the target; no secret is written or printed', async () => {
  const emulator = await GoogleApiEmulator.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-wif-'));
  const ws = TerraformWorkspace.synth((s) => {
    new AuthorizationPolicyIamMember(s, 'Member', {
      name: AP,
      role: 'roles/networksecurity.viewer',
      member: 'user:carol@example.com',
    });
  });
  try {
    emulator.addResource(AP);
    const subjectToken = `subject-${TOKEN}`;
    fs.writeFileSync(path.join(dir, 'oidc-token'), subjectToken);
    const audience = '//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/ci/providers/github';
    emulator.auth.addExternalSubject(audience, subjectToken);
    const credentials = JSON.stringify({
      type: 'external_account',
      audience,
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
      token_url: `${emulator.url}/sts/v1/token`,
      credential_source: { file: path.join(dir, 'oidc-token') },
      client_secret: `wif-secret-${TOKEN}`,
    });
    await ws.init();
    const { GOOGLE_OAUTH_ACCESS_TOKEN: _token, ...withoutToken } = grantEnv(
      emulator,
      emulator.env(GoogleApiEmulator.ACCESS_TOKEN, ['iamcredentials']),
    );
    const env = {
      ...withoutToken,
      GOOGLE_CREDENTIALS: credentials,
      GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: 'terraform@prod.iam.gserviceaccount.com',
      HOME: dir,
    };

    const applied = await ws.apply(env);
    expect(applied.code).toBe(0);
    expect(membersOf(emulator, AP, 'roles/networksecurity.viewer')).toEqual(['user:carol@example.com']);
    expect(new Set(emulator.auth.apiCallers().map((c) => c.identity))).toEqual(
      new Set(['serviceAccount:terraform@prod.iam.gserviceaccount.com']),
    );
    for (const text of [applied.output, ws.state(), ...filesUnder(ws.outdir).map((f) => fs.readFileSync(f, 'utf8'))]) {
      expect(text).not.toContain(subjectToken);
      expect(text).not.toContain('wif-secret-');
      expect(text).not.toContain('emulator-issued-');
    }

    const broken = await ws.destroy({
      ...env,
      GOOGLE_CREDENTIALS: credentials.replace('"type":"external_account"', '"type":"external_acount"'),
    });
    expect(broken.code).not.toBe(0);
    // Terraform wraps a diagnostic's detail to the terminal's width.
    const said = broken.output.replace(/\s+/g, ' ');
    expect(said).toContain('GOOGLE_CREDENTIALS (JSON content) is not a credentials JSON');
    expect(said).toContain('GOOGLE_OAUTH_ACCESS_TOKEN: not set; GOOGLE_CREDENTIALS (JSON content) (used)');
    expect(broken.output).not.toContain('wif-secret-');
    expect(broken.output).not.toContain(audience);
    expect(membersOf(emulator, AP, 'roles/networksecurity.viewer')).toEqual(['user:carol@example.com']);
  } finally {
    ws.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
    await emulator.close();
  }
});

test('a synthesized stack that reads policies at plan time carries no credential', () => {
  const saved = process.env.GOOGLE_OAUTH_ACCESS_TOKEN;
  process.env.GOOGLE_OAUTH_ACCESS_TOKEN = TOKEN;
  try {
    const stack = new TerraformStack(Testing.app(), 'reads');
    new DataAddressGroupIamPolicy(stack, 'Policy', { addressGroupId: 'ag', location: 'global', project: 'demo-project' });
    const grant = new AuthorizationPolicyIamMember(stack, 'Member', {
      name: AP,
      role: 'roles/networksecurity.viewer',
      member: 'user:alice@example.com',
    });
    expect(grant.etag).toMatch(/\${TfToken/);
    const synthesized = Testing.synth(stack);
    // The reads run in our provider (which authenticates itself); no token source is referenced at all.
    expect(synthesized).toContain('"googleiam_address_group_iam_policy"');
    expect(synthesized).not.toContain('google_client_config');
    expect(synthesized).not.toContain('access_token');
    expect(synthesized).not.toContain(TOKEN);
  } finally {
    if (saved === undefined) delete process.env.GOOGLE_OAUTH_ACCESS_TOKEN;
    else process.env.GOOGLE_OAUTH_ACCESS_TOKEN = saved;
  }
});
