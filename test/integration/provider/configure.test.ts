/**
 * The provider block's settings against the environment, as the Terraform
 * google provider ranks them: `access_token` first, then an access token in
 * the environment, then `credentials` (before GOOGLE_CREDENTIALS and ADC);
 * `project` before the environment's and the credentials'.
 */
import { Diagnostics } from '../../../lib/provider/framework/diagnostics';
import { googleIamProvider } from '../../../lib/provider/google-iam-provider';
import { GoogleApiEmulator } from '../../../lib/testing';
import { fullValue, ProviderHarness, withDiagnostics } from '../../support/provider-harness';

const NAME = 'projects/p-123456/locations/global/authorizationPolicies/configured';
const KEY_JSON = JSON.stringify({
  type: 'authorized_user',
  client_id: 'c',
  client_secret: 's',
  refresh_token: 'r',
  project_id: 'from-credentials',
});

let emulator: GoogleApiEmulator;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(NAME, { bindings: [{ role: 'roles/networksecurity.viewer', members: ['user:a@example.com'] }] });
});
afterAll(() => emulator.close());

/** Whether the provider, so configured, can read the policy (a 403 with the denied token). */
async function reads(env: NodeJS.ProcessEnv, config: Record<string, string>): Promise<string> {
  const harness = await ProviderHarness.configure({ ...emulator.env(), CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '0', ...env }, config);
  const source = harness.dataSource('googleiam_iam_policy');
  const { diagnostics } = await withDiagnostics((d) =>
    source.read(harness.call, fullValue(source, { service: 'networksecurity', api_version: 'v1', name: NAME }), d),
  );
  return diagnostics.hasError ? diagnostics.all[0].detail.split(' ')[0] : 'read';
}

test("the provider block's access_token comes before the environment's token", async () => {
  const token = 'provider-block-token';
  emulator.auth.acceptToken(token);
  expect(await reads({ GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.DENIED_TOKEN }, {})).toBe('PERMISSION_DENIED');
  expect(await reads({ GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.DENIED_TOKEN }, { access_token: token })).toBe('read');
});

test("the provider block's credentials yield to an access token in the environment, as in the google provider", async () => {
  expect(await reads({}, { credentials: KEY_JSON })).toBe('read');
});

test("the default project: the provider block's, else the environment's, else the credentials'", async () => {
  const project = async (env: NodeJS.ProcessEnv, config: Record<string, string>) =>
    (await ProviderHarness.configure(env, config)).context.defaultProject();
  expect(await project({ GOOGLE_CLOUD_PROJECT: 'from-env' }, { project: 'from-block', credentials: KEY_JSON })).toBe('from-block');
  expect(await project({ GOOGLE_CLOUD_PROJECT: 'from-env' }, { credentials: KEY_JSON })).toBe('from-env');
  expect(await project({}, { credentials: KEY_JSON })).toBe('from-credentials');
});

test('credentials and access_token together are refused, as the google provider refuses them', () => {
  const diagnostics = new Diagnostics();
  googleIamProvider({}).validate!(
    { project: null, credentials: KEY_JSON, access_token: 't', impersonate_service_account: null },
    diagnostics,
  );
  expect(diagnostics.all).toEqual([expect.objectContaining({ severity: 'ERROR', attribute: ['access_token'] })]);
});

test('eventual_consistency_timeout is a duration; anything else is refused on the attribute', () => {
  const validate = (value: string) => {
    const diagnostics = new Diagnostics();
    googleIamProvider({}).validate!(
      { project: null, credentials: null, access_token: null, impersonate_service_account: null, eventual_consistency_timeout: value },
      diagnostics,
    );
    return diagnostics.all;
  };
  expect(validate('90s')).toEqual([]);
  expect(validate('1m30s')).toEqual([]);
  expect(validate('ten minutes')).toEqual([
    expect.objectContaining({
      severity: 'ERROR',
      attribute: ['eventual_consistency_timeout'],
      detail: 'expected a duration such as "90s", "2m" or "1m30s" (got "ten minutes")',
    }),
  ]);
});

test("eventual_consistency_timeout sets how long a grant waits, whatever the environment's retry cap", async () => {
  const env = { ...emulator.env(), CDKTF_GOOGLE_IAM_RETRY_MAX_MS: '5000' };
  expect((await ProviderHarness.configure(env, {})).context.visibilityRetry.maxElapsedMs).toBe(5_000);
  expect((await ProviderHarness.configure(env, { eventual_consistency_timeout: '45s' })).context.visibilityRetry.maxElapsedMs).toBe(45_000);
  expect((await ProviderHarness.configure({ ...emulator.env() }, {})).context.visibilityRetry.maxElapsedMs).toBe(120_000);
});

test('credentials and access_token are sensitive in the schema', () => {
  const sensitive = googleIamProvider({})
    .schema.attributes.filter((a) => a.sensitive)
    .map((a) => a.name);
  expect(sensitive).toEqual(['credentials', 'access_token']);
});
