/**
 * The library as each jsii language's user meets it, through `@jsii/runtime` started with the `JSII_AGENT` that
 * language's runtime sets: messages name members as that language spells them and write hints in its syntax;
 * the import job's values are string constants (`sget`) that go in as arguments and compare equal to what comes
 * back; every exported enum is taken by some signature; and both console scripts start as Python's and Java's
 * runtimes start them (`getBinScriptCommand`, then the host runs the unpacked file itself).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { GoogleApiEmulator } from '../../lib/testing';
import { AssemblyReader } from './support/assembly-reader';
import { JsiiKernel, enumValue, kernelError, struct, type ObjRef } from './support/jsii-kernel';
import { jsiiRuntimeEntry, packFlavour, type PackedPackage } from './support/packages';
import { writeThisPlatformPackage } from '../support/platform-package';

jest.setTimeout(240_000);

const ROOT = path.join(__dirname, '..', '..');
const PROJECT = 'caller-project';
const AP = `projects/${PROJECT}/locations/global/authorizationPolicies/api`;
const JOB = `projects/${PROJECT}/locations/us-central1/importJobs/inventory`;

/** What each runtime sets (jsii's Python, Java, .NET and Go runtimes), and how its users spell the same things. */
const LANGUAGES = [
  {
    agent: 'Python/3.11.2',
    grants: 'grants',
    role: 'role',
    lookup: 'GoogleLookups.get_address_group_iam_policy',
    version: 'options_requested_policy_version',
    missing: 'GoogleLookups.get_import_job(import_job_id="gone", location="us-central1", project="caller-project")',
    suppression:
      'IamSuppressions.add_suppressions(<this grant or a scope above it>, [IamSuppression(id="GoogleIam-BasicRole", reason="<why>")])',
  },
  {
    agent: 'Java/17.0.15',
    grants: 'grants',
    role: 'role',
    lookup: 'GoogleLookups.getAddressGroupIamPolicy',
    version: 'optionsRequestedPolicyVersion',
    missing: 'GoogleLookups.getImportJob({"importJobId":"gone","location":"us-central1","project":"caller-project"})',
    suppression:
      'IamSuppressions.addSuppressions(<this grant or a scope above it>, List.of(IamSuppression.builder().id("GoogleIam-BasicRole").reason("<why>").build()))',
  },
  {
    agent: 'DotNet/8.0.11/8.0.11/1.140.0',
    grants: 'Grants',
    role: 'Role',
    lookup: 'GoogleLookups.GetAddressGroupIamPolicy',
    version: 'OptionsRequestedPolicyVersion',
    missing: 'GoogleLookups.GetImportJob({"ImportJobId":"gone","Location":"us-central1","Project":"caller-project"})',
    suppression:
      'IamSuppressions.AddSuppressions(<this grant or a scope above it>, new IamSuppression[] { new IamSuppression { Id = "GoogleIam-BasicRole", Reason = "<why>" } })',
  },
  {
    agent: 'go1.23.4/linux/amd64',
    grants: 'Grants',
    role: 'Role',
    lookup: 'GoogleLookups.GetAddressGroupIamPolicy',
    version: 'OptionsRequestedPolicyVersion',
    missing: 'GoogleLookups.GetImportJob({"ImportJobId":"gone","Location":"us-central1","Project":"caller-project"})',
    suppression:
      'cdktfgoogleiam.IamSuppressions_AddSuppressions(<this grant or a scope above it>, &[]*cdktfgoogleiam.IamSuppression{&cdktfgoogleiam.IamSuppression{Id: jsii.String("GoogleIam-BasicRole"), Reason: jsii.String("<why>")}})',
  },
];

let emulator: GoogleApiEmulator;
let work: string;
let runtime: string;
let packages: { constructs: PackedPackage; framework: PackedPackage; library: PackedPackage };
const assembly = AssemblyReader.of(ROOT);
const lib = (type: string) => `${assembly.name}.${type}`;

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addResource(`projects/${PROJECT}/locations/global/addressGroups/office`, { bindings: [] });
  emulator.addImportJob({
    name: JOB,
    state: 'IMPORT_JOB_STATE_COMPLETED',
    executionReport: { framesReported: 1, totalRowsCount: 1, executionErrors: { fileValidations: [], jobErrors: [] }, jobErrors: [] },
  });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'jsii-caller-'));
  runtime = jsiiRuntimeEntry();
  packages = packFlavour('cdktf', work);
  // A jsii runtime installs the library alone: its user installs this platform's package in the project.
  writeThisPlatformPackage(work);
});
afterAll(async () => {
  await emulator?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A kernel as the runtime of `agent` starts it, with the three packages loaded. */
async function startKernel(agent: string): Promise<JsiiKernel> {
  const kernel = await JsiiKernel.start(
    runtime,
    {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      JSII_AGENT: agent,
      ...emulator.env(GoogleApiEmulator.ACCESS_TOKEN),
      CDKTF_GOOGLE_IAM_CONTEXT_FILE: path.join(work, `${agent.replace(/\W/g, '_')}.context.json`),
    },
    work,
  );
  for (const p of [packages.constructs, packages.framework, packages.library]) await kernel.load(p.name, p.version, p.tarball);
  return kernel;
}

describe.each(LANGUAGES)('JSII_AGENT=$agent: messages as that language writes them', (language) => {
  let kernel: JsiiKernel;
  beforeAll(async () => {
    kernel = await startKernel(language.agent);
  });
  afterAll(() => kernel?.close());

  test("a refused lookup argument and Google's refusal name the lookup, the field and the arguments as its users do", async () => {
    const lookups = await kernel.create(lib('GoogleLookups'), [struct(lib('GoogleLookupsProps'), { project: PROJECT })]);
    const refused = await kernelError(
      kernel.invoke(lookups, 'getAddressGroupIamPolicy', [
        struct(lib('GetAddressGroupIamPolicyArgs'), { addressGroupId: 'office', location: 'global', optionsRequestedPolicyVersion: 2 }),
      ]),
    );
    // The first line says everything: a host runtime prints it first, before the JavaScript stack.
    expect(refused.message.split('\n')[0]).toContain(
      `${language.lookup}: ${language.version}: expected 0, 1 or 3 (the policy versions Google accepts) (got 2)`,
    );
    const missing = await kernelError(
      kernel.invoke(lookups, 'getImportJob', [struct(lib('GetImportJobArgs'), { importJobId: 'gone', location: 'us-central1' })]),
    );
    expect(missing.message.split('\n')[0]).toContain(language.missing);
    expect(missing.message.split('\n')[0]).toMatch(/NOT_FOUND \(HTTP 404\)/);
  });

  test('a misspelt role, an empty bulk grant and an error-level finding: the hint to accept it in the caller language', async () => {
    const app = await kernel.create('cdktf.App', [struct('cdktf.AppConfig', { outdir: path.join(work, `out-${language.version}`) })]);
    const stack = await kernel.create('cdktf.TerraformStack', [app, 'iam']);
    const misspelt = await kernelError(
      kernel.create(lib('AuthorizationPolicyIamMembers'), [
        stack,
        'Readers',
        struct(lib('AuthorizationPolicyIamMembersProps'), {
          name: AP,
          grants: [struct(lib('IamGrantEntryProps'), { role: 'roles/networksecurity.viwer', member: 'user:a@example.com' })],
        }),
      ]),
    );
    expect(misspelt.message.split('\n')[0]).toContain(`iam/Readers: ${language.grants}[0].${language.role}: not one of Google's`);
    expect(misspelt.message.split('\n')[0]).toContain('did you mean roles/networksecurity.viewer?');
    const empty = await kernelError(
      kernel.create(lib('AuthorizationPolicyIamMembers'), [
        stack,
        'Nobody',
        struct(lib('AuthorizationPolicyIamMembersProps'), { name: AP, grants: [] }),
      ]),
    );
    expect(empty.message.split('\n')[0]).toContain(
      `iam/Nobody: ${language.grants}: must list at least one grant; to grant nothing, remove the construct (got [])`,
    );

    const checks = await kernel.create(lib('GoogleIamChecks'), [
      struct(lib('GoogleIamChecksProps'), { rules: { 'GoogleIam-BasicRole': enumValue(lib('IamCheckLevel'), 'ERROR') } }),
    ]);
    await kernel.invoke((await kernel.sinvoke('cdktf.Aspects', 'of', [app])) as ObjRef, 'add', [checks]);
    await kernel.create(lib('AuthorizationPolicyIamMember'), [
      stack,
      'Auditors',
      struct(lib('AuthorizationPolicyIamMemberProps'), { name: AP, role: 'roles/viewer', member: 'group:auditors@example.com' }),
    ]);
    const finding = await kernelError(kernel.invoke(app, 'synth'));
    expect(finding.message).toContain(`iam/Auditors: GoogleIam-BasicRole: roles/viewer`);
    expect(finding.message).toContain(`To accept it: ${language.suppression}`);
  });
});

describe('the import job values and the enums, in every language', () => {
  let kernel: JsiiKernel;
  beforeAll(async () => {
    kernel = await startKernel('Python/3.11.2');
  });
  afterAll(() => kernel?.close());

  test("ImportJobView.BASIC goes in as the view and the job's state compares equal to ImportJobState.COMPLETED", async () => {
    const basic = await kernel.sget(lib('ImportJobView'), 'BASIC');
    expect(basic).toBe('IMPORT_JOB_VIEW_BASIC');
    const lookups = await kernel.create(lib('GoogleLookups'), [struct(lib('GoogleLookupsProps'), { project: PROJECT })]);
    const job = (await kernel.invoke(lookups, 'getImportJob', [
      struct(lib('GetImportJobArgs'), { importJobId: 'inventory', location: 'us-central1', view: basic }),
    ])) as ObjRef;
    expect(await kernel.get(job, 'state')).toBe(await kernel.sget(lib('ImportJobState'), 'COMPLETED'));
    // The basic view leaves the reports out: Google was asked for it.
    expect(await kernel.get(job, 'executionReport')).toBeUndefined();
  });

  test('an enum goes in as {"$jsii.enum": ...} and comes back the same from a struct the kernel hands out', async () => {
    const app = await kernel.create('cdktf.App', [struct('cdktf.AppConfig', { outdir: path.join(work, 'enum-out') })]);
    const stack = await kernel.create('cdktf.TerraformStack', [app, 'iam']);
    const grant = await kernel.create(lib('GoogleIamMember'), [
      stack,
      'SecretReader',
      struct(lib('GoogleIamMemberProps'), {
        resource: struct(lib('GoogleIamResource'), {
          service: 'secretmanager',
          apiVersion: 'v1',
          name: `projects/${PROJECT}/secrets/db-password`,
          policyReadMethod: enumValue(lib('GetIamPolicyMethod'), 'GET'),
        }),
        role: 'roles/secretmanager.secretAccessor',
        member: 'user:a@example.com',
      }),
    ]);
    const resource = (await kernel.get(grant, 'resource')) as ObjRef;
    expect(await kernel.get(resource, 'policyReadMethod')).toEqual(enumValue(lib('GetIamPolicyMethod'), 'GET'));
  });

  test('every exported enum is taken by a property or a parameter (a jsii enum carries names only: one no signature takes is unusable)', () => {
    const types = Object.values(
      (JSON.parse(fs.readFileSync(path.join(ROOT, '.jsii'), 'utf8')) as { types: Record<string, Record<string, unknown>> }).types,
    );
    const enums = types.filter((t) => t.kind === 'enum').map((t) => t.fqn);
    const referenced = JSON.stringify(types.map((t) => [t.properties, t.methods, t.initializer]));
    expect(enums.length).toBeGreaterThan(0);
    expect(enums.filter((fqn) => !referenced.includes(`"fqn":"${fqn}"`))).toEqual([]);
  });
});

describe('the console scripts, started as Python and Java start them', () => {
  let kernel: JsiiKernel;
  beforeAll(async () => {
    kernel = await startKernel('Python/3.11.2');
  });
  afterAll(() => kernel?.close());

  test.each(['cdktf-google-iam-emulator', 'cdktf-google-iam-provider'])('%s --help', async (script) => {
    const command = await kernel.binScriptCommand(assembly.name, script, ['--help']);
    const run = spawnSync(command.command, command.args, { env: command.env, encoding: 'utf8' });
    expect({ status: run.status, error: run.error?.message }).toEqual({ status: 0, error: undefined });
    expect(run.stdout).toMatch(/usage/i);
  });

  test('cdktf-google-iam-provider install lays the provider out in a folder', async () => {
    const dir = fs.mkdtempSync(path.join(work, 'install-'));
    const command = await kernel.binScriptCommand(assembly.name, 'cdktf-google-iam-provider', ['install', dir]);
    // Run in the project, where its user installed this platform's executable package with npm.
    const run = spawnSync(command.command, command.args, { cwd: work, env: command.env, encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(fs.readdirSync(path.join(dir, 'terraform.d', 'plugins'), { recursive: true, encoding: 'utf8' })).toContainEqual(
      expect.stringMatching(/terraform-provider-googleiam/),
    );
  });
});
