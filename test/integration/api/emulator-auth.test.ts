/**
 * The emulator's token endpoints enforce what Google's do, and its API takes
 * only the tokens it issued or was told to accept.
 */
import { generateKeyPairSync, sign } from 'crypto';
import { GoogleApiEmulator } from '../../../lib/testing';

const AP = 'projects/p/locations/global/authorizationPolicies/auth';
let emulator: GoogleApiEmulator;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(AP);
});
afterAll(() => emulator.close());

async function post(path: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${emulator.url}${path}`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const readPolicy = (token: string) =>
  fetch(`${emulator.url}/networksecurity/v1/${AP}:getIamPolicy`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.status);

function jwt(key: string, claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'RS256', typ: 'JWT' })}.${part(claims)}`;
  return `${unsigned}.${sign('RSA-SHA256', Buffer.from(unsigned), key).toString('base64url')}`;
}

test('the API accepts the fixed token and tokens it issued or accepted, nothing else', async () => {
  expect(await readPolicy(GoogleApiEmulator.ACCESS_TOKEN)).toBe(200);
  expect(await readPolicy('made-up-token')).toBe(401);
  expect(await readPolicy(GoogleApiEmulator.DENIED_TOKEN)).toBe(403);
  emulator.env('made-up-token');
  expect(await readPolicy('made-up-token')).toBe(200);
});

test('POST /token: a JWT signed by a registered key, for Google’s audience, with a scope', async () => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const other = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  emulator.auth.addServiceAccount('sa@p.iam.gserviceaccount.com', publicKey);
  const claims = {
    iss: 'sa@p.iam.gserviceaccount.com',
    aud: 'https://oauth2.googleapis.com/token',
    scope: 'https://www.googleapis.com/auth/cloud-platform',
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 600,
  };
  const grant = (assertion: string) =>
    post('/token', new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString());
  const ok = await grant(jwt(privateKey, claims));
  expect(ok).toMatchObject({ status: 200, body: { token_type: 'Bearer', expires_in: 3600 } });
  expect(await readPolicy(ok.body.access_token as string)).toBe(200);
  expect((await grant(jwt(other.privateKey, claims))).body).toEqual({
    error: 'invalid_grant',
    error_description: 'Invalid JWT Signature.',
  });
  expect((await grant(jwt(privateKey, { ...claims, aud: 'https://evil.example.com/' }))).body.error_description).toMatch(/audience/);
  expect((await grant(jwt(privateKey, { ...claims, exp: 1 }))).body.error_description).toMatch(/short-lived/);
  expect((await grant(jwt(privateKey, { ...claims, iss: 'nobody@p.iam.gserviceaccount.com' }))).status).toBe(400);
});

test('POST /token refresh_token, POST /sts/v1/token: only registered credentials', async () => {
  emulator.auth.addAuthorizedUser('alice@example.com', { clientId: 'c', clientSecret: 's', refreshToken: 'r' });
  const refresh = (secret: string) =>
    post(
      '/token',
      new URLSearchParams({ grant_type: 'refresh_token', client_id: 'c', client_secret: secret, refresh_token: 'r' }).toString(),
    );
  expect((await refresh('s')).status).toBe(200);
  expect((await refresh('wrong')).body).toMatchObject({ error: 'invalid_grant' });

  emulator.auth.addExternalSubject('//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/q', 'subject-jwt');
  const exchange = (audience: string, subject: string) =>
    post(
      '/sts/v1/token',
      new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
        audience,
        subject_token: subject,
        subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
        requested_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      }).toString(),
    );
  const ok = await exchange('//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/q', 'subject-jwt');
  expect(ok.body).toMatchObject({ issued_token_type: 'urn:ietf:params:oauth:token-type:access_token', token_type: 'Bearer' });
  expect(await readPolicy(ok.body.access_token as string)).toBe(200);
  expect(
    (await exchange('//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/other', 'subject-jwt')).status,
  ).toBe(400);
  expect((await exchange('//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/q', 'forged')).status).toBe(
    400,
  );
});

test('generateAccessToken: an accepted caller, a scope, delegates in the API’s format', async () => {
  const url = '/iamcredentials/v1/projects/-/serviceAccounts/t@p.iam.gserviceaccount.com:generateAccessToken';
  const call = (token: string, body: unknown) =>
    post(url, JSON.stringify(body), { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` });
  const scope = ['https://www.googleapis.com/auth/cloud-platform'];
  const ok = await call(GoogleApiEmulator.ACCESS_TOKEN, { scope, lifetime: '3600s' });
  expect(ok.status).toBe(200);
  expect(Date.parse(ok.body.expireTime as string)).toBeGreaterThan(Date.now());
  expect(await readPolicy(ok.body.accessToken as string)).toBe(200);
  expect((await call('unknown', { scope })).status).toBe(401);
  expect((await call(GoogleApiEmulator.DENIED_TOKEN, { scope })).status).toBe(403);
  expect((await call(GoogleApiEmulator.ACCESS_TOKEN, {})).status).toBe(400);
  expect((await call(GoogleApiEmulator.ACCESS_TOKEN, { scope, delegates: ['d@p.iam.gserviceaccount.com'] })).status).toBe(400);
  expect(
    emulator.auth
      .authCalls()
      .filter((c) => c.endpoint === 'iamcredentials.generateAccessToken')
      .map((c) => c.status),
  ).toEqual([200, 401, 403, 400, 400]);
});
