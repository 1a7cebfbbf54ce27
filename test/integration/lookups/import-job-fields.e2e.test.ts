/**
 * Both forms of getImportJob return every field Google publishes, from an
 * import job that has them all: the Direct form (GoogleLookups) and the
 * Output form (DataImportJob, read by the runner under the real `terraform`).
 * Without a view Google's default applies: the full view.
 */
import { TerraformOutput } from 'cdktf';
import { DataImportJob, GoogleLookups } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv } from '../../support/grant-env';
import { FULL_JOB, FULL_JOB_WIRE } from '../../support/import-job-sample';
import { workspacesOfThisFile } from '../../support/terraform';

jest.setTimeout(240_000);

let emulator: GoogleApiEmulator;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
  emulator.addImportJob(FULL_JOB_WIRE);
});
afterAll(async () => {
  await emulator.close();
});

test('Direct form: every field, with and without a view', async () => {
  const env = emulator.env();
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const lookups = new GoogleLookups({ project: 'demo-project' });
    expect(await lookups.getImportJob({ importJobId: 'everything', location: 'us-central1' })).toEqual(FULL_JOB);
    expect(await lookups.getImportJob({ importJobId: 'everything', location: 'us-central1', view: 'IMPORT_JOB_VIEW_FULL' })).toEqual(
      FULL_JOB,
    );
    const basic = await lookups.getImportJob({ importJobId: 'everything', location: 'us-central1', view: 'IMPORT_JOB_VIEW_BASIC' });
    expect(basic.validationReport).toEqual({ fileValidations: [], jobErrors: [] });
    expect(basic.objectStoragePayload).toEqual(FULL_JOB.objectStoragePayload);
  } finally {
    process.env = saved;
  }
});

test('Output form: every field reaches Terraform, as the Direct form returns it', async () => {
  const ws = await workspace((s) => {
    const job = new DataImportJob(s, 'Everything', { importJobId: 'everything', location: 'us-central1', project: 'demo-project' });
    const fields = {
      name: job.name,
      displayName: job.displayName,
      assetSource: job.assetSource,
      createTime: job.createTime,
      updateTime: job.updateTime,
      completeTime: job.completeTime,
      labels: job.labels,
      state: job.state,
      executionReport: job.executionReport,
      validationReport: job.validationReport,
      objectStoragePayload: job.objectStoragePayload,
      inlinePayload: job.inlinePayload,
    };
    for (const [field, value] of Object.entries(fields)) new TerraformOutput(s, field, { value });
  });
  const applied = await ws.apply(grantEnv(emulator));
  expect({ code: applied.code, output: applied.code === 0 ? '' : applied.output }).toEqual({ code: 0, output: '' });
  const shown = await ws.run(['output', '-json'], grantEnv(emulator));
  const outputs = Object.fromEntries(
    Object.entries(JSON.parse(shown.stdout) as Record<string, { value: unknown }>).map(([k, v]) => [k, v.value]),
  );
  expect(outputs).toEqual(FULL_JOB);
});
