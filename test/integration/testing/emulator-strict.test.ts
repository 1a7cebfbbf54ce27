/**
 * The emulator is as strict as Google, from the table generated from Google's
 * Discovery documents: the verb each collection's getIamPolicy takes (any
 * other is the front end's 404 page), only the JSON fields the schema has
 * (`updateMask` is a 400 where SetIamPolicyRequest lacks it), and a policy
 * version in the other place ignored, as Google ignores it; a condition that
 * does not compile or fails an ERROR-level check of Google's IAM policy linter
 * is a 400.
 */
import { GoogleApiEmulator } from '../../../lib/testing';

/** A role Google takes on every collection this file writes (it holds each one's getIamPolicy). */
const REVIEWER = 'roles/iam.securityReviewer';
const CONDITIONAL = {
  version: 3,
  bindings: [{ role: REVIEWER, members: ['user:a@example.com'], condition: { title: 't', expression: 'true' } }],
};
const SECRET = 'projects/p/secrets/s';
const TOPIC = 'projects/p/topics/t';
const SPANNER = 'projects/p/instances/i';
const MODEL = 'projects/p/locations/us-central1/models/m';
const ENTRY = 'projects/p/locations/l/entryGroups/g/entries/e';
const WIDGET = 'projects/p/widgets/w';
const BUCKET = 'b/logs';
const INSTANCE = 'projects/p/zones/us-central1-a/instances/vm';
const TABLE = 'projects/p/datasets/d/tables/t';
const ZONE = 'projects/p/managedZones/z';
const DEPLOYMENT = 'projects/p/global/deployments/d';

let emulator: GoogleApiEmulator;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start({
    collections: [{ service: 'widgets', apiVersion: 'v1', template: 'projects/*/widgets/*', updateMask: false }],
  });
  for (const name of [SECRET, TOPIC, SPANNER, MODEL, ENTRY, WIDGET, BUCKET, INSTANCE, TABLE, ZONE, DEPLOYMENT])
    emulator.addResource(name, CONDITIONAL);
});
afterAll(() => emulator.close());

async function call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) {
  const response = await fetch(`${emulator.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${GoogleApiEmulator.ACCESS_TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

test.each([
  ['GET', `/secretmanager/v1/${SECRET}:getIamPolicy`, 'POST'],
  ['POST', `/spanner/v1/${SPANNER}:getIamPolicy`, 'GET'],
  ['POST', `/aiplatform/v1/${MODEL}:getIamPolicy`, 'GET'],
] as const)("getIamPolicy answers %s at %s; %s is the front end's 404 page", async (verb, path, wrong) => {
  expect((await call(verb, path, verb === 'POST' ? {} : undefined)).status).toBe(200);
  const refused = await call(wrong, path, wrong === 'POST' ? {} : undefined);
  expect(refused).toMatchObject({ status: 404, type: 'text/html; charset=UTF-8' });
  expect(refused.text).toContain(`The requested URL <code>${path}</code> was not found on this server.`);
});

// The five APIs that serve IAM at paths of their own, as their Discovery documents give them.
test.each([
  ['GET', `/storage/storage/v1/${BUCKET}/iam?optionsRequestedPolicyVersion=3`, ['POST']],
  ['GET', `/compute/compute/v1/${INSTANCE}/getIamPolicy?optionsRequestedPolicyVersion=3`, ['POST']],
  ['POST', `/bigquery/bigquery/v2/${TABLE}:getIamPolicy`, ['GET']],
  ['POST', `/dns/dns/v1/${ZONE}:getIamPolicy`, ['GET']],
  ['GET', `/deploymentmanager/deploymentmanager/v2/${DEPLOYMENT}/getIamPolicy?optionsRequestedPolicyVersion=3`, ['POST']],
] as const)('getIamPolicy answers %s at %s, a conditional binding intact; the other verb is a 404', async (verb, path, wrong) => {
  const body = verb === 'POST' ? { options: { requestedPolicyVersion: 3 } } : undefined;
  const read = await call(verb, path, body);
  expect({ status: read.status, bindings: JSON.parse(read.text).bindings }).toEqual({ status: 200, bindings: CONDITIONAL.bindings });
  for (const other of wrong) expect((await call(other, path, other === 'POST' ? {} : undefined)).status).toBe(404);
  // Without env()'s prefix, the path as on Google: the same method.
  expect((await call(verb, path.replace(/^\/(\w+)\/\1\//, '/$1/'), body)).status).toBe(200);
});

test("the usual paths are a 404 on those APIs: Google's front end has no {version}/{name}:getIamPolicy for them", async () => {
  expect((await call('GET', `/storage/v1/${BUCKET}:getIamPolicy?options.requestedPolicyVersion=3`)).status).toBe(404);
  expect((await call('GET', `/compute/v1/${INSTANCE}:getIamPolicy?options.requestedPolicyVersion=3`)).status).toBe(404);
  expect((await call('POST', `/bigquery/bigquery/v2/${TABLE}/getIamPolicy`, {})).status).toBe(404);
});

test('Cloud Storage: PUT b/{bucket}/iam takes the Policy as the body (its kind and resourceId too); a field its Policy lacks is a 400', async () => {
  const read = JSON.parse((await call('GET', `/storage/storage/v1/${BUCKET}/iam?optionsRequestedPolicyVersion=3`)).text);
  expect(read).toMatchObject({ kind: 'storage#policy', resourceId: 'projects/_/buckets/logs', version: 3 });
  const before = emulator.writes().length;
  expect((await call('POST', `/storage/storage/v1/${BUCKET}/iam`, read)).status).toBe(404);
  const refused = await call('PUT', `/storage/storage/v1/${BUCKET}/iam`, { ...read, auditConfigs: [] });
  expect({ status: refused.status, message: JSON.parse(refused.text).error.message }).toEqual({
    status: 400,
    message: `Invalid JSON payload received. Unknown name "auditConfigs" at 'policy': Cannot find field.`,
  });
  expect((await call('PUT', `/storage/storage/v1/${BUCKET}/iam`, { policy: read })).status).toBe(400);
  expect(emulator.writes()).toHaveLength(before);
  const written = await call('PUT', `/storage/storage/v1/${BUCKET}/iam`, read);
  expect(written.status).toBe(200);
  expect(emulator.writes().at(-1)).toMatchObject({ resource: BUCKET, policy: { bindings: CONDITIONAL.bindings } });
  // Google's full resource name of the bucket names the same policy.
  expect(emulator.policy('projects/_/buckets/logs')).toEqual(emulator.policy(BUCKET));
});

test('Compute Engine: POST …/setIamPolicy takes { policy } without updateMask (ZoneSetPolicyRequest has none)', async () => {
  const path = `/compute/compute/v1/${INSTANCE}`;
  const read = JSON.parse((await call('GET', `${path}/getIamPolicy?optionsRequestedPolicyVersion=3`)).text);
  expect((await call('POST', `${path}/setIamPolicy`, { policy: read, updateMask: 'bindings' })).status).toBe(400);
  expect((await call('PUT', `${path}/setIamPolicy`, { policy: read })).status).toBe(404);
  expect((await call('POST', `${path}/setIamPolicy`, { policy: read })).status).toBe(200);
});

test('setIamPolicy is a 404 on a collection whose policy Google publishes as read-only, and on a name in no collection', async () => {
  const read = await call('POST', `/datacatalog/v1/${ENTRY}:getIamPolicy`, {});
  expect(read.status).toBe(200);
  expect((await call('POST', `/datacatalog/v1/${ENTRY}:setIamPolicy`, { policy: {} })).status).toBe(404);
  expect((await call('GET', `/secretmanager/v1/projects/p/topics/t:getIamPolicy`)).status).toBe(404);
});

test.each([
  ['Pub/Sub', `/pubsub/v1/${TOPIC}:setIamPolicy`],
  ['Spanner', `/spanner/v1/${SPANNER}:setIamPolicy`],
  ['Vertex AI', `/aiplatform/v1/${MODEL}:setIamPolicy`],
  ['a registered collection without it', `/widgets/v1/${WIDGET}:setIamPolicy`],
])("updateMask is a 400 where SetIamPolicyRequest has no such field (%s), in Google's error shape", async (_label, path) => {
  const before = emulator.writes().length;
  const answer = await call('POST', path, { policy: { ...CONDITIONAL, etag: 'x' }, updateMask: 'bindings,etag' });
  const message = 'Invalid JSON payload received. Unknown name "updateMask": Cannot find field.';
  expect({ status: answer.status, body: JSON.parse(answer.text) }).toEqual({
    status: 400,
    body: {
      error: {
        code: 400,
        message,
        status: 'INVALID_ARGUMENT',
        details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ description: message }] }],
      },
    },
  });
  expect(emulator.writes()).toHaveLength(before);
});

test('where the schema has updateMask it is accepted (Secret Manager), and an unknown nested field names where it is', async () => {
  const { etag } = emulator.policy(SECRET);
  const ok = await call('POST', `/secretmanager/v1/${SECRET}:setIamPolicy`, {
    policy: { ...CONDITIONAL, etag },
    updateMask: 'bindings,etag,auditConfigs',
  });
  expect(ok.status).toBe(200);
  const nested = await call('POST', `/secretmanager/v1/${SECRET}:setIamPolicy`, {
    policy: { bindings: [{ role: REVIEWER, colour: 1 }] },
  });
  expect(JSON.parse(nested.text).error.message).toBe(
    'Invalid JSON payload received. Unknown name "colour" at \'policy.bindings[0]\': Cannot find field.',
  );
});

test("auditConfigs is a 400 where the API's Policy has no such field (logging views), though its setIamPolicy has updateMask", async () => {
  const view = 'projects/p/locations/global/buckets/b/views/v';
  emulator.addResource(view);
  const answer = await call('POST', `/logging/v2/${view}:setIamPolicy`, {
    policy: { bindings: [], auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }] },
    updateMask: 'bindings,etag,auditConfigs',
  });
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.text).error.message).toBe(
    'Invalid JSON payload received. Unknown name "auditConfigs" at \'policy\': Cannot find field.',
  );
});

const roleOf = (text: string) => (JSON.parse(text) as { bindings: Array<{ role: string }> }).bindings[0].role;

test('a policy version in the other place is ignored, as Google ignores it: the read is then version 0 (conditions mangled)', async () => {
  // GET + query (Secret Manager): the version in the query counts.
  expect(roleOf((await call('GET', `/secretmanager/v1/${SECRET}:getIamPolicy?options.requestedPolicyVersion=3`)).text)).toBe(REVIEWER);
  // POST + body (Spanner): a version in the query is ignored.
  expect(roleOf((await call('POST', `/spanner/v1/${SPANNER}:getIamPolicy?options.requestedPolicyVersion=3`, {})).text)).toMatch(
    /_withcond_/,
  );
  expect(roleOf((await call('POST', `/spanner/v1/${SPANNER}:getIamPolicy`, { options: { requestedPolicyVersion: 3 } })).text)).toBe(
    REVIEWER,
  );
  // POST + query (Vertex AI): a version in the body is ignored.
  expect(roleOf((await call('POST', `/aiplatform/v1/${MODEL}:getIamPolicy`, { options: { requestedPolicyVersion: 3 } })).text)).toMatch(
    /_withcond_/,
  );
  expect(roleOf((await call('POST', `/aiplatform/v1/${MODEL}:getIamPolicy?options.requestedPolicyVersion=3`)).text)).toBe(REVIEWER);
});

test('a collection a test registers is served like a published one; until then it is not', async () => {
  expect((await call('GET', `/widgets/v1/${WIDGET}:getIamPolicy?options.requestedPolicyVersion=3`)).status).toBe(200);
  expect((await call('GET', `/gadgets/v1/projects/p/gadgets/g:getIamPolicy`)).status).toBe(404);
  emulator.registerCollection({ service: 'gadgets', apiVersion: 'v1', template: 'projects/*/gadgets/*', getIamPolicyMethod: 'POST_QUERY' });
  emulator.addResource('projects/p/gadgets/g');
  expect((await call('GET', `/gadgets/v1/projects/p/gadgets/g:getIamPolicy`)).status).toBe(404);
  expect((await call('POST', `/gadgets/v1/projects/p/gadgets/g:getIamPolicy`)).status).toBe(200);
});

describe("a condition is compiled and linted as Google's setIamPolicy does (ERROR-level linter checks are a 400)", () => {
  const LINTED = 'projects/p/secrets/linted';
  const ACCESSOR = 'roles/secretmanager.secretAccessor';
  const MODIFIED_GRANTS = "api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', [])";
  /** The first `count` of these roles, quoted as CEL strings. */
  const roles = (count: number) =>
    [
      'roles/secretmanager.admin',
      'roles/secretmanager.editor',
      'roles/secretmanager.secretAccessor',
      'roles/secretmanager.secretVersionAdder',
      'roles/secretmanager.secretVersionManager',
      'roles/secretmanager.viewer',
      'roles/iam.securityAdmin',
      'roles/iam.securityReviewer',
      'roles/owner',
      'roles/editor',
      'roles/viewer',
    ]
      .slice(0, count)
      .map((role) => `'${role}'`)
      .join(', ');
  /** `count` comparisons joined by `&&`: count - 1 logical operators. */
  const hours = (count: number) => Array.from({ length: count }, (_, i) => `request.time.getHours('UTC') != ${i}`).join(' && ');

  beforeAll(() => emulator.addResource(LINTED));

  const setCondition = (expression: string) =>
    call('POST', `/secretmanager/v1/${LINTED}:setIamPolicy`, {
      policy: { version: 3, bindings: [{ role: ACCESSOR, members: ['user:a@example.com'], condition: { title: 't', expression } }] },
    });

  test.each([
    [
      'that does not parse',
      'request.time <',
      /^Condition "t" of role roles\/secretmanager\.secretAccessor does not compile: ERROR: <input>:1:15: Syntax error: /,
    ],
    // The three of issue 52: an attribute Google does not declare, no CEL overload for the operands, a date that does not exist.
    [
      'naming an attribute Google does not declare',
      'request.tme < timestamp("2027-01-01T00:00:00Z")',
      /^Condition "t" of role roles\/secretmanager\.secretAccessor does not compile: ERROR: <input>:1:9: `request` has no attribute `tme`/,
    ],
    [
      'comparing a timestamp with a string',
      'request.time < "2027-01-01"',
      /does not compile: ERROR: <input>:1:16: `request\.time` is a timestamp: compare it with `timestamp\("2027-01-01T00:00:00Z"\)`/,
    ],
    [
      'with a date that does not exist',
      'request.time < timestamp("2027-13-01T00:00:00Z")',
      /does not compile: ERROR: <input>:1:26: `timestamp\("2027-13-01T00:00:00Z"\)` is not a valid timestamp: month 13 does not exist/,
    ],
    ['with 13 logical operators', hours(14), /ConditionComplexityCheck: the expression has 13 logical operators/],
    [
      'with hasOnly() of 11 values',
      `${MODIFIED_GRANTS}.hasOnly([${roles(11)}])`,
      /HasOnlyListLengthCheck at <input>:1:73: hasOnly\(\) lists 11 values/,
    ],
    [
      'whose modifiedGrantsByRole default is not []',
      "api.getAttribute('iam.googleapis.com/modifiedGrantsByRole', ['roles/secretmanager.viewer']).hasOnly(['roles/secretmanager.viewer'])",
      /DrgGetAttributeDefaultValueCheck at <input>:1:61: /,
    ],
  ])('a condition %s is a 400 INVALID_ARGUMENT and changes nothing', async (_label, expression, message) => {
    const before = emulator.writes(LINTED).length;
    const answer = await setCondition(expression);
    const { error } = JSON.parse(answer.text) as { error: { code: number; status: string; message: string } };
    expect([answer.status, error.code, error.status]).toEqual([400, 400, 'INVALID_ARGUMENT']);
    expect(error.message).toMatch(message);
    expect(emulator.writes(LINTED)).toHaveLength(before);
  });

  test('a condition at every limit (12 logical operators, hasOnly() of 10 values, a [] default) is accepted', async () => {
    const expression = `${MODIFIED_GRANTS}.hasOnly([${roles(10)}]) && ${hours(12)}`;
    const answer = await setCondition(expression);
    expect(answer.status).toBe(200);
    expect(emulator.policy(LINTED).bindings?.[0].condition?.expression).toBe(expression);
  });
});
