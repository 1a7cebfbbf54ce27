/**
 * ImportResourceState with the Terraform google provider's ID formats, the
 * data sources and the Direct-form lookup mode, in process against the
 * emulator over HTTP: none of them writes.
 */
import { spawn } from 'child_process';
import { providerBundle } from '../../../lib/install';
import { parseLookupAnswer, serializeLookupAnswer } from '../../../lib/contract/lookup-answer';
import { serializeReadQuery, locatedPolicyQuery, importJobQuery } from '../../../lib/contract/read-query';
import { runLookup } from '../../../lib/provider/lookup-mode';
import { importVersion } from '../../../lib/provider/resources/iam-type-descriptor';
import { GoogleApiEmulator } from '../../../lib/testing';
import { FULL_JOB_NAME, FULL_JOB_WIRE } from '../../support/import-job-sample';
import { fullValue, ProviderHarness, withDiagnostics } from '../../support/provider-harness';

const ROLE = 'roles/networksecurity.viewer';
const CONDITION = { expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', title: 'until 2030 only' };
const NAME = 'projects/p-123456/locations/global/authorizationPolicies/imported';
const POLICY = {
  bindings: [
    { role: ROLE, members: ['user:alice@example.com'] },
    { role: ROLE, members: ['user:bob@example.com'], condition: CONDITION },
  ],
};

let emulator: GoogleApiEmulator;
let harness: ProviderHarness;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(NAME, POLICY);
  emulator.addImportJob(FULL_JOB_WIRE);
  harness = await ProviderHarness.configure(emulator.env(), { project: 'p-123456' });
});
afterAll(() => emulator.close());

const importState = (typeName: string, id: string) => withDiagnostics((d) => harness.resource(typeName).importState(harness.call, id, d));

describe('import', () => {
  test('member: "<name> <role> <member>", and a conditional one by its title (spaces and all)', async () => {
    const plain = await importState('googleiam_authorization_policy_iam_member', `${NAME} ${ROLE} user:alice@example.com`);
    expect(plain.value).toEqual([
      expect.objectContaining({
        name: NAME,
        role: ROLE,
        member: 'user:alice@example.com',
        condition: null,
        id: `${NAME}/${ROLE}/user:alice@example.com`,
      }),
    ]);
    const conditional = await importState(
      'googleiam_authorization_policy_iam_member',
      `${NAME} ${ROLE} user:bob@example.com until 2030 only`,
    );
    expect(conditional.value[0]).toMatchObject({ condition: { ...CONDITION, description: null } });
    expect(conditional.value[0].id).toBe(`${NAME}/${ROLE}/user:bob@example.com/until 2030 only//${CONDITION.expression}`);
    const missing = await importState('googleiam_authorization_policy_iam_member', `${NAME} ${ROLE} user:carol@example.com`);
    expect(missing.value).toEqual([]);
    expect(missing.diagnostics.all[0].detail).toContain('user:carol@example.com does not hold');
  });

  test('an ID that names nothing: the summary names the type and the ID, the detail what the policy holds that it may mean', async () => {
    const typo = 'roles/networksecurity.viwer';
    const member = await importState('googleiam_authorization_policy_iam_member', `${NAME} ${typo} user:alice@example.com`);
    expect(member.diagnostics.all).toEqual([
      expect.objectContaining({
        summary: `Cannot import googleiam_authorization_policy_iam_member "${NAME} ${typo} user:alice@example.com"`,
        detail: `user:alice@example.com does not hold ${typo}; it holds ${ROLE}`,
      }),
    ]);
    const untitled = await importState('googleiam_authorization_policy_iam_member', `${NAME} ${ROLE} user:bob@example.com`);
    expect(untitled.diagnostics.all[0].detail).toBe(
      `user:bob@example.com does not hold ${ROLE}; it holds ${ROLE} under the condition titled "until 2030 only"`,
    );
    // Nothing close: no hint (the other roles a principal holds are no business of this import).
    const far = await importState('googleiam_authorization_policy_iam_member', `${NAME} roles/owner user:alice@example.com`);
    expect(far.diagnostics.all[0].detail).toBe('user:alice@example.com does not hold roles/owner');
    const binding = await importState('googleiam_authorization_policy_iam_binding', `${NAME} ${typo}`);
    expect(binding.diagnostics.all[0]).toMatchObject({
      summary: `Cannot import googleiam_authorization_policy_iam_binding "${NAME} ${typo}"`,
      detail: `no binding of ${typo} without a condition; the policy has ${ROLE}`,
    });
    const titled = await importState('googleiam_authorization_policy_iam_binding', `${NAME} ${ROLE} until 2031`);
    expect(titled.diagnostics.all[0].detail).toBe(
      `no binding of ${ROLE} under a condition titled "until 2031"; the policy has ${ROLE} under the condition titled "until 2030 only" and ${ROLE} without a condition`,
    );
  });

  test('binding: "<name> <role>[ <title>]"; policy: "<name>"; a wrong format says which one is expected', async () => {
    const binding = await importState('googleiam_authorization_policy_iam_binding', `${NAME} ${ROLE} until 2030 only`);
    expect(binding.value[0]).toMatchObject({ role: ROLE, members: ['user:bob@example.com'], condition: { title: CONDITION.title } });
    const policy = await importState('googleiam_authorization_policy_iam_policy', NAME);
    expect(policy.value[0]).toMatchObject({ name: NAME, id: NAME, audit_configs: null });
    expect((policy.value[0].bindings as unknown[]).length).toBe(2);
    const wrong = await importState('googleiam_authorization_policy_iam_member', `${NAME} ${ROLE}`);
    expect(wrong.diagnostics.all[0].detail).toContain('"<resource> <role> <member>[ <condition title>]"');
    const otherType = await importState('googleiam_address_group_iam_policy', NAME);
    expect(otherType.diagnostics.all[0].detail).toContain('addressGroups');
  });

  test("generic: Google's full resource name, the API version from the table", async () => {
    const generic = await importState('googleiam_iam_member', `//networksecurity.googleapis.com/${NAME} ${ROLE} user:alice@example.com`);
    expect(generic.value[0]).toMatchObject({ service: 'networksecurity', api_version: 'v1', name: NAME, member: 'user:alice@example.com' });
    expect(importVersion('networksecurity', 'projects/p/locations/l/addressGroups/x')).toBe('v1');
    const bare = await importState('googleiam_iam_policy', NAME);
    expect(bare.diagnostics.all[0].detail).toContain('//{service}.googleapis.com/{name}');
  });

  test('an import reads once and writes nothing', () => {
    expect(emulator.writes()).toEqual([]);
  });
});

describe('data sources and the lookup mode', () => {
  test("the typed IAM policy data source: version 3, the provider's project, the policy as Google returned it", async () => {
    const source = harness.dataSource('googleiam_authorization_policy_iam_policy');
    const { value, diagnostics } = await withDiagnostics((d) =>
      source.read(harness.call, fullValue(source, { authorization_policy_id: 'imported', location: 'global' }), d),
    );
    expect(diagnostics.all).toEqual([]);
    expect(value).toMatchObject({ id: NAME, project: 'p-123456', version: emulator.policy(NAME).version });
    expect(value!.bindings).toEqual([
      { role: ROLE, members: ['user:alice@example.com'], condition: null },
      { role: ROLE, members: ['user:bob@example.com'], condition: { ...CONDITION, description: null, location: null } },
    ]);
    expect(JSON.parse(value!.policy_data as string)).toMatchObject({ bindings: POLICY.bindings });
  });

  test('the generic data source, and a refused argument on its attribute', async () => {
    const source = harness.dataSource('googleiam_iam_policy');
    const config = fullValue(source, { service: 'networksecurity', api_version: 'v1', name: NAME, options_requested_policy_version: 1 });
    const { value } = await withDiagnostics((d) => source.read(harness.call, config, d));
    expect(value).toMatchObject({ id: NAME, version: 1 });
    const diagnostics = (await withDiagnostics((d) => source.validate!({ ...config, options_requested_policy_version: 2 }, d))).diagnostics;
    expect(diagnostics.all[0].attribute).toEqual(['options_requested_policy_version']);
  });

  test('the import job data source', async () => {
    const source = harness.dataSource('googleiam_import_job');
    const { value } = await withDiagnostics((d) =>
      source.read(harness.call, fullValue(source, { import_job_id: 'everything', location: 'us-central1', project: 'demo-project' }), d),
    );
    expect(value).toMatchObject({
      id: FULL_JOB_NAME,
      display_name: 'Everything',
      state: FULL_JOB_WIRE.state,
      labels: new Map([['team', 'migration']]),
    });
    expect(JSON.parse(value!.execution_report_json as string)).toMatchObject({ totalRowsCount: 9 });
  });

  test('the lookup mode answers the read query (value and project, or the error)', async () => {
    const env = { ...emulator.env(), GOOGLE_CLOUD_PROJECT: 'p-123456' };
    const policyQuery = serializeReadQuery(
      locatedPolicyQuery(
        { service: 'networksecurity', apiVersion: 'v1', nameFormat: { collection: 'authorizationPolicies', label: 'x' } },
        { location: 'global', id: 'imported' },
        '3',
      ),
    );
    const answer = parseLookupAnswer(serializeLookupAnswer(await runLookup(JSON.stringify(policyQuery), env)));
    expect(answer).toMatchObject({
      project: 'p-123456',
      value: { etag: emulator.policy(NAME).etag, bindings: [{ role: ROLE }, { condition: { title: CONDITION.title } }] },
    });
    const missing = serializeReadQuery(importJobQuery({ location: 'us-central1', importJobId: 'nothing' }, undefined));
    expect(await runLookup(JSON.stringify(missing), env)).toMatchObject({ error: { kind: 'google', status: 'NOT_FOUND' } });
  });

  test('the bundle in lookup mode: the query on stdin, the answer on stdout', async () => {
    const query = serializeReadQuery(
      importJobQuery({ project: 'demo-project', location: 'us-central1', importJobId: 'everything' }, undefined),
    );
    const child = spawn(process.execPath, [providerBundle(), 'lookup'], {
      env: { ...process.env, ...emulator.env() },
      stdio: 'pipe',
    });
    child.stdin.end(JSON.stringify(query));
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(parseLookupAnswer(stdout)).toMatchObject({ project: 'demo-project', value: { name: FULL_JOB_NAME, displayName: 'Everything' } });
  });
});
