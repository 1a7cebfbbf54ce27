/**
 * Credentials as Terraform users set them, each source run through
 * google-auth-library against the emulator's token endpoints (STS, IAM
 * Credentials, OAuth). Google's OAuth token URL is hard-coded for service
 * account keys and authorized users: those flows are redirected to the
 * emulator on the client's own transporter (proxy.test.ts shows the request
 * as it leaves unredirected).
 */
import * as fs from 'fs';
import * as path from 'path';
import { GoogleRestClient } from '../../../lib/api/client';
import { defaultProject, loadCredentials } from '../../../lib/api/credentials';
import { CredentialsError } from '../../../lib/api/errors';
import { IamPolicyApi } from '../../../lib/api/iam-policy';
import { GoogleApiEmulator } from '../../../lib/testing';
import {
  authorizedUser,
  externalAccount,
  generateAccessTokenUrl,
  redirectGoogleTokenUrl,
  serviceAccountKey,
  tempDir,
  writeJson,
} from './credential-fixtures';
import { rejectionOf } from '../../support/rejection';

/** The authenticated client `loadCredentials` builds for `env`. */
const clientOf = async (env: NodeJS.ProcessEnv) => (await loadCredentials(undefined, env)).client;

const AP = 'projects/p/locations/global/authorizationPolicies/creds';
const DEPLOYER = 'deployer@key-project.iam.gserviceaccount.com';
const TARGET = 'terraform@prod-project.iam.gserviceaccount.com';
const NETWORKSECURITY = { service: 'networksecurity', apiVersion: 'v1' } as const;

let emulator: GoogleApiEmulator;
let dir: string;
/** Endpoint overrides only: no credentials, nothing from the developer's machine. */
let base: NodeJS.ProcessEnv;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  dir = tempDir();
  const { GOOGLE_OAUTH_ACCESS_TOKEN: _token, ...overrides } = emulator.env(GoogleApiEmulator.ACCESS_TOKEN, ['iamcredentials']);
  base = { ...overrides, HOME: dir, METADATA_SERVER_DETECTION: 'none' };
});
afterAll(async () => {
  await emulator.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  emulator.addResource(AP);
  emulator.auth.clearLog();
  emulator.resetStats();
});

async function readPolicy(env: NodeJS.ProcessEnv, accessToken?: string) {
  return new IamPolicyApi(new GoogleRestClient({ env, accessToken }), { ...NETWORKSECURITY, name: AP }).getIamPolicy();
}

const rejection = (promise: Promise<unknown>) => rejectionOf(promise, CredentialsError);

const lastCaller = () => emulator.auth.apiCallers().at(-1);

describe('1. an access token', () => {
  test('the accessToken option wins over GOOGLE_OAUTH_ACCESS_TOKEN, which wins over GOOGLE_CREDENTIALS', async () => {
    emulator.auth.acceptToken('option-token');
    const env = { ...base, GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.ACCESS_TOKEN, GOOGLE_CREDENTIALS: '{"type":"service_account"}' };
    await readPolicy(env, 'option-token');
    expect(lastCaller()?.identity).toBe('token:option-token');
    await readPolicy(env);
    expect(lastCaller()?.identity).toBe(`token:${GoogleApiEmulator.ACCESS_TOKEN}`);
    expect(emulator.auth.authCalls()).toEqual([]);
  });

  test('GOOGLE_OAUTH_ACCESS_TOKEN may name a file holding the token, as the provider reads it', async () => {
    const file = path.join(dir, 'token.txt');
    fs.writeFileSync(file, `${GoogleApiEmulator.ACCESS_TOKEN}\n`);
    await readPolicy({ ...base, GOOGLE_OAUTH_ACCESS_TOKEN: file });
    expect(lastCaller()?.identity).toBe(`token:${GoogleApiEmulator.ACCESS_TOKEN}`);
    expect((await loadCredentials(undefined, { ...base, GOOGLE_OAUTH_ACCESS_TOKEN: file })).description).toBe(
      `GOOGLE_OAUTH_ACCESS_TOKEN (file ${file})`,
    );
  });
});

describe('2. GOOGLE_CREDENTIALS and its aliases: a path or the JSON', () => {
  test('a service account key as JSON content: a signed JWT is exchanged at the token endpoint', async () => {
    const key = serviceAccountKey(emulator, DEPLOYER);
    const credentials = await loadCredentials(undefined, { ...base, GOOGLE_CREDENTIALS: JSON.stringify(key) });
    expect(credentials.description).toBe('GOOGLE_CREDENTIALS (JSON content)');
    redirectGoogleTokenUrl(credentials.client, emulator);
    const token = (await credentials.requestHeaders()).get('authorization');
    expect(token).toMatch(/^Bearer emulator-issued-/);
    expect(emulator.auth.authCalls()).toEqual([
      expect.objectContaining({
        endpoint: 'oauth2.token',
        caller: `serviceAccount:${DEPLOYER}`,
        scope: 'https://www.googleapis.com/auth/cloud-platform',
        status: 200,
      }),
    ]);
    const response = await credentials.client.request({
      url: `${emulator.endpoint('networksecurity')}v1/${AP}:getIamPolicy`,
      method: 'GET',
    });
    expect(response.status).toBe(200);
    expect(lastCaller()?.identity).toBe(`serviceAccount:${DEPLOYER}`);
  });

  test('a path to the key file, in any of the three variables; GOOGLE_CREDENTIALS first, and it beats ADC', async () => {
    const file = writeJson(dir, 'key.json', serviceAccountKey(emulator, DEPLOYER));
    const adc = writeJson(dir, 'adc.json', authorizedUser(emulator, 'alice@example.com'));
    for (const variable of ['GOOGLE_CREDENTIALS', 'GOOGLE_CLOUD_KEYFILE_JSON', 'GCLOUD_KEYFILE_JSON']) {
      const client = await loadCredentials(undefined, { ...base, [variable]: file, GOOGLE_APPLICATION_CREDENTIALS: adc });
      expect(client.description).toBe(`${variable} (file ${file})`);
      expect((client.client as unknown as { email: string }).email).toBe(DEPLOYER);
    }
    const both = await loadCredentials(undefined, { ...base, GOOGLE_CREDENTIALS: file, GCLOUD_KEYFILE_JSON: '{}' });
    expect(both.description).toBe(`GOOGLE_CREDENTIALS (file ${file})`);
    const home = await loadCredentials(undefined, { ...base, GOOGLE_CREDENTIALS: '~/key.json' });
    expect(home.description).toBe(`GOOGLE_CREDENTIALS (file ${file})`);
  });

  test('workload identity federation JSON (external_account): STS exchange, then the API, all against the emulator', async () => {
    const config = externalAccount(emulator, dir, { source: 'file' });
    expect(await readPolicy({ ...base, GOOGLE_CREDENTIALS: JSON.stringify(config) })).toEqual({ etag: 'ACAB' });
    expect(emulator.auth.authCalls().map((c) => c.endpoint)).toEqual(['sts.token']);
    expect(lastCaller()?.identity).toMatch(
      /^principal:projects\/123456\/locations\/global\/workloadIdentityPools\/ci\/providers\/github\/subject\//,
    );
  });
});

describe('3. Application Default Credentials', () => {
  test('GOOGLE_APPLICATION_CREDENTIALS: external_account from GitHub Actions (OIDC URL, STS, service account impersonation)', async () => {
    const file = writeJson(
      dir,
      'github-wif.json',
      externalAccount(emulator, dir, { source: 'github', impersonate: 'ci@prod-project.iam.gserviceaccount.com' }),
    );
    expect(await readPolicy({ ...base, GOOGLE_APPLICATION_CREDENTIALS: file })).toEqual({ etag: 'ACAB' });
    expect(emulator.auth.authCalls().map((c) => [c.endpoint, c.status])).toEqual([
      ['oidc.token', 200],
      ['sts.token', 200],
      ['iamcredentials.generateAccessToken', 200],
    ]);
    expect(lastCaller()?.identity).toBe('serviceAccount:ci@prod-project.iam.gserviceaccount.com');
  });

  test('GOOGLE_APPLICATION_CREDENTIALS: impersonated_service_account (gcloud --impersonate-service-account), at the IAM Credentials override', async () => {
    const file = writeJson(dir, 'impersonated.json', {
      type: 'impersonated_service_account',
      service_account_impersonation_url: `https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/${TARGET}:generateAccessToken`,
      delegates: ['projects/-/serviceAccounts/middle@prod-project.iam.gserviceaccount.com'],
      source_credentials: externalAccount(emulator, dir, { source: 'file' }),
    });
    expect(await readPolicy({ ...base, GOOGLE_APPLICATION_CREDENTIALS: file })).toEqual({ etag: 'ACAB' });
    const [exchange, impersonation] = emulator.auth.authCalls();
    expect(exchange).toMatchObject({ endpoint: 'sts.token', status: 200 });
    expect(impersonation).toMatchObject({
      endpoint: 'iamcredentials.generateAccessToken',
      caller: exchange.issuedTo,
      issuedTo: `serviceAccount:${TARGET}`,
      delegates: ['projects/-/serviceAccounts/middle@prod-project.iam.gserviceaccount.com'],
    });
    expect(lastCaller()?.identity).toBe(`serviceAccount:${TARGET}`);
  });

  test("gcloud's well-known file (an authorized user's refresh token), found through CLOUDSDK_CONFIG or HOME", async () => {
    const gcloud = path.join(dir, 'gcloud-config');
    fs.mkdirSync(gcloud, { recursive: true });
    writeJson(gcloud, 'application_default_credentials.json', authorizedUser(emulator, 'alice@example.com'));
    const credentials = await loadCredentials(undefined, { ...base, CLOUDSDK_CONFIG: gcloud });
    expect(credentials.description).toBe(
      `gcloud's application default credentials (file ${path.join(gcloud, 'application_default_credentials.json')})`,
    );
    redirectGoogleTokenUrl(credentials.client, emulator);
    await credentials.client.request({ url: `${emulator.endpoint('networksecurity')}v1/${AP}:getIamPolicy`, method: 'GET' });
    expect(emulator.auth.authCalls()).toEqual([expect.objectContaining({ endpoint: 'oauth2.token', issuedTo: 'user:alice@example.com' })]);
    expect(lastCaller()?.identity).toBe('user:alice@example.com');
  });

  test('nothing set: the error lists every source, in order, and how to set one', async () => {
    const error = await rejection(readPolicy(base));
    expect(error).toMatchObject({ status: 'UNAUTHENTICATED', retryable: false });
    expect(error.apiMessage).toContain('no Google credentials found');
    const order = [
      'GOOGLE_OAUTH_ACCESS_TOKEN: not set',
      'GOOGLE_CREDENTIALS: not set',
      'GOOGLE_CLOUD_KEYFILE_JSON: not set',
      'GCLOUD_KEYFILE_JSON: not set',
      'GOOGLE_APPLICATION_CREDENTIALS: not set',
      `gcloud's application default credentials: no file ${path.join(dir, '.config', 'gcloud', 'application_default_credentials.json')}`,
      'the metadata server: not asked (METADATA_SERVER_DETECTION=none)',
    ];
    expect(error.apiMessage).toContain(order.join('; '));
    expect(emulator.stats().requests).toBe(0);
  });
});

describe('impersonation on top of any source: GOOGLE_IMPERSONATE_SERVICE_ACCOUNT', () => {
  test('on an access token, with delegates from GOOGLE_IMPERSONATE_SERVICE_ACCOUNT_DELEGATES, at the IAM Credentials override', async () => {
    const env = {
      ...base,
      GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.ACCESS_TOKEN,
      GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: TARGET,
      GOOGLE_IMPERSONATE_SERVICE_ACCOUNT_DELEGATES: ' a@p.iam.gserviceaccount.com , projects/-/serviceAccounts/b@p.iam.gserviceaccount.com',
    };
    await readPolicy(env);
    expect(emulator.auth.authCalls()).toEqual([
      {
        endpoint: 'iamcredentials.generateAccessToken',
        caller: `token:${GoogleApiEmulator.ACCESS_TOKEN}`,
        issuedTo: `serviceAccount:${TARGET}`,
        delegates: ['projects/-/serviceAccounts/a@p.iam.gserviceaccount.com', 'projects/-/serviceAccounts/b@p.iam.gserviceaccount.com'],
        scope: 'https://www.googleapis.com/auth/cloud-platform',
        status: 200,
      },
    ]);
    expect(lastCaller()?.identity).toBe(`serviceAccount:${TARGET}`);
  });

  test('on a service account key and on workload identity federation', async () => {
    const key = await loadCredentials(undefined, {
      ...base,
      GOOGLE_CREDENTIALS: JSON.stringify(serviceAccountKey(emulator, DEPLOYER)),
      GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: TARGET,
    });
    expect(key.description).toBe(`GOOGLE_CREDENTIALS (JSON content), impersonating ${TARGET} (GOOGLE_IMPERSONATE_SERVICE_ACCOUNT)`);
    redirectGoogleTokenUrl((key.client as unknown as { sourceClient: never }).sourceClient, emulator);
    await key.requestHeaders();
    expect(emulator.auth.authCalls().map((c) => [c.endpoint, c.caller, c.issuedTo])).toEqual([
      ['oauth2.token', `serviceAccount:${DEPLOYER}`, `serviceAccount:${DEPLOYER}`],
      ['iamcredentials.generateAccessToken', `serviceAccount:${DEPLOYER}`, `serviceAccount:${TARGET}`],
    ]);

    emulator.auth.clearLog();
    await readPolicy({
      ...base,
      GOOGLE_CREDENTIALS: JSON.stringify(externalAccount(emulator, dir, { source: 'file' })),
      GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: TARGET,
    });
    expect(emulator.auth.authCalls().map((c) => c.endpoint)).toEqual(['sts.token', 'iamcredentials.generateAccessToken']);
    expect(lastCaller()?.identity).toBe(`serviceAccount:${TARGET}`);
  });

  test('a refusal names the source and the target, is final, and prints no token', async () => {
    const env = { ...base, GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.DENIED_TOKEN, GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: TARGET };
    const error = await rejection(readPolicy(env));
    expect(error).toMatchObject({ httpStatus: 403, retryable: false });
    expect(error.apiMessage).toContain(
      `could not get an access token with GOOGLE_OAUTH_ACCESS_TOKEN, impersonating ${TARGET} (GOOGLE_IMPERSONATE_SERVICE_ACCOUNT) (HTTP 403)`,
    );
    expect(error.apiMessage).toContain('PERMISSION_DENIED');
    expect(error.message).not.toContain(GoogleApiEmulator.DENIED_TOKEN);
    expect(emulator.stats().getIamPolicy).toBe(0);
    await expect(
      loadCredentials(undefined, { ...env, GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: `${TARGET},other@p.iam.gserviceaccount.com` }),
    ).rejects.toThrow(/GOOGLE_IMPERSONATE_SERVICE_ACCOUNT takes one service account .* GOOGLE_IMPERSONATE_SERVICE_ACCOUNT_DELEGATES/);
  });
});

describe('the quota project: x-goog-user-project on every call', () => {
  test.each([
    ['GOOGLE_CLOUD_QUOTA_PROJECT', { GOOGLE_CLOUD_QUOTA_PROJECT: 'quota-a' }, 'quota-a'],
    [
      'GOOGLE_BILLING_PROJECT with USER_PROJECT_OVERRIDE, over GOOGLE_CLOUD_QUOTA_PROJECT',
      { GOOGLE_BILLING_PROJECT: 'billing-b', USER_PROJECT_OVERRIDE: 'true', GOOGLE_CLOUD_QUOTA_PROJECT: 'quota-a' },
      'billing-b',
    ],
    ['not GOOGLE_BILLING_PROJECT alone (as the provider)', { GOOGLE_BILLING_PROJECT: 'billing-b' }, undefined],
    [
      'not GOOGLE_BILLING_PROJECT with USER_PROJECT_OVERRIDE=false',
      { GOOGLE_BILLING_PROJECT: 'billing-b', USER_PROJECT_OVERRIDE: 'false', GOOGLE_CLOUD_QUOTA_PROJECT: 'quota-a' },
      'quota-a',
    ],
  ])('%s', async (_label, settings, expected) => {
    await readPolicy({ ...base, GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.ACCESS_TOKEN, ...settings });
    expect(lastCaller()?.userProject).toBe(expected);
  });

  test('with impersonation, and from a credentials file’s quota_project_id when the environment names none', async () => {
    await readPolicy({
      ...base,
      GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.ACCESS_TOKEN,
      GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: TARGET,
      GOOGLE_CLOUD_QUOTA_PROJECT: 'quota-a',
    });
    expect(lastCaller()).toEqual({ identity: `serviceAccount:${TARGET}`, userProject: 'quota-a' });
    const config = { ...externalAccount(emulator, dir, { source: 'file' }), quota_project_id: 'file-quota' };
    await readPolicy({ ...base, GOOGLE_CREDENTIALS: JSON.stringify(config) });
    expect(lastCaller()?.userProject).toBe('file-quota');
    await expect(
      readPolicy({ ...base, GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.ACCESS_TOKEN, USER_PROJECT_OVERRIDE: 'yes' }),
    ).rejects.toThrow(/USER_PROJECT_OVERRIDE: expected true or false/);
  });
});

describe('unusable credentials: which sources were tried, never a secret', () => {
  const key = () => serviceAccountKey(emulator, DEPLOYER);

  test('GOOGLE_CREDENTIALS that is neither a file nor JSON', async () => {
    const error = await rejection(readPolicy({ ...base, GOOGLE_CREDENTIALS: '/no/such/key.json' }));
    expect(error.apiMessage).toBe(
      'GOOGLE_CREDENTIALS (JSON content) is neither the path of a readable file nor credentials JSON (the value is not shown: it may hold a key). ' +
        'Credential sources, in order (the first one set is used): GOOGLE_OAUTH_ACCESS_TOKEN: not set; GOOGLE_CREDENTIALS (JSON content) (used)',
    );
    expect(error.message).not.toContain('/no/such/key.json');
  });

  test('JSON with a private key but no client_email: the library’s reason, no key material', async () => {
    const { client_email: _email, ...broken } = key();
    const content = JSON.stringify(broken);
    const error = await rejection(readPolicy({ ...base, GOOGLE_CLOUD_KEYFILE_JSON: content }));
    expect(error.apiMessage).toMatch(/^GOOGLE_CLOUD_KEYFILE_JSON \(JSON content\) \(type service_account\) is not usable: .*client_email/);
    expect(error.apiMessage).toContain('GOOGLE_CREDENTIALS: not set; GOOGLE_CLOUD_KEYFILE_JSON (JSON content) (used)');
    expect(error.message).not.toContain('PRIVATE KEY');
    expect(error.message).not.toContain(broken.private_key.split('\n')[1]);
  });

  test('a JSON of an unknown type, an unreadable ADC file, an empty option', async () => {
    expect((await rejection(readPolicy({ ...base, GOOGLE_CREDENTIALS: '{"type":"api_key","key":"AIzaSecretValue123"}' }))).message).toMatch(
      /"type" must be one of service_account, authorized_user, external_account, external_account_authorized_user, impersonated_service_account, gdch_service_account \(got "api_key"\)/,
    );
    const missing = path.join(dir, 'missing.json');
    const adc = await rejection(readPolicy({ ...base, GOOGLE_APPLICATION_CREDENTIALS: missing }));
    expect(adc.apiMessage).toMatch(
      new RegExp(
        `^GOOGLE_APPLICATION_CREDENTIALS \\(file ${missing}\\) cannot be read \\(ENOENT\\)\\. .*GCLOUD_KEYFILE_JSON: not set; GOOGLE_APPLICATION_CREDENTIALS \\(used\\)$`,
      ),
    );
    await expect(readPolicy(base, ' ')).rejects.toThrow('the accessToken option is empty');
  });

  test('a key the token endpoint refuses: final, named, no JWT or key in the message', async () => {
    const registered = key();
    const forged = { ...key(), client_email: 'forged@key-project.iam.gserviceaccount.com' };
    emulator.auth.addServiceAccount(forged.client_email, (await import('crypto')).createPublicKey(registered.private_key));
    const credentials = await loadCredentials(undefined, { ...base, GOOGLE_CREDENTIALS: JSON.stringify(forged) });
    redirectGoogleTokenUrl(credentials.client, emulator);
    const error = await rejection(credentials.requestHeaders());
    expect(error).toMatchObject({ httpStatus: 400, retryable: false });
    expect(error.apiMessage).toMatch(
      /^could not get an access token with GOOGLE_CREDENTIALS \(JSON content\) \(HTTP 400\): invalid_grant: Invalid JWT Signature\. Credential sources/,
    );
    expect(error.message).not.toMatch(/PRIVATE KEY|eyJ/);
  });
});

describe('the default project and the client object', () => {
  test('the project comes from the environment, else the key in use', async () => {
    const key = writeJson(dir, 'project-key.json', serviceAccountKey(emulator, DEPLOYER, 'adc-project'));
    expect(await defaultProject({ GOOGLE_APPLICATION_CREDENTIALS: key })).toBe('adc-project');
    expect(await defaultProject({ GOOGLE_CREDENTIALS: key, GOOGLE_OAUTH_ACCESS_TOKEN: 'tok' })).toBe('adc-project');
    expect(await defaultProject({ GOOGLE_CREDENTIALS: key, GOOGLE_PROJECT: 'env-project' })).toBe('env-project');
    expect(
      await defaultProject({
        GOOGLE_APPLICATION_CREDENTIALS: writeJson(dir, 'wif.json', externalAccount(emulator, dir, { source: 'file' })),
      }),
    ).toBeUndefined();
  });

  test('the client: an access token needs no key file; a key file signs as its service account', async () => {
    const key = writeJson(dir, 'client-key.json', serviceAccountKey(emulator, DEPLOYER));
    const signer = (await clientOf({ GOOGLE_APPLICATION_CREDENTIALS: key })) as unknown as { email?: string };
    expect(signer.email).toBe(DEPLOYER);
    const client = (await clientOf({ GOOGLE_APPLICATION_CREDENTIALS: key, GOOGLE_OAUTH_ACCESS_TOKEN: 'tok' })) as unknown as {
      email?: string;
      credentials: { access_token?: string };
    };
    expect(client.email).toBeUndefined();
    expect(client.credentials.access_token).toBe('tok');
  });

  test('an impersonated_service_account file uses Google’s IAM Credentials endpoint unless overridden', async () => {
    const file = writeJson(dir, 'plain-impersonated.json', {
      type: 'impersonated_service_account',
      service_account_impersonation_url: generateAccessTokenUrl(emulator, TARGET),
      source_credentials: externalAccount(emulator, dir, { source: 'file' }),
    });
    const { CLOUDSDK_API_ENDPOINT_OVERRIDES_IAMCREDENTIALS: _override, ...withoutOverride } = base;
    const plain = (await clientOf({ ...withoutOverride, GOOGLE_APPLICATION_CREDENTIALS: file })) as unknown as {
      endpoint: string;
      getTargetPrincipal(): string;
    };
    expect(plain.endpoint).toBe('https://iamcredentials.googleapis.com');
    expect(plain.getTargetPrincipal()).toBe(TARGET);
    const overridden = (await clientOf({ ...base, GOOGLE_APPLICATION_CREDENTIALS: file })) as unknown as { endpoint: string };
    expect(overridden.endpoint).toBe(emulator.endpoint('iamcredentials').replace(/\/$/, ''));
  });
});

describe('secrets read from a credential source never appear in a message', () => {
  afterEach(() => {
    emulator.auth.echoRequestsInErrors = false;
  });

  test.each(['file', 'github'] as const)(
    'an STS refusal that echoes the request does not print the subject token (credential_source: %s)',
    async (source) => {
      emulator.auth.echoRequestsInErrors = true;
      const sourceDir = fs.mkdtempSync(path.join(dir, 'wif-'));
      const config = externalAccount(emulator, sourceDir, { source });
      // The identity provider no longer trusts it: STS refuses, echoing what it was sent.
      const wrongPool = { ...config, audience: `${String(config.audience)}-retired` };
      const subjectToken =
        source === 'file'
          ? fs.readFileSync(path.join(sourceDir, 'oidc-token'), 'utf8')
          : (
              (await await fetch(String((config.credential_source as { url: string }).url), {
                headers: (config.credential_source as { headers: Record<string, string> }).headers,
              }).then((r) => r.json())) as { value: string }
            ).value;
      const error = await rejection(readPolicy({ ...base, GOOGLE_CREDENTIALS: JSON.stringify(wrongPool) }));
      expect(error.message).toMatch(/does not match the expected audience/);
      expect(error.message).toMatch(/subject_token=\[REDACTED\]/);
      expect(error.message).not.toContain(subjectToken);
    },
  );
});
