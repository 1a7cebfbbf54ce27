/**
 * The client never builds on an answer it cannot trust: a 2xx that is not a
 * JSON object, a policy of the wrong shape, an oversized body. A write
 * without an etag is refused. Error messages never carry a token. Endpoint
 * overrides must be https unless loopback. Any Google service works.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { GoogleRestClient } from '../../../lib/api/client';
import { GoogleApiError } from '../../../lib/api/errors';
import { IamPolicyApi, type IamPolicyService } from '../../../lib/api/iam-policy';
import { sanitize } from '../../../lib/api/redact';
import { serviceRootUrl } from '../../../lib/api/services';
import type { Policy } from '../../../lib/iam/types';
import { GoogleApiEmulator } from '../../../lib/testing';
import { rejectionOf } from '../../support/rejection';

const AP = 'projects/p/locations/global/authorizationPolicies/untrusted';
const SEEDED: Policy = {
  version: 1,
  bindings: [{ role: 'roles/networksecurity.viewer', members: ['user:a@example.com', 'user:b@example.com'] }],
};
const NETWORKSECURITY: IamPolicyService = { service: 'networksecurity', apiVersion: 'v1' };

let emulator: GoogleApiEmulator;
let api: (name: string) => IamPolicyApi;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  api = (name: string) => new IamPolicyApi(new GoogleRestClient({ env: emulator.env() }), { ...NETWORKSECURITY, name: name });
});
afterAll(() => emulator.close());
beforeEach(() => {
  emulator.setFaults(undefined);
  emulator.addResource(AP, SEEDED);
  emulator.clearWrites();
});

const failure = (promise: Promise<unknown>) => rejectionOf(promise, GoogleApiError);

/** The engine's cycle in small: read, add a member, write back with the etag read. */
async function addMember(member: string): Promise<Policy> {
  const policy = await api(AP).getIamPolicy();
  const [first, ...rest] = policy.bindings ?? [];
  return api(AP).setIamPolicy({ ...policy, bindings: [{ ...first, members: [...(first?.members ?? []), member] }, ...rest] });
}

/** A stand-in endpoint that answers every request with `answer` (to show what the emulator will not send). */
async function cannedEndpoint(
  answer: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<{ env: NodeJS.ProcessEnv; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => req.resume().on('end', () => answer(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    env: { CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: url, GOOGLE_OAUTH_ACCESS_TOKEN: 'ya29.canned-endpoint-token-0123456789' },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('finding 1: a 2xx answer must be a JSON object', () => {
  test.each([
    [
      'an HTML page (captive portal)',
      'html',
      /HTTP 200 with a body that is not JSON, not Google's JSON \(content type text\/html; charset=UTF-8, \d+ bytes\); it begins: "<!DOCTYPE html>/,
    ],
    ['an empty body', 'empty', /HTTP 200 with an empty body, not Google's JSON \(content type application\/json, 0 bytes\)\. /],
  ] as const)('%s on the read: a final UNKNOWN error, and nothing is written', async (_label, kind, message) => {
    emulator.setFaults({ rate: 1, kinds: [kind], methods: ['getIamPolicy'] });
    const error = await failure(addMember('user:c@example.com'));
    expect(error).toMatchObject({ status: 'UNKNOWN', httpStatus: 200, retryable: false, conflict: false });
    expect(error.apiMessage).toMatch(message);
    expect(emulator.writes()).toEqual([]);
    expect(emulator.stats().setIamPolicy).toBe(0);
    emulator.setFaults(undefined);
    expect(emulator.policy(AP)).toMatchObject({ bindings: SEEDED.bindings });
  });

  test.each(['html', 'empty'] as const)('%s on the write: the answer is not taken for a policy', async (kind) => {
    emulator.setFaults({ rate: 1, kinds: [kind], methods: ['setIamPolicy'] });
    expect(await failure(addMember('user:c@example.com'))).toMatchObject({ status: 'UNKNOWN', retryable: false });
    expect(emulator.writes()).toEqual([]);
  });

  test.each([
    ['a JSON string', '"ok"', 'JSON that is not an object (string)'],
    ['a JSON array', '[]', 'JSON that is not an object (an array)'],
    ['null', 'null', 'JSON that is not an object (null)'],
    ['whitespace', '  \n', 'an empty body'],
  ])('%s', async (_label, body, what) => {
    const endpoint = await cannedEndpoint((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body));
    try {
      const error = await failure(
        new IamPolicyApi(new GoogleRestClient({ env: endpoint.env }), { ...NETWORKSECURITY, name: AP }).getIamPolicy(),
      );
      expect(error).toMatchObject({ status: 'UNKNOWN', retryable: false });
      expect(error.apiMessage).toContain(what);
    } finally {
      await endpoint.close();
    }
  });

  test('a body over the size cap fails, declared or streamed', async () => {
    const big = JSON.stringify({ etag: 'ACAB', padding: 'x'.repeat(4096) });
    for (const declared of [true, false]) {
      const endpoint = await cannedEndpoint((_req, res) => {
        res.writeHead(
          200,
          declared
            ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(big) }
            : { 'Content-Type': 'application/json' },
        );
        res.end(big);
      });
      try {
        const error = await failure(
          new IamPolicyApi(new GoogleRestClient({ env: endpoint.env, maxResponseBytes: 1024 }), {
            ...NETWORKSECURITY,
            name: AP,
          }).getIamPolicy(),
        );
        expect(error).toMatchObject({ status: 'UNKNOWN', retryable: false });
        expect(error.apiMessage).toMatch(
          declared ? /answered with \d+ bytes, more than the 1024 bytes accepted/ : /answered with over 1024 bytes/,
        );
        expect(error.message).toContain(`[GET v1/${AP}:getIamPolicy]`);
      } finally {
        await endpoint.close();
      }
    }
  });
});

describe('finding 2: getIamPolicy checks the shape, setIamPolicy needs an etag', () => {
  test.each([
    ['no etag', { bindings: [] }, 'etag is missing, not a non-empty string'],
    ['an empty etag', { etag: '' }, 'etag is an empty string'],
    ['a numeric etag', { etag: 7 }, 'etag is a number'],
    ['a string version', { etag: 'e', version: '3' }, 'version is a string, not an integer'],
    ['bindings not an array', { etag: 'e', bindings: { role: 'roles/networksecurity.viewer' } }, 'bindings is a object, not an array'],
    ['a binding that is a string', { etag: 'e', bindings: ['roles/networksecurity.viewer'] }, 'bindings[0] is a string, not an object'],
    ['a binding without a role', { etag: 'e', bindings: [{ members: ['user:a@example.com'] }] }, 'bindings[0].role is missing'],
    [
      'members that is a string',
      { etag: 'e', bindings: [{ role: 'roles/networksecurity.viewer', members: 'user:a@example.com' }] },
      'bindings[0].members is a string, not an array of strings',
    ],
    [
      'a member that is a number',
      { etag: 'e', bindings: [{ role: 'roles/networksecurity.viewer', members: ['user:a@example.com', 1] }] },
      'bindings[0].members[1] is a number',
    ],
    [
      'a condition that is a string',
      { etag: 'e', bindings: [{ role: 'roles/networksecurity.viewer', members: [], condition: 'true' }] },
      'bindings[0].condition is a string, not an object',
    ],
    [
      'a condition without an expression',
      { etag: 'e', bindings: [{ role: 'roles/networksecurity.viewer', condition: { title: 't' } }] },
      'bindings[0].condition.expression is missing',
    ],
    [
      'a numeric condition title',
      { etag: 'e', bindings: [{ role: 'roles/networksecurity.viewer', condition: { expression: 'true', title: 1 } }] },
      'bindings[0].condition.title is a number',
    ],
    ['auditConfigs not an array', { etag: 'e', auditConfigs: 'all' }, 'auditConfigs is a string, not an array'],
    ['an audit config without a service', { etag: 'e', auditConfigs: [{}] }, 'auditConfigs[0].service is missing'],
    [
      'exempted members not strings',
      { etag: 'e', auditConfigs: [{ service: 's', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: [null] }] }] },
      'auditConfigs[0].auditLogConfigs[0].exemptedMembers[0] is null',
    ],
  ])('%s is refused', async (_label, policy, problem) => {
    const endpoint = await cannedEndpoint((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(policy)),
    );
    try {
      const error = await failure(
        new IamPolicyApi(new GoogleRestClient({ env: endpoint.env }), { ...NETWORKSECURITY, name: AP }).getIamPolicy(),
      );
      expect(error).toMatchObject({ status: 'UNKNOWN', httpStatus: 200, retryable: false });
      expect(error.apiMessage).toContain(`the answer is not a google.iam.v1.Policy (${problem}`);
    } finally {
      await endpoint.close();
    }
  });

  test('fields the library does not know are kept on read (and never written)', async () => {
    const policy = {
      etag: 'e',
      version: 3,
      bindings: [{ role: 'roles/networksecurity.viewer', members: ['user:a@example.com'], condition: { expression: 'true', extra: 1 } }],
      newField: { any: 'thing' },
    };
    const endpoint = await cannedEndpoint((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(policy)),
    );
    try {
      expect(await new IamPolicyApi(new GoogleRestClient({ env: endpoint.env }), { ...NETWORKSECURITY, name: AP }).getIamPolicy()).toEqual(
        policy,
      );
    } finally {
      await endpoint.close();
    }
  });

  test('a write without an etag is refused before any request', async () => {
    emulator.resetStats();
    for (const policy of [{ bindings: [] }, { etag: '', bindings: [] }]) {
      const error = await failure(api(AP).setIamPolicy(policy));
      expect(error).toMatchObject({ status: 'FAILED_PRECONDITION', retryable: false, conflict: false });
      expect(error.apiMessage).toMatch(/^refusing to write the IAM policy of .* without an etag/);
    }
    expect(emulator.stats().requests).toBe(0);
    expect(emulator.writes()).toEqual([]);
  });
});

describe('finding 3: no token, Authorization header or control character in an error', () => {
  const TOKEN = 'ya29.canned-endpoint-token-0123456789';

  test('an endpoint that echoes the request headers', async () => {
    const endpoint = await cannedEndpoint((req, res) => {
      const echo = `\u001b[31mDenied\u001b[0m\r\nrequest headers:\r\n${Object.entries(req.headers)
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join('\r\n')}`;
      res.writeHead(401, { 'Content-Type': 'text/plain' }).end(echo + ' pad'.repeat(2000));
    });
    try {
      const error = await failure(
        new IamPolicyApi(new GoogleRestClient({ env: endpoint.env }), { ...NETWORKSECURITY, name: AP }).getIamPolicy(),
      );
      expect(error).toMatchObject({ status: 'UNAUTHENTICATED', httpStatus: 401 });
      expect(error.message).not.toContain(TOKEN);
      expect(error.message).not.toContain('canned-endpoint-token');
      expect(error.message).toContain('authorization: [REDACTED]');
      expect(error.message).not.toMatch(/[\u0000-\u001f\u007f]/);
      expect(error.apiMessage.length).toBeLessThan(1_100);
    } finally {
      await endpoint.close();
    }
  });

  test('Google-shaped errors that quote the token, bare or as a Bearer value', async () => {
    const endpoint = await cannedEndpoint((_req, res) =>
      res.writeHead(403, { 'Content-Type': 'application/json' }).end(
        JSON.stringify({
          error: {
            code: 403,
            status: 'PERMISSION_DENIED\nFORGED',
            message: `token ${TOKEN} (Bearer abc.def) and ya29.other-token is not allowed`,
          },
        }),
      ),
    );
    try {
      const error = await failure(
        new IamPolicyApi(new GoogleRestClient({ env: endpoint.env }), { ...NETWORKSECURITY, name: AP }).getIamPolicy(),
      );
      expect(error.status).toBe('PERMISSION_DENIED');
      expect(error.apiMessage).toBe('token [REDACTED] (Bearer [REDACTED]) and [REDACTED] is not allowed');
    } finally {
      await endpoint.close();
    }
  });

  test('sanitize: keys, authorization values, bidi controls, and the cap', () => {
    expect(sanitize('-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY----- end')).toBe('[REDACTED PRIVATE KEY] end');
    expect(sanitize('{"Authorization":"Basic dXNlcjpwYXNz","x":1}')).toBe('{"Authorization":"[REDACTED]","x":1}');
    expect(sanitize('safe\u202Eevil')).toBe('safe evil');
    expect(sanitize('s3cr3t-value-here is here', ['s3cr3t-value-here'])).toBe('[REDACTED] is here');
    expect(sanitize('a'.repeat(1_500))).toBe(`${'a'.repeat(1_000)}… (500 more characters)`);
  });
});

describe('finding 4: endpoint overrides', () => {
  test.each([
    ['http://127.0.0.1:9/', 'http://127.0.0.1:9/'],
    ['http://127.3.2.1:9', 'http://127.3.2.1:9/'],
    ['http://localhost:8080/base', 'http://localhost:8080/base/'],
    ['http://[::1]:8080/', 'http://[::1]:8080/'],
    ['https://networksecurity.example.com/', 'https://networksecurity.example.com/'],
  ])('%s is allowed', (value, root) => {
    expect(serviceRootUrl('networksecurity', { CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: value })).toBe(root);
  });

  test.each([
    [
      'http://10.0.0.5:8080/',
      /CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: plain http:\/\/ is only allowed to a loopback host \(127\.0\.0\.0\/8, ::1, localhost\).*use https:\/\/ \(got "http:\/\/10\.0\.0\.5:8080\/"\)/,
    ],
    ['http://localhost.example.com/', /plain http:\/\/ is only allowed to a loopback host/],
    ['http://127.0.0.1.nip.io/', /plain http:\/\/ is only allowed to a loopback host/],
    ['ftp://127.0.0.1/', /expected an https:\/\/ URL/],
    ['networksecurity.googleapis.com', /CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: not a URL/],
    ['https://user:secret@example.com/', /takes no user name, password, query or fragment \(got "https:\/\/example\.com\/"…\)/],
  ])('%s is refused, naming the variable', (value, message) => {
    expect(() => serviceRootUrl('networksecurity', { CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: value })).toThrow(message);
  });

  test('a refused override fails the call before any request; the IAM Credentials one too', async () => {
    const env = { ...emulator.env(), CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: 'http://192.0.2.1/' };
    await expect(new IamPolicyApi(new GoogleRestClient({ env }), { ...NETWORKSECURITY, name: AP }).getIamPolicy()).rejects.toThrow(
      /CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY: plain http/,
    );
    const impersonating = {
      ...emulator.env(),
      GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: 'x@p.iam.gserviceaccount.com',
      CLOUDSDK_API_ENDPOINT_OVERRIDES_IAMCREDENTIALS: 'http://192.0.2.1/',
    };
    await expect(
      new IamPolicyApi(new GoogleRestClient({ env: impersonating }), { ...NETWORKSECURITY, name: AP }).getIamPolicy(),
    ).rejects.toThrow(/CLOUDSDK_API_ENDPOINT_OVERRIDES_IAMCREDENTIALS: plain http/);
  });
});

describe('finding 5: any Google service', () => {
  const SECRET = 'projects/p/secrets/db-password';
  const PROJECT = 'projects/p';

  test('a GET getIamPolicy service (Secret Manager), read-modify-write', async () => {
    const env = emulator.env(GoogleApiEmulator.ACCESS_TOKEN, ['secretmanager']);
    const secrets = (name: string) =>
      new IamPolicyApi(new GoogleRestClient({ env }), { service: 'secretmanager', apiVersion: 'v1', name: name });
    emulator.addResource(SECRET);
    const read = await secrets(SECRET).getIamPolicy();
    await secrets(SECRET).setIamPolicy({
      ...read,
      bindings: [{ role: 'roles/secretmanager.secretAccessor', members: ['serviceAccount:app@p.iam.gserviceaccount.com'] }],
    });
    expect(emulator.writes(SECRET)).toHaveLength(1);
  });

  test('a POST getIamPolicy service (Resource Manager v3): the version travels in the body, as Google publishes; a GET is a 404 there', async () => {
    const env = emulator.env(GoogleApiEmulator.ACCESS_TOKEN, ['cloudresourcemanager']);
    emulator.addResource(PROJECT, {
      version: 3,
      bindings: [
        { role: 'roles/viewer', members: ['user:a@example.com'] },
        { role: 'roles/browser', members: ['user:b@example.com'], condition: { title: 't', expression: 'true' } },
      ],
    });
    const post = (name: string) =>
      new IamPolicyApi(new GoogleRestClient({ env }), {
        service: 'cloudresourcemanager',
        apiVersion: 'v3',
        getIamPolicyMethod: 'POST',
        name: name,
      });
    expect((await post(PROJECT).getIamPolicy()).bindings?.[1].condition).toEqual({ title: 't', expression: 'true' });
    expect((await post(PROJECT).getIamPolicy(1)).bindings?.[1].role).toMatch(/_withcond_/);
    const published = (name: string) =>
      new IamPolicyApi(new GoogleRestClient({ env }), { service: 'cloudresourcemanager', apiVersion: 'v3', name: name });
    expect((await published(PROJECT).getIamPolicy()).bindings?.[1].condition).toEqual({ title: 't', expression: 'true' });
    const get = (name: string) =>
      new IamPolicyApi(new GoogleRestClient({ env }), {
        service: 'cloudresourcemanager',
        apiVersion: 'v3',
        getIamPolicyMethod: 'GET',
        name: name,
      });
    expect(await failure(get(PROJECT).getIamPolicy())).toMatchObject({ status: 'NOT_FOUND', httpStatus: 404 });
  });

  test.each(['v1', 'v1beta1', 'v2alpha', 'v1alpha1', 'v1p1beta1', 'v3'])('API version %s is accepted', (apiVersion) => {
    expect(() => new IamPolicyApi(new GoogleRestClient(), { service: 'secretmanager', apiVersion, name: SECRET })).not.toThrow();
  });

  test.each([
    [{ service: 'Secret-Manager', apiVersion: 'v1' }, /service: expected a Google API name of lowercase letters and digits/],
    [{ service: 'secretmanager.googleapis.com', apiVersion: 'v1' }, /service: expected/],
    [{ service: 'secretmanager', apiVersion: '1' }, /apiVersion: expected a Google API version/],
    [{ service: 'secretmanager', apiVersion: 'v1/../v2' }, /apiVersion: expected/],
    [{ service: 'secretmanager', apiVersion: 'v1', getIamPolicyMethod: 'PUT' }, /getIamPolicyMethod: expected GET, POST, POST_QUERY/],
  ])('%j is refused', (target, message) => {
    expect(() => new IamPolicyApi(new GoogleRestClient(), { ...(target as IamPolicyService), name: SECRET })).toThrow(message);
  });

  test.each([
    '',
    '/projects/p',
    'projects/p/',
    'projects//p',
    'projects/p/../q',
    'projects/./p',
    'projects/p?x=1',
    'projects/p#f',
    'projects/p%2F..',
    'projects/p q',
  ])('resource name %j is refused before any request', async (resource) => {
    await expect(api(resource).getIamPolicy()).rejects.toThrow(/^resource: .*expected the resource.s full name/);
  });
});
