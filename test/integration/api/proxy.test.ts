/**
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as gaxios (google-auth-library's HTTP
 * layer) reads them from the process environment: every call, token
 * endpoints included, goes through the proxy, and NO_PROXY bypasses it. The
 * proxy refuses Google's own hosts, which shows the requests google-auth-library
 * sends to URLs it hard-codes, without reaching the network.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as net from 'net';
import { GoogleRestClient } from '../../../lib/api/client';
import { CredentialsError, GoogleApiError } from '../../../lib/api/errors';
import { IamPolicyApi } from '../../../lib/api/iam-policy';
import { GoogleApiEmulator } from '../../../lib/testing';
import { authorizedUser, externalAccount, serviceAccountKey, tempDir, writeJson } from './credential-fixtures';
import { rejectionOf } from '../../support/rejection';

const AP = 'projects/p/locations/global/authorizationPolicies/proxied';
const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];

/** A forward proxy: CONNECT tunnels (logging the plain HTTP requests inside) and absolute-URI requests. */
class TestProxy {
  public static async start(): Promise<TestProxy> {
    const proxy = new TestProxy();
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** `CONNECT host:port`, `GET http://…` (absolute URI), and `→ GET /path` for each request seen inside a tunnel. */
  public readonly seen: string[] = [];
  private readonly server = http.createServer((req, res) => this.forward(req, res));
  private readonly sockets = new Set<net.Socket>();

  private constructor() {
    this.server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => this.tunnel(req, client, head));
  }

  public get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  public async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.seen.push(`${req.method} ${req.url}`);
    const upstream = http.request(req.url ?? '', { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  }

  private tunnel(req: http.IncomingMessage, client: net.Socket, head: Buffer): void {
    this.seen.push(`CONNECT ${req.url}`);
    this.sockets.add(client);
    const { hostname, port } = new URL(`http://${req.url}`);
    if (hostname !== '127.0.0.1') {
      // Never reach the network from a test: Google's hosts are refused here.
      client.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = net.connect(Number(port), hostname, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      const send = (chunk: Buffer) => {
        for (const m of chunk.toString('latin1').matchAll(/^([A-Z]+) (\S+) HTTP\/1\.[01]\r$/gm)) this.seen.push(`→ ${m[1]} ${m[2]}`);
        upstream.write(chunk);
      };
      if (head.length) send(head);
      client.on('data', send);
      client.on('end', () => upstream.end());
      upstream.pipe(client);
    });
    this.sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  }
}

let emulator: GoogleApiEmulator;
let proxy: TestProxy;
let dir: string;
let base: NodeJS.ProcessEnv;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  proxy = await TestProxy.start();
  dir = tempDir();
  const { GOOGLE_OAUTH_ACCESS_TOKEN: _token, ...overrides } = emulator.env(GoogleApiEmulator.ACCESS_TOKEN, ['iamcredentials']);
  base = { ...overrides, HOME: dir, METADATA_SERVER_DETECTION: 'none' };
  for (const name of PROXY_VARIABLES) saved[name] = process.env[name];
});
afterAll(async () => {
  await proxy.close();
  await emulator.close();
});
beforeEach(() => {
  for (const name of PROXY_VARIABLES) delete process.env[name];
  proxy.seen.length = 0;
  emulator.addResource(AP);
  emulator.auth.clearLog();
});
afterEach(() => {
  for (const name of PROXY_VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

const readPolicy = (env: NodeJS.ProcessEnv) =>
  new IamPolicyApi(new GoogleRestClient({ env }), { service: 'networksecurity', apiVersion: 'v1', name: AP }).getIamPolicy();
const port = () => new URL(emulator.url).port;

test('HTTPS_PROXY: the OIDC token, STS, generateAccessToken and the API call all pass through the proxy', async () => {
  process.env.HTTPS_PROXY = proxy.url;
  const file = writeJson(
    dir,
    'github.json',
    externalAccount(emulator, dir, { source: 'github', impersonate: 'ci@prod.iam.gserviceaccount.com' }),
  );
  expect(await readPolicy({ ...base, GOOGLE_APPLICATION_CREDENTIALS: file })).toEqual({ etag: 'ACAB' });
  const inside = proxy.seen.filter((line) => line.startsWith('→')).map((line) => line.replace(/\?.*$/, ''));
  expect(inside).toEqual([
    '→ GET /github-oidc/token',
    '→ POST /sts/v1/token',
    '→ POST /iamcredentials/v1/projects/-/serviceAccounts/ci@prod.iam.gserviceaccount.com:generateAccessToken',
    `→ GET /networksecurity/v1/${AP}:getIamPolicy`,
  ]);
  expect(proxy.seen.filter((line) => line.startsWith('CONNECT')).every((line) => line === `CONNECT 127.0.0.1:${port()}`)).toBe(true);
  expect(emulator.auth.apiCallers()).toEqual([{ identity: 'serviceAccount:ci@prod.iam.gserviceaccount.com' }]);
});

test('HTTP_PROXY when HTTPS_PROXY is not set; the proxy also forwards absolute-URI requests', async () => {
  process.env.HTTP_PROXY = proxy.url;
  await readPolicy({ ...base, GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.ACCESS_TOKEN });
  expect(proxy.seen).toEqual([
    `CONNECT 127.0.0.1:${port()}`,
    `→ GET /networksecurity/v1/${AP}:getIamPolicy?options.requestedPolicyVersion=3`,
  ]);

  const absolute = await new Promise<number>((resolve, reject) => {
    http
      .get(
        `${proxy.url}`,
        {
          path: `${emulator.url}/networksecurity/v1/${AP}:getIamPolicy`,
          headers: { authorization: `Bearer ${GoogleApiEmulator.ACCESS_TOKEN}` },
        },
        (res) => resolve(res.resume().statusCode ?? 0),
      )
      .on('error', reject);
  });
  expect(absolute).toBe(200);
  expect(proxy.seen.at(-1)).toBe(`GET ${emulator.url}/networksecurity/v1/${AP}:getIamPolicy`);
});

test('NO_PROXY bypasses the proxy for the hosts it names', async () => {
  process.env.HTTPS_PROXY = proxy.url;
  process.env.NO_PROXY = 'localhost,127.0.0.1';
  const file = writeJson(
    dir,
    'bypass.json',
    externalAccount(emulator, dir, { source: 'github', impersonate: 'ci@prod.iam.gserviceaccount.com' }),
  );
  expect(await readPolicy({ ...base, GOOGLE_APPLICATION_CREDENTIALS: file })).toEqual({ etag: 'ACAB' });
  expect(proxy.seen).toEqual([]);
  expect(emulator.auth.authCalls()).toHaveLength(3);
});

describe('requests to URLs google-auth-library hard-codes, seen at the proxy', () => {
  beforeEach(() => {
    process.env.HTTPS_PROXY = proxy.url;
  });

  test('a service account key and an authorized user ask oauth2.googleapis.com for their token', async () => {
    const key = await failure(
      readPolicy({ ...base, GOOGLE_CREDENTIALS: JSON.stringify(serviceAccountKey(emulator, 'sa@p.iam.gserviceaccount.com')) }),
    );
    expect(key).toBeInstanceOf(CredentialsError);
    expect(key.apiMessage).toMatch(/^could not get an access token with GOOGLE_CREDENTIALS \(JSON content\)/);
    expect(proxy.seen).toEqual(['CONNECT oauth2.googleapis.com:443']);

    proxy.seen.length = 0;
    const user = await failure(
      readPolicy({ ...base, GOOGLE_APPLICATION_CREDENTIALS: writeJson(dir, 'user.json', authorizedUser(emulator, 'bob@example.com')) }),
    );
    expect(user).toBeInstanceOf(CredentialsError);
    expect(proxy.seen).toEqual(['CONNECT oauth2.googleapis.com:443']);
  });

  test('impersonation and the API go to Google’s endpoints without overrides', async () => {
    const noIamOverride = { ...base, CLOUDSDK_API_ENDPOINT_OVERRIDES_IAMCREDENTIALS: '' };
    const impersonation = await failure(
      readPolicy({
        ...noIamOverride,
        GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.ACCESS_TOKEN,
        GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: 'x@p.iam.gserviceaccount.com',
      }),
    );
    expect(impersonation).toBeInstanceOf(CredentialsError);
    expect(proxy.seen).toEqual(['CONNECT iamcredentials.googleapis.com:443']);

    proxy.seen.length = 0;
    await failure(readPolicy({ GOOGLE_OAUTH_ACCESS_TOKEN: GoogleApiEmulator.ACCESS_TOKEN }));
    expect(proxy.seen).toEqual(['CONNECT networksecurity.googleapis.com:443']);
  });
});

const failure = (promise: Promise<unknown>) => rejectionOf(promise, GoogleApiError);
