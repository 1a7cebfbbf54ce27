/**
 * The import job the lookups return holds every field Google publishes for
 * Migration Center v1alpha1 (read from the googleapis package's client, the
 * Discovery document's copy), and the enums every value.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ImportErrorSeverity, ImportJobFormat, ImportJobState, ImportJobView } from '../../../lib';
import { importJobFromWire } from '../../../lib/api/import-job-result-wire';
import { FULL_JOB, FULL_JOB_WIRE } from '../../support/import-job-sample';

const dts = fs.readFileSync(
  path.join(path.dirname(require.resolve('googleapis/package.json')), 'build/src/apis/migrationcenter/v1alpha1.d.ts'),
  'utf8',
);

/** The fields of `Schema$<name>` in Google's published schema. */
function schemaFields(name: string): string[] {
  const at = dts.indexOf(`export interface Schema$${name} {`);
  const body = dts.slice(at, dts.indexOf('\n    }', at));
  return [...body.matchAll(/\n {8}(\w+)\?: /g)].map((m) => m[1]).sort();
}

const keys = (value: object) => Object.keys(value).sort();

test("every field of Google's ImportJob and of each message inside it is returned (gcsPayload as objectStoragePayload)", () => {
  const job = importJobFromWire(FULL_JOB_WIRE);
  expect(job).toEqual(FULL_JOB);
  const file = job.validationReport.fileValidations[0];
  const row = file.rowErrors[0];
  const checks: Array<[string, object]> = [
    ['ImportJob', { ...job, gcsPayload: job.objectStoragePayload, objectStoragePayload: undefined }],
    ['ExecutionReport', job.executionReport],
    ['ValidationReport', job.validationReport],
    ['FileValidationReport', file],
    ['ImportError', file.fileErrors[0]],
    ['ImportRowError', row],
    ['ImportRowErrorArchiveErrorDetails', row.archiveError],
    ['ImportRowErrorCsvErrorDetails', row.csvError],
    ['ImportRowErrorXlsxErrorDetails', row.xlsxError],
    ['GCSPayloadInfo', job.objectStoragePayload],
    ['InlinePayloadInfo', job.inlinePayload],
    ['PayloadFile', job.inlinePayload.payload[0]],
  ];
  for (const [schema, value] of checks) {
    const returned = keys(value).filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    expect([schema, returned]).toEqual([schema, schemaFields(schema)]);
  }
});

test('a row error Google sends without the new details reads them as empty ones', () => {
  const job = importJobFromWire({
    name: 'n',
    validationReport: { fileValidations: [{ rowErrors: [{ rowNumber: 3, vmName: 'vm' }] }] },
  });
  expect(job.validationReport.fileValidations[0].rowErrors[0]).toEqual({
    archiveError: { csvError: { rowNumber: 0 }, filePath: '' },
    assetTitle: '',
    csvError: { rowNumber: 0 },
    errors: [],
    rowNumber: 3,
    vmName: 'vm',
    vmUuid: '',
    xlsxError: { rowNumber: 0, sheet: '' },
  });
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
