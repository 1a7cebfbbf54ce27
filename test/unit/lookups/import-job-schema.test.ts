/**
 * The sample import job of the lookup tests holds every field Google
 * publishes for Migration Center v1alpha1 (read from the googleapis package's
 * client, the Discovery document's copy), and the enums every value. Each
 * field absent or sent: test/unit/api/absent-fields.test.ts.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ImportErrorSeverity, ImportJobFormat, ImportJobState, ImportJobView } from '../../../lib';
import { importJobFromWire } from '../../../lib/api/import-job-result-wire';
import { DiscoverySchema } from '../../support/discovery-schema';
import { FULL_JOB, FULL_JOB_WIRE } from '../../support/import-job-sample';

const dts = fs.readFileSync(
  path.join(path.dirname(require.resolve('googleapis/package.json')), 'build/src/apis/migrationcenter/v1alpha1.d.ts'),
  'utf8',
);

test('the sample job has every field Google publishes set, and reads as itself (gcsPayload as objectStoragePayload)', () => {
  expect(DiscoverySchema.of('migrationcenter', 'v1alpha1').presence('ImportJob', FULL_JOB_WIRE).absent).toEqual([]);
  expect(importJobFromWire(FULL_JOB_WIRE)).toEqual(FULL_JOB);
});

test("the enums hold every value of Google's v1alpha1 enums", () => {
  // GCSPayloadInfo.format, ImportJob.state, ImportError.severity, importJobs.get's view in the Discovery document.
  expect(Object.values(ImportJobFormat)).toEqual([
    'IMPORT_JOB_FORMAT_UNSPECIFIED',
    'IMPORT_JOB_FORMAT_CMDB',
    'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
    'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
    'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
    'IMPORT_JOB_FORMAT_MANUAL_CSV',
    'IMPORT_JOB_FORMAT_DATABASE_ZIP',
  ]);
  expect(Object.values(ImportJobState)).toEqual([
    'IMPORT_JOB_STATE_UNSPECIFIED',
    'IMPORT_JOB_STATE_PENDING',
    'IMPORT_JOB_STATE_RUNNING',
    'IMPORT_JOB_STATE_COMPLETED',
    'IMPORT_JOB_STATE_FAILED',
    'IMPORT_JOB_STATE_VALIDATING',
    'IMPORT_JOB_STATE_FAILED_VALIDATION',
    'IMPORT_JOB_STATE_READY',
  ]);
  expect(Object.values(ImportErrorSeverity)).toEqual(['SEVERITY_UNSPECIFIED', 'ERROR', 'WARNING', 'INFO']);
  expect(Object.values(ImportJobView)).toEqual(['IMPORT_JOB_VIEW_UNSPECIFIED', 'IMPORT_JOB_VIEW_BASIC', 'IMPORT_JOB_VIEW_FULL']);
});

test("Google's description of importJobs.get's view: the default is the full view", () => {
  const at = dts.indexOf('export interface Params$Resource$Projects$Locations$Importjobs$Get');
  expect(dts.slice(at, dts.indexOf('\n    }', at))).toContain('Default value is FULL.');
});
