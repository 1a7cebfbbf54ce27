/**
 * Both forms of getImportJob return every field Google publishes, from an
 * import job that has them all: the Direct form (GoogleLookups) and the
 * Output form (DataImportJob, read by the provider under the real `terraform`).
 * Without a view Google's default applies: the full view.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { TerraformOutput } from 'cdktf';
import { DataImportJob, GoogleLookups } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { EmulatorProcess } from '../../support/emulator-process';
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
  // The Direct form blocks this process until its lookup answers: the emulator it reads must run in another one.
  const served = await EmulatorProcess.start();
  const contextDir = fs.mkdtempSync(path.join(os.tmpdir(), 'import-job-context-'));
  const saved = { ...process.env };
  try {
    await served.addImportJob(FULL_JOB_WIRE);
    Object.assign(process.env, served.env);
    delete process.env.CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS;
    delete process.env.CDKTF_GOOGLE_IAM_NO_LOOKUPS;
    const lookups = new GoogleLookups({ project: 'demo-project', contextFile: path.join(contextDir, 'context.json') });
    expect(lookups.getImportJob({ importJobId: 'everything', location: 'us-central1' })).toEqual(FULL_JOB);
    expect(lookups.getImportJob({ importJobId: 'everything', location: 'us-central1', view: 'IMPORT_JOB_VIEW_FULL' })).toEqual(FULL_JOB);
    const basic = lookups.getImportJob({ importJobId: 'everything', location: 'us-central1', view: 'IMPORT_JOB_VIEW_BASIC' });
    expect([basic.executionReport, basic.validationReport]).toEqual([undefined, undefined]);
    expect(basic.objectStoragePayload).toEqual(FULL_JOB.objectStoragePayload);
  } finally {
    process.env = saved;
    served.close();
    fs.rmSync(contextDir, { recursive: true, force: true });
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
