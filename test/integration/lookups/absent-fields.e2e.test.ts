/**
 * Google's data as Google sent it: every field of both lookups' Discovery
 * schemas (test/support/discovery-schema.ts), sent and left out at every
 * level, read through the real `terraform` (the data sources' state, `terraform
 * show -json`, and the constructs' values, `terraform output -json`) and through
 * the Direct form (GoogleLookups): a field Google sent is its value, one it
 * did not send is null (absent in the Direct form), never an empty value.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TerraformOutput } from 'cdktf';
import { DataAddressGroupIamPolicy, DataImportJob, GoogleLookups } from '../../../lib';
import { DiscoverySchema, POLICY_CHECKED_FIELDS, snakeCase } from '../../support/discovery-schema';
import { EmulatorProcess } from '../../support/emulator-process';
import { workspacesOfThisFile } from '../../support/terraform';

jest.setTimeout(300_000);

const PROJECT = 'demo-project';
const JOB_LOCATION = 'us-central1';
const GROUP_LOCATION = 'global';
const jobName = (id: string) => `projects/${PROJECT}/locations/${JOB_LOCATION}/importJobs/${id}`;
const groupName = (id: string) => `projects/${PROJECT}/locations/${GROUP_LOCATION}/addressGroups/${id}`;

const jobs = DiscoverySchema.of('migrationcenter', 'v1alpha1');
const iam = DiscoverySchema.of('networksecurity', 'v1');
/** The one field the lookups rename: SPEC.md's name for the wire's `gcsPayload`. */
const jobKey = (schema: string, field: string) => (`${schema}.${field}` === 'ImportJob.gcsPayload' ? 'objectStoragePayload' : field);
/** The policy data sources' attributes are the schema's fields in snake_case. */
const policyKey = (_schema: string, field: string) => snakeCase(field);

/**
 * Fields every answer here has: an import job's name (the emulator keeps jobs by it; the unit test,
 * test/unit/api/absent-fields.test.ts, reads a job without one) and the policy fields without which an
 * answer is not taken for Google's.
 */
const ALWAYS_SENT = ['ImportJob.name', ...Object.keys(POLICY_CHECKED_FIELDS)];

/** The import jobs: one with every field, then one per depth with only the messages down to it. */
const JOB_SEEDS = [
  jobs.full('ImportJob', { 'ImportJob.name': jobName('job-0'), 'ImportJob.state': 'IMPORT_JOB_STATE_FAILED_VALIDATION' }),
  ...jobs.skeletons('ImportJob').map((job, i) => ({ ...job, name: jobName(`job-${i + 1}`) })),
];
/** The address groups' policies: every field, one per depth, and a group with no policy (Google's `{etag}`). */
const POLICY_SEEDS: (Record<string, unknown> | undefined)[] = [
  iam.full('GoogleIamV1Policy', {
    ...POLICY_CHECKED_FIELDS,
    'GoogleIamV1Policy.version': 3,
    'GoogleIamV1Binding.members': ['group:network-admins@example.com', 'user:alice@example.com'],
    'GoogleIamV1AuditConfig.service': 'allServices',
    'GoogleIamV1AuditLogConfig.logType': 'DATA_READ',
    'GoogleIamV1AuditLogConfig.exemptedMembers': ['user:quiet@example.com'],
  }),
  ...iam.skeletons('GoogleIamV1Policy', POLICY_CHECKED_FIELDS),
  undefined,
];

let emulator: EmulatorProcess;
/** What the emulator answers for each seed, fetched as the provider fetches it: Google's answer. */
let jobAnswers: Record<string, unknown>[];
let policyAnswers: Record<string, unknown>[];
const workspace = workspacesOfThisFile();

async function answer(service: string, url: string): Promise<Record<string, unknown>> {
  const base = emulator.env[`CLOUDSDK_API_ENDPOINT_OVERRIDES_${service.toUpperCase()}`];
  const response = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${emulator.env.GOOGLE_OAUTH_ACCESS_TOKEN}` } });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  // The Direct form blocks this process until its lookup answers: the emulator runs in another one.
  emulator = await EmulatorProcess.start();
  for (const job of JOB_SEEDS) await emulator.addImportJob(job);
  for (const [i, policy] of POLICY_SEEDS.entries()) await emulator.addResource(groupName(`group-${i}`), policy as never);
  jobAnswers = await Promise.all(JOB_SEEDS.map((job) => answer('migrationcenter', `v1alpha1/${job.name as string}`)));
  policyAnswers = await Promise.all(
    POLICY_SEEDS.map((_p, i) => answer('networksecurity', `v1/${groupName(`group-${i}`)}:getIamPolicy?options.requestedPolicyVersion=3`)),
  );
});
afterAll(() => emulator.close());

test('the answers send every field of both schemas, and leave out each that an answer may lack', () => {
  for (const [schema, root, answers] of [
    [jobs, 'ImportJob', jobAnswers],
    [iam, 'GoogleIamV1Policy', policyAnswers],
  ] as const) {
    const presence = answers.map((a) => schema.presence(root, a));
    const sent = new Set(presence.flatMap((p) => p.sent));
    const absent = new Set(presence.flatMap((p) => p.absent));
    const missed = schema.allFields(root).filter((field) => !sent.has(field) || (!absent.has(field) && !ALWAYS_SENT.includes(field)));
    expect([root, missed]).toEqual([root, []]);
  }
});

test('Output form: the data sources hold each field as sent, null where Google sent none; so do the constructs', async () => {
  const ws = await workspace((stack) => {
    JOB_SEEDS.forEach((_job, i) => {
      const job = new DataImportJob(stack, `Job${i}`, { importJobId: `job-${i}`, location: JOB_LOCATION, project: PROJECT });
      const parts = { executionReport: job.executionReport, validationReport: job.validationReport, inlinePayload: job.inlinePayload };
      new TerraformOutput(stack, `job_${i}`, { value: { ...parts, objectStoragePayload: job.objectStoragePayload, labels: job.labels } });
    });
    POLICY_SEEDS.forEach((_policy, i) => {
      const policy = new DataAddressGroupIamPolicy(stack, `Group${i}`, {
        addressGroupId: `group-${i}`,
        location: GROUP_LOCATION,
        project: PROJECT,
      });
      new TerraformOutput(stack, `policy_${i}`, { value: { bindings: policy.bindings, audit_configs: policy.auditConfigs } });
    });
  });
  const env = { ...emulator.env, CDKTF_GOOGLE_IAM_RETRY_INITIAL_MS: '50' };
  const applied = await ws.apply(env);
  expect({ code: applied.code, output: applied.code === 0 ? '' : applied.output }).toEqual({ code: 0, output: '' });

  const shown = JSON.parse((await ws.run(['show', '-json'], env, true)).stdout) as {
    values: { root_module: { resources: { type: string; values: Record<string, unknown> }[] } };
  };
  const state = (type: string, idAttribute: string, id: string) =>
    shown.values.root_module.resources.find((r) => r.type === type && r.values[idAttribute] === id)!.values;
  const outputs = JSON.parse((await ws.run(['output', '-json'], env, true)).stdout) as Record<string, { value: Record<string, unknown> }>;

  jobAnswers.forEach((job, i) => {
    const expected = jobs.expected('ImportJob', job, null, jobKey);
    // Scalars and labels are attributes; each report and payload (a message) is JSON text, null when Google sent none.
    const attributes = Object.fromEntries(
      jobs.fields('ImportJob').map(({ name, type }) => {
        const field = jobKey('ImportJob', name);
        return [`${snakeCase(field)}${type.kind === 'message' ? '_json' : ''}`, expected[field]];
      }),
    );
    const held = state('googleiam_import_job', 'import_job_id', `job-${i}`);
    const read = Object.fromEntries(
      Object.keys(attributes).map((a) => [a, a.endsWith('_json') && held[a] !== null ? JSON.parse(held[a] as string) : held[a]]),
    );
    expect([`job-${i}`, read]).toEqual([`job-${i}`, attributes]);
    expect(held.execution_report_json === null).toBe(expected.executionReport === null);
    const { executionReport, validationReport, inlinePayload, objectStoragePayload, labels } = expected;
    expect([`job-${i}`, outputs[`job_${i}`].value]).toEqual([
      `job-${i}`,
      { executionReport, validationReport, inlinePayload, objectStoragePayload, labels },
    ]);
  });

  policyAnswers.forEach((policy, i) => {
    const expected = iam.expected('GoogleIamV1Policy', policy, null, policyKey);
    const held = state('googleiam_address_group_iam_policy', 'address_group_id', `group-${i}`);
    const read = Object.fromEntries(Object.keys(expected).map((a) => [a, held[a]]));
    expect([`group-${i}`, read]).toEqual([`group-${i}`, expected]);
    expect([`group-${i}`, outputs[`policy_${i}`].value]).toEqual([
      `group-${i}`,
      { bindings: expected.bindings, audit_configs: expected.audit_configs },
    ]);
  });
});

test('Direct form: each field as sent, absent where Google sent none', () => {
  const contextDir = fs.mkdtempSync(path.join(os.tmpdir(), 'absent-fields-context-'));
  const saved = { ...process.env };
  try {
    Object.assign(process.env, emulator.env);
    delete process.env.CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS;
    delete process.env.CDKTF_GOOGLE_IAM_NO_LOOKUPS;
    const lookups = new GoogleLookups({ project: PROJECT, contextFile: path.join(contextDir, 'context.json') });
    jobAnswers.forEach((job, i) => {
      const read = lookups.getImportJob({ importJobId: `job-${i}`, location: JOB_LOCATION });
      // toStrictEqual: an absent field is no key at all (the expected value's undefined keys are dropped by the round trip).
      expect([`job-${i}`, read]).toStrictEqual([
        `job-${i}`,
        JSON.parse(JSON.stringify(jobs.expected('ImportJob', job, undefined, jobKey))),
      ]);
    });
    policyAnswers.forEach((policy, i) => {
      const read = lookups.getAddressGroupIamPolicy({ addressGroupId: `group-${i}`, location: GROUP_LOCATION });
      expect([`group-${i}`, read]).toStrictEqual([
        `group-${i}`,
        JSON.parse(JSON.stringify(iam.expected('GoogleIamV1Policy', policy, undefined))),
      ]);
    });
  } finally {
    process.env = saved;
    fs.rmSync(contextDir, { recursive: true, force: true });
  }
});
