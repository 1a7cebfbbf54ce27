/** Wire JSON → typed results: every documented field, defaults for absent ones, unknown fields ignored. */
import {
  executionReportFromWire,
  importJobFromWire,
  inlinePayloadFromWire,
  objectStoragePayloadFromWire,
  validationReportFromWire,
} from '../../../lib/api/import-job-result-wire';
import { iamPolicyFromWire } from '../../../lib/api/policy-result-wire';

test("Google's empty policy reads as an empty policy", () => {
  expect(iamPolicyFromWire({ etag: 'ACAB' })).toEqual({ auditConfigs: [], bindings: [], etag: 'ACAB', version: 0 });
});

test('a policy keeps every binding, fills all four condition fields, and ignores unknown fields', () => {
  const policy = iamPolicyFromWire({
    version: 3,
    etag: 'BwX=',
    kind: 'new-field',
    bindings: [
      { role: 'roles/a.b', members: ['user:a@example.com'], futureField: true },
      { role: 'roles/a.c', members: ['group:g@example.com'], condition: { expression: 'true', title: 't' } },
      { role: 'roles/a.d' },
    ],
    auditConfigs: [
      {
        service: 'allServices',
        auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:q@example.com'] }, { logType: 'ADMIN_READ' }],
      },
    ],
  });
  expect(policy).toEqual({
    version: 3,
    etag: 'BwX=',
    bindings: [
      { role: 'roles/a.b', members: ['user:a@example.com'] },
      { role: 'roles/a.c', members: ['group:g@example.com'], condition: { expression: 'true', title: 't', description: '', location: '' } },
      { role: 'roles/a.d', members: [] },
    ],
    auditConfigs: [
      {
        service: 'allServices',
        auditLogConfigs: [
          { logType: 'DATA_READ', exemptedMembers: ['user:q@example.com'] },
          { logType: 'ADMIN_READ', exemptedMembers: [] },
        ],
      },
    ],
  });
});

test('malformed values fall back to the empty value of their type', () => {
  expect(iamPolicyFromWire({ version: 'x', etag: 7, bindings: 'no' })).toEqual({ auditConfigs: [], bindings: [], etag: '', version: 0 });
  expect(iamPolicyFromWire(null)).toEqual({ auditConfigs: [], bindings: [], etag: '', version: 0 });
});

/** String fields that pass through unchanged. */
const SCALARS = {
  name: 'projects/p/locations/l/importJobs/j',
  displayName: 'Inventory',
  assetSource: 'projects/p/locations/l/sources/s',
  createTime: '2026-11-01T09:00:00Z',
  updateTime: '2026-11-01T09:12:00Z',
  completeTime: '2026-11-01T09:12:00Z',
};

test('an import job maps every report, renames gcsPayload and ignores unknown fields', () => {
  const error = { errorDetails: 'bad row', severity: 'ERROR', extra: 1 };
  const job = importJobFromWire({
    ...SCALARS,
    labels: { team: 'migration', bad: 3 },
    state: 'IMPORT_JOB_STATE_FAILED',
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://b/f.csv' },
    inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'a.csv', data: 'YQ==' }] },
    executionReport: {
      framesReported: 3,
      totalRowsCount: '4',
      jobErrors: [error],
      executionErrors: {
        jobErrors: [],
        fileValidations: [
          {
            fileName: 'f.csv',
            partialReport: true,
            fileErrors: [error],
            rowErrors: [{ rowNumber: 2, vmName: 'vm', vmUuid: 'u', errors: [error] }],
          },
        ],
      },
    },
    validationReport: {},
    somethingNew: { deep: true },
  });
  const mapped = { errorDetails: 'bad row', severity: 'ERROR' };
  expect(job).toEqual({
    ...SCALARS,
    labels: { team: 'migration' },
    state: 'IMPORT_JOB_STATE_FAILED',
    objectStoragePayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://b/f.csv' },
    inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'a.csv', data: 'YQ==' }] },
    executionReport: {
      framesReported: 3,
      totalRowsCount: 4,
      jobErrors: [mapped],
      executionErrors: {
        jobErrors: [],
        fileValidations: [
          {
            fileName: 'f.csv',
            partialReport: true,
            fileErrors: [mapped],
            rowErrors: [
              {
                rowNumber: 2,
                vmName: 'vm',
                vmUuid: 'u',
                errors: [mapped],
                archiveError: { csvError: { rowNumber: 0 }, filePath: '' },
                assetTitle: '',
                csvError: { rowNumber: 0 },
                xlsxError: { rowNumber: 0, sheet: '' },
              },
            ],
          },
        ],
      },
    },
    validationReport: { fileValidations: [], jobErrors: [] },
  });
});

const EMPTY_VALIDATION = { fileValidations: [], jobErrors: [] };
const EMPTY_PARTS = {
  executionReport: { executionErrors: EMPTY_VALIDATION, framesReported: 0, jobErrors: [], totalRowsCount: 0 },
  validationReport: EMPTY_VALIDATION,
  objectStoragePayload: { format: '', path: '' },
  inlinePayload: { format: '', payload: [] },
};

test('a basic-view import job has empty reports and payloads, and empty strings for what is missing', () => {
  expect(importJobFromWire({ name: 'n', state: 'IMPORT_JOB_STATE_PENDING' })).toEqual({
    name: 'n',
    displayName: '',
    assetSource: '',
    createTime: '',
    updateTime: '',
    completeTime: '',
    labels: {},
    state: 'IMPORT_JOB_STATE_PENDING',
    ...EMPTY_PARTS,
  });
});

test('each part mapper reads nothing as its empty value (the Output form’s fallbacks)', () => {
  expect({
    executionReport: executionReportFromWire(undefined),
    validationReport: validationReportFromWire(undefined),
    objectStoragePayload: objectStoragePayloadFromWire(undefined),
    inlinePayload: inlinePayloadFromWire(undefined),
  }).toEqual(EMPTY_PARTS);
});

test('nested items fill their own missing fields', () => {
  const job = importJobFromWire({
    validationReport: { fileValidations: [{ rowErrors: [{}] }], jobErrors: [{}] },
    inlinePayload: { payload: [{ name: 'a.csv' }] },
  });
  expect(job.validationReport).toEqual({
    fileValidations: [
      {
        fileErrors: [],
        fileName: '',
        partialReport: false,
        rowErrors: [
          {
            errors: [],
            rowNumber: 0,
            vmName: '',
            vmUuid: '',
            archiveError: { csvError: { rowNumber: 0 }, filePath: '' },
            assetTitle: '',
            csvError: { rowNumber: 0 },
            xlsxError: { rowNumber: 0, sheet: '' },
          },
        ],
      },
    ],
    jobErrors: [{ errorDetails: '', severity: '' }],
  });
  expect(job.inlinePayload).toEqual({ format: '', payload: [{ name: 'a.csv', data: '' }] });
});
