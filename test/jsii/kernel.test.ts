/**
 * The packed library driven through `@jsii/runtime`, speaking the kernel's
 * JSON-lines protocol exactly as the Python, Java, Go and .NET runtimes do
 * (their generated code is a thin layer over these calls): `load` of the
 * `constructs` and framework tarballs and ours; `create` with structs passed by
 * value, enums, optional fields left out and a Terraform token; `invoke` and
 * `sinvoke`; `get` of every Output-form attribute, handed to a
 * `TerraformOutput` and applied by the real `terraform`; every Direct-form
 * lookup with a plain `invoke` (Go has no other way to call a method); and the
 * errors as the host languages see them. For both flavours: cdktf and CDK Terrain.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GoogleApiEmulator } from '../../lib/testing';
import { emptyCliConfig, runCommand } from '../support/terraform';
import { AssemblyReader } from './support/assembly-reader';
import { JsiiKernel, enumValue, kernelError, struct, type ObjRef } from './support/jsii-kernel';
import { jsiiRuntimeEntry, packFlavour } from './support/packages';
import { writeThisPlatformPackage } from '../support/platform-package';

jest.setTimeout(240_000);

const ROOT = path.join(__dirname, '..', '..');
const PROJECT = 'kernel-project';
const AG = `projects/${PROJECT}/locations/global/addressGroups/office`;
const AP = `projects/${PROJECT}/locations/global/authorizationPolicies/api`;
const MJ = `projects/${PROJECT}/locations/us-central1/migrationJobs/orders`;
const SECRET = `projects/${PROJECT}/secrets/db-password`;
const JOB = `projects/${PROJECT}/locations/us-central1/importJobs/inventory`;
const CONDITION = { title: 'office-hours', expression: 'request.time.getHours("Europe/Berlin") >= 8' };
const AUDIT = [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:quiet@example.com'] }] }];

const FLAVOURS = [
  { flavour: 'cdktf' as const, packageDir: ROOT },
  { flavour: 'cdktn' as const, packageDir: path.join(ROOT, 'dist-cdktn') },
];

let emulator: GoogleApiEmulator;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(AG, {
    version: 3,
    bindings: [
      { role: 'roles/compute.networkUser', members: ['group:net@example.com'], condition: CONDITION },
      { role: 'roles/compute.networkViewer', members: ['user:a@example.com'] },
    ],
  });
  emulator.addResource(AP, {
    bindings: [{ role: 'roles/networksecurity.viewer', members: ['user:b@example.com'] }],
    auditConfigs: AUDIT,
  });
  emulator.addResource(MJ, { bindings: [{ role: 'roles/datamigration.editor', members: ['group:dba@example.com'] }] });
  emulator.addResource(SECRET, { bindings: [{ role: 'roles/secretmanager.secretAccessor', members: ['user:c@example.com'] }] });
  emulator.addImportJob({
    name: JOB,
    displayName: 'Inventory',
    state: 'IMPORT_JOB_STATE_COMPLETED',
    labels: { team: 'migration' },
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://inventory/rvtools.csv' },
    executionReport: { framesReported: 412, totalRowsCount: 412, executionErrors: { fileValidations: [], jobErrors: [] }, jobErrors: [] },
    validationReport: { fileValidations: [], jobErrors: [{ errorDetails: 'late', severity: 'WARNING' }] },
  });
});
afterAll(() => emulator.close());

describe.each(FLAVOURS)('$flavour: the packed library through the jsii kernel', ({ flavour, packageDir }) => {
  const fw = (type: string) => `${flavour}.${type}`;
  let lib: (type: string) => string;
  let work: string;
  let kernel: JsiiKernel;
  let assembly: AssemblyReader;
  let googleEnv: Record<string, string>;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), `jsii-kernel-${flavour}-`));
    assembly = AssemblyReader.of(packageDir);
    lib = (type) => `${assembly.name}.${type}`;
    const started = Date.now();
    const runtime = jsiiRuntimeEntry();
    const packages = packFlavour(flavour, work);
    // A jsii runtime installs the library alone: its user installs this platform's package in the project.
    writeThisPlatformPackage(work);
    googleEnv = {
      ...emulator.env(GoogleApiEmulator.ACCESS_TOKEN, ['secretmanager']),
    };
    const env = {
      ...withoutGoogleSettings(process.env),
      ...googleEnv,
      CDKTF_GOOGLE_IAM_CONTEXT_FILE: path.join(work, 'lookups.context.json'),
    };
    kernel = await JsiiKernel.start(runtime, env, work);
    for (const p of [packages.constructs, packages.framework, packages.library]) {
      expect(await kernel.load(p.name, p.version, p.tarball)).toEqual({ assembly: p.name, types: expect.any(Number) });
    }
    console.log(`jsii kernel (${flavour}): runtime fetched or cached, packages packed and loaded in ${Date.now() - started} ms`);
  });
  afterAll(async () => {
    await kernel?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const newApp = async (name: string) => {
    const outdir = path.join(work, name);
    const app = await kernel.create(fw('App'), [struct(fw('AppConfig'), { outdir })]);
    return {
      app,
      outdir,
      stackJson: (stack: string) => JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', stack, 'cdk.tf.json'), 'utf8')),
    };
  };

  test('hello names the runtime; the three tarballs are loaded', () => {
    expect(kernel.hello).toBe('@jsii/runtime@1.140.0');
  });

  test('create App, TerraformStack and grants with structs, an enum, optional fields left out and a Terraform token; invoke synth', async () => {
    const { app, stackJson } = await newApp('grants-out');
    const stack = await kernel.create(fw('TerraformStack'), [app, 'grants']);
    const reader = await kernel.create(fw('TerraformVariable'), [
      stack,
      'reader',
      struct(fw('TerraformVariableConfig'), { type: 'string' }),
    ]);
    const token = (await kernel.get(reader, 'stringValue')) as string;
    expect(token).toMatch(/^\$\{TfToken\[TOKEN\.\d+\]\}$/);

    await kernel.create(lib('AuthorizationPolicyIamMember'), [
      stack,
      'ApiReaders',
      struct(lib('AuthorizationPolicyIamMemberProps'), {
        name: AP,
        role: 'roles/networksecurity.viewer',
        member: 'group:api-readers@example.com',
        condition: struct(lib('IamCondition'), CONDITION),
      }),
    ]);
    await kernel.create(lib('MigrationJobIamBinding'), [
      stack,
      'DmsEditors',
      struct(lib('MigrationJobIamBindingProps'), {
        name: MJ,
        role: 'roles/datamigration.editor',
        members: [token, 'group:dba@example.com'],
      }),
    ]);
    // A provider of the user's own (an alias), as another language creates it and hands it to a grant.
    const secrets = await kernel.create(lib('GoogleIamProvider'), [
      stack,
      'Secrets',
      struct(lib('GoogleIamProviderConfig'), { alias: 'secrets', project: PROJECT }),
    ]);
    await kernel.create(lib('GoogleIamMember'), [
      stack,
      'SecretReader',
      struct(lib('GoogleIamMemberProps'), {
        resource: struct(lib('GoogleIamResource'), {
          service: 'secretmanager',
          apiVersion: 'v1',
          name: SECRET,
          policyReadMethod: enumValue(lib('GetIamPolicyMethod'), 'GET'),
        }),
        role: 'roles/secretmanager.secretAccessor',
        member: 'serviceAccount:app@kernel-project.iam.gserviceaccount.com',
        provider: secrets,
      }),
    ]);

    await kernel.invoke(app, 'synth');
    const synthesized = stackJson('grants');
    const text = JSON.stringify(synthesized);
    expect(Object.keys(synthesized.resource).sort()).toEqual([
      'googleiam_authorization_policy_iam_member',
      'googleiam_iam_member',
      'googleiam_migration_job_iam_binding',
    ]);
    // The user's aliased provider and the default one the stack gets without code.
    expect(synthesized.provider.googleiam).toEqual([{ alias: 'secrets', project: PROJECT }, {}]);
    // The grant's resource is named by what it grants (the secret, role and member), and uses the alias.
    const [secretReader] = Object.values(synthesized.resource.googleiam_iam_member) as Array<{ member: string; provider: string }>;
    expect(secretReader).toMatchObject({
      member: 'serviceAccount:app@kernel-project.iam.gserviceaccount.com',
      provider: 'googleiam.secrets',
    });
    expect(text).toContain('group:api-readers@example.com');
    expect(text).toContain('office-hours');
    expect(text).toContain('${var.reader}');
    expect(text).toContain('roles/secretmanager.secretAccessor');
    expect(synthesized.variable.reader).toEqual({ type: 'string' });
  });

  test('a validation error at create, and one at synth, arrive as kernel errors naming the construct path and the field', async () => {
    const { app } = await newApp('invalid-out');
    const stack = await kernel.create(fw('TerraformStack'), [app, 'invalid']);
    const atCreate = await kernelError(
      kernel.create(lib('AuthorizationPolicyIamMember'), [
        stack,
        'NoPrefix',
        struct(lib('AuthorizationPolicyIamMemberProps'), {
          name: AP,
          role: 'roles/networksecurity.viewer',
          member: 'alice@example.com',
        }),
      ]),
    );
    expect(atCreate.message).toMatch(/invalid\/NoPrefix: member: .*\(got "alice@example\.com"\)/);

    for (const id of ['First', 'Second']) {
      await kernel.create(lib('MigrationJobIamBinding'), [
        stack,
        id,
        struct(lib('MigrationJobIamBindingProps'), { name: MJ, role: 'roles/datamigration.admin', members: ['user:a@example.com'] }),
      ]);
    }
    const atSynth = await kernelError(kernel.invoke(app, 'synth'));
    expect(atSynth.message).toMatch(/invalid\/Second: role: only one binding construct may own a role/);
  });

  test('GoogleIamChecks as an aspect of the App and IamSuppressions.addSuppressions, as other languages call them: findings, reports, a refused reason', async () => {
    const { app, outdir, stackJson } = await newApp('checks-out');
    const checks = await kernel.create(lib('GoogleIamChecks'), [
      struct(lib('GoogleIamChecksProps'), {
        allowedMemberDomains: ['example.com'],
        rules: { 'GoogleIam-BasicRole': enumValue(lib('IamCheckLevel'), 'ERROR') },
      }),
    ]);
    const aspects = (await kernel.sinvoke(fw('Aspects'), 'of', [app])) as ObjRef;
    await kernel.invoke(aspects, 'add', [checks]);
    const stack = await kernel.create(fw('TerraformStack'), [app, 'checked']);
    const statusPage = await kernel.create(lib('AuthorizationPolicyIamMember'), [
      stack,
      'StatusPage',
      struct(lib('AuthorizationPolicyIamMemberProps'), { name: AP, role: 'roles/networksecurity.viewer', member: 'allUsers' }),
    ]);
    await kernel.sinvoke(lib('IamSuppressions'), 'addSuppressions', [
      statusPage,
      [struct(lib('IamSuppression'), { id: 'GoogleIam-Public', reason: 'the status page is public by design' })],
    ]);
    const refused = await kernelError(
      kernel.sinvoke(lib('IamSuppressions'), 'addSuppressions', [
        statusPage,
        [struct(lib('IamSuppression'), { id: 'GoogleIam-Public', reason: 'ok' })],
      ]),
    );
    expect(refused.message).toContain(
      'checked/StatusPage: suppressions[0].reason: a suppression of GoogleIam-Public needs a reason of at least 10 characters',
    );
    await kernel.invoke(app, 'synth');
    const report = JSON.parse(fs.readFileSync(path.join(outdir, 'stacks', 'checked', 'iam-report.json'), 'utf8'));
    expect(report.grants[0]).toMatchObject({
      constructPath: 'checked/StatusPage',
      member: 'allUsers',
      findings: [{ rule: 'GoogleIam-Public', suppressed: true, reason: 'the status page is public by design' }],
    });
    expect(report.settings.rules['GoogleIam-BasicRole']).toBe('error');
    expect(stackJson('checked').provider.googleiam).toEqual([
      { iam_checks: 'enforce', allowed_member_domains: ['example.com'], iam_check_rules: { 'GoogleIam-BasicRole': 'error' } },
    ]);

    // An error-level finding fails synth, naming the construct path and the rule.
    const failing = await newApp('checks-failing-out');
    const aspectsOfFailing = (await kernel.sinvoke(fw('Aspects'), 'of', [failing.app])) as ObjRef;
    await kernel.invoke(aspectsOfFailing, 'add', [checks]);
    const other = await kernel.create(fw('TerraformStack'), [failing.app, 'failing']);
    await kernel.create(lib('AuthorizationPolicyIamMember'), [
      other,
      'Auditors',
      struct(lib('AuthorizationPolicyIamMemberProps'), { name: AP, role: 'roles/viewer', member: 'group:auditors@example.com' }),
    ]);
    const atSynth = await kernelError(kernel.invoke(failing.app, 'synth'));
    expect(atSynth.message).toContain('[failing/Auditors] failing/Auditors: GoogleIam-BasicRole: roles/viewer');
  });

  test('every Direct-form lookup, called with a plain invoke, blocks and returns its typed struct', async () => {
    const lookups = await kernel.create(lib('GoogleLookups'), [struct(lib('GoogleLookupsProps'), { project: PROJECT })]);
    const call = async (method: string, argsType: string, args: Record<string, unknown>, resultType: string) => {
      const started = Date.now();
      const result = await kernel.invoke(lookups, method, [struct(lib(argsType), args)]);
      const elapsed = Date.now() - started;
      expect(result).toMatchObject({ '$jsii.interfaces': [lib(resultType)] });
      return { value: await assembly.readStruct(kernel, result, lib(resultType)), elapsed };
    };

    const ag = await call(
      'getAddressGroupIamPolicy',
      'GetAddressGroupIamPolicyArgs',
      { addressGroupId: 'office', location: 'global' },
      'IamPolicy',
    );
    // What Google did not send (audit configs, a condition's description and location) is absent: null in every language.
    expect(ag.value).toEqual({
      bindings: [
        {
          role: 'roles/compute.networkUser',
          members: ['group:net@example.com'],
          condition: CONDITION,
        },
        { role: 'roles/compute.networkViewer', members: ['user:a@example.com'] },
      ],
      etag: emulator.policy(AG).etag,
      version: 3,
    });
    const ap = await call(
      'getAuthorizationPolicyIamPolicy',
      'GetAuthorizationPolicyIamPolicyArgs',
      { authorizationPolicyId: 'api', location: 'global' },
      'IamPolicy',
    );
    expect(ap.value).toMatchObject({
      auditConfigs: AUDIT,
      bindings: [{ role: 'roles/networksecurity.viewer', members: ['user:b@example.com'] }],
    });
    const mj = await call(
      'getMigrationJobIamPolicy',
      'GetMigrationJobIamPolicyArgs',
      { migrationJobId: 'orders', location: 'us-central1', optionsRequestedPolicyVersion: 1 },
      'IamPolicy',
    );
    expect(mj.value).toMatchObject({ version: 1, bindings: [{ role: 'roles/datamigration.editor', members: ['group:dba@example.com'] }] });
    const secret = await call(
      'getIamPolicy',
      'GetIamPolicyArgs',
      {
        resource: struct(lib('GoogleIamResource'), {
          service: 'secretmanager',
          apiVersion: 'v1',
          name: SECRET,
          policyReadMethod: enumValue(lib('GetIamPolicyMethod'), 'GET'),
        }),
      },
      'IamPolicy',
    );
    expect(secret.value).toMatchObject({ bindings: [{ role: 'roles/secretmanager.secretAccessor', members: ['user:c@example.com'] }] });
    const job = await call(
      'getImportJob',
      'GetImportJobArgs',
      { importJobId: 'inventory', location: 'us-central1', view: 'IMPORT_JOB_VIEW_FULL' },
      'ImportJob',
    );
    expect(job.value).toEqual({
      name: JOB,
      displayName: 'Inventory',
      state: 'IMPORT_JOB_STATE_COMPLETED',
      labels: { team: 'migration' },
      objectStoragePayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://inventory/rvtools.csv' },
      executionReport: { framesReported: 412, totalRowsCount: 412, executionErrors: { fileValidations: [], jobErrors: [] }, jobErrors: [] },
      validationReport: { fileValidations: [], jobErrors: [{ errorDetails: 'late', severity: 'WARNING' }] },
    });
    console.log(
      `jsii kernel (${flavour}): Direct-form lookups took ${[ag, ap, mj, secret, job].map((r) => r.elapsed).join(', ')} ms (invoke to answer)`,
    );
    // Each result is in the context file; a second call is answered from it.
    const requests = emulator.stats().requests;
    await call('getAddressGroupIamPolicy', 'GetAddressGroupIamPolicyArgs', { addressGroupId: 'office', location: 'global' }, 'IamPolicy');
    expect(emulator.stats().requests).toBe(requests);
    expect(Object.keys(JSON.parse(fs.readFileSync(path.join(work, 'lookups.context.json'), 'utf8')))).toHaveLength(5);
  });

  test("Google's error and a refused argument arrive as kernel errors with Google's status, the lookup and its arguments", async () => {
    const lookups = await kernel.create(lib('GoogleLookups'), [struct(lib('GoogleLookupsProps'), { project: PROJECT })]);
    const missing = await kernelError(
      kernel.invoke(lookups, 'getImportJob', [struct(lib('GetImportJobArgs'), { importJobId: 'gone', location: 'us-central1' })]),
    );
    expect(missing.errorName).toBe('@jsii/kernel.RuntimeError');
    expect(missing.message).toMatch(/NOT_FOUND \(HTTP 404\): .*importJobs\/gone/);
    expect(missing.message).toContain(`GoogleLookups.getImportJob({"importJobId":"gone","location":"us-central1","project":"${PROJECT}"})`);
    const denied = await kernelError(
      kernel.invoke(
        await kernel.create(lib('GoogleLookups'), [
          struct(lib('GoogleLookupsProps'), { project: PROJECT, accessToken: GoogleApiEmulator.DENIED_TOKEN }),
        ]),
        'getAddressGroupIamPolicy',
        [struct(lib('GetAddressGroupIamPolicyArgs'), { addressGroupId: 'office', location: 'global', optionsRequestedPolicyVersion: 1 })],
      ),
    );
    expect(denied.message).toMatch(/PERMISSION_DENIED \(HTTP 403\)/);
    expect(denied.message).not.toContain(GoogleApiEmulator.DENIED_TOKEN);
    const refused = await kernelError(
      kernel.invoke(lookups, 'getAddressGroupIamPolicy', [
        struct(lib('GetAddressGroupIamPolicyArgs'), { addressGroupId: 'office', location: 'global', optionsRequestedPolicyVersion: 2 }),
      ]),
    );
    expect(refused.message).toContain('GoogleLookups.getAddressGroupIamPolicy: optionsRequestedPolicyVersion: expected 0, 1 or 3');
  });

  test('every Output-form attribute crosses with get, becomes a TerraformOutput or an argument of another element, and terraform apply gives its value', async () => {
    const { app, outdir, stackJson } = await newApp('lookups-out');
    const stack = await kernel.create(fw('TerraformStack'), [app, 'lookups']);
    const readers: [string, string, Record<string, unknown>][] = [
      ['DataAddressGroupIamPolicy', 'Ag', { addressGroupId: 'office', location: 'global', project: PROJECT }],
      ['DataAuthorizationPolicyIamPolicy', 'Ap', { authorizationPolicyId: 'api', location: 'global', project: PROJECT }],
      ['DataMigrationJobIamPolicy', 'Mj', { migrationJobId: 'orders', location: 'us-central1', project: PROJECT }],
      [
        'DataGoogleIamPolicy',
        'Secret',
        { resource: struct(lib('GoogleIamResource'), { service: 'secretmanager', apiVersion: 'v1', name: SECRET }) },
      ],
      ['DataImportJob', 'Job', { importJobId: 'inventory', location: 'us-central1', project: PROJECT, view: 'IMPORT_JOB_VIEW_FULL' }],
    ];
    const outputs: string[] = [];
    const readerRefs: Record<string, ObjRef> = {};
    for (const [type, id, props] of readers) {
      const reader = await kernel.create(lib(type), [stack, id, struct(lib(`${type}Props`), props)]);
      readerRefs[id] = reader;
      for (const property of assembly.properties(lib(type))) {
        if (property.name === 'node') continue;
        const value = await kernel.get(reader, property.name);
        if (value === undefined) continue; // an optional input left out (DataImportJob.view is given here)
        const name = `${id}_${property.name}`;
        await kernel.create(fw('TerraformOutput'), [stack, name, struct(fw('TerraformOutputConfig'), { value })]);
        outputs.push(name);
      }
    }
    // An attribute as another element's argument: a local whose value is the bindings, read back through the local.
    const local = await kernel.create(fw('TerraformLocal'), [stack, 'ag_bindings', await kernel.get(readerRefs.Ag, 'bindings')]);
    await kernel.create(fw('TerraformOutput'), [
      stack,
      'through_local',
      struct(fw('TerraformOutputConfig'), { value: await kernel.get(local, 'asList') }),
    ]);
    outputs.push('through_local');
    await kernel.invoke(app, 'synth');
    expect(Object.keys(stackJson('lookups').output).sort()).toEqual([...outputs].sort());
    expect(stackJson('lookups').locals.ag_bindings).toBe('${data.googleiam_address_group_iam_policy.Ag.bindings}');
    expect(stackJson('lookups').output.Ag_bindings.value).toBe('${data.googleiam_address_group_iam_policy.Ag.bindings}');

    const dir = path.join(outdir, 'stacks', 'lookups');
    const env = { ...emptyCliConfig(outdir), ...googleEnv, GOOGLE_CLOUD_PROJECT: PROJECT };
    for (const args of [
      ['init', '-input=false', '-no-color'],
      ['apply', '-auto-approve', '-input=false', '-no-color'],
    ]) {
      const result = await runCommand('terraform', args, dir, env);
      expect({ code: result.code, output: result.code === 0 ? '' : result.output }).toEqual({ code: 0, output: '' });
    }
    const shown = await runCommand('terraform', ['output', '-json'], dir, env);
    const values = Object.fromEntries(
      Object.entries(JSON.parse(shown.stdout) as Record<string, { value: unknown }>).map(([k, v]) => [k, v.value]),
    );
    expect(values).toMatchObject({
      Ag_bindings: [
        {
          role: 'roles/compute.networkUser',
          members: ['group:net@example.com'],
          condition: { ...CONDITION, description: null, location: null },
        },
        { role: 'roles/compute.networkViewer', members: ['user:a@example.com'] },
      ],
      Ag_version: 3,
      Ag_etag: emulator.policy(AG).etag,
      // Terraform values, in the data source's (snake_case) attribute names.
      Ap_auditConfigs: [
        { service: 'allServices', audit_log_configs: [{ log_type: 'DATA_READ', exempted_members: ['user:quiet@example.com'] }] },
      ],
      Mj_bindings: [{ role: 'roles/datamigration.editor', members: ['group:dba@example.com'] }],
      Secret_bindings: [{ role: 'roles/secretmanager.secretAccessor', members: ['user:c@example.com'] }],
      Job_state: 'IMPORT_JOB_STATE_COMPLETED',
      Job_labels: { team: 'migration' },
      Job_objectStoragePayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://inventory/rvtools.csv' },
      Job_executionReport: { framesReported: 412, totalRowsCount: 412 },
      Job_validationReport: { jobErrors: [{ errorDetails: 'late', severity: 'WARNING' }] },
    });
    expect(values.through_local).toEqual(values.Ag_bindings);
    // What Google did not send is null, and Terraform keeps no output whose value is null.
    for (const output of ['Ag_auditConfigs', 'Secret_auditConfigs', 'Job_inlinePayload']) {
      expect([output, outputs.includes(output), output in values]).toEqual([output, true, false]);
    }
  });
});

/** The error a kernel call fails with (the test fails if it succeeds). */

/** The test process's environment without project, credential or endpoint settings, which could point elsewhere. */
function withoutGoogleSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const names = /^(GOOGLE_|GCLOUD_|CLOUDSDK_|CDKTF_GOOGLE_IAM_)/;
  return Object.fromEntries(Object.entries(env).filter(([name]) => !names.test(name)));
}
