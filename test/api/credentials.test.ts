import { generateKeyPairSync } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { authClient, defaultProject } from '../../lib/api/credentials';

/**
 * Application Default Credentials go through google-auth-library's
 * GoogleAuth, which the vendor bundle loads only when it is needed. Google's
 * token endpoint is out of reach here, so these stop short of a request.
 */
describe('Application Default Credentials from a service account key file', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdktf-google-iam-adc-'));
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const keyFile = path.join(dir, 'key.json');
    fs.writeFileSync(keyFile, JSON.stringify({
      type: 'service_account', project_id: 'adc-project', private_key_id: 'k1', private_key: privateKey,
      client_email: 'deployer@adc-project.iam.gserviceaccount.com', client_id: '1', token_uri: 'https://oauth2.googleapis.com/token',
    }));
    env = { GOOGLE_APPLICATION_CREDENTIALS: keyFile };
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('the default project is the key file\'s', async () => {
    expect(await defaultProject(env)).toBe('adc-project');
  });

  test('the client signs as the key file\'s service account', async () => {
    const client = await authClient(undefined, env) as unknown as { email?: string; request: unknown };
    expect(client.email).toBe('deployer@adc-project.iam.gserviceaccount.com');
    expect(typeof client.request).toBe('function');
  });

  test('an access token wins over the key file', async () => {
    const client = await authClient(undefined, { ...env, GOOGLE_OAUTH_ACCESS_TOKEN: 'tok' }) as unknown as { email?: string; credentials: { access_token?: string } };
    expect(client.email).toBeUndefined();
    expect(client.credentials.access_token).toBe('tok');
  });
});
