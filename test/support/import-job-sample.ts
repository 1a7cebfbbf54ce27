/**
 * A Migration Center import job (v1alpha1) with every field Google publishes
 * set, in every nested message, as the API returns it; and what the library
 * makes of it. For the tests that check the lookups return all of it.
 */
export const FULL_JOB_NAME = 'projects/demo-project/locations/us-central1/importJobs/everything';

const importError = (severity: string) => ({ errorDetails: `a ${severity.toLowerCase()}`, severity });

/** The wire JSON. */
export const FULL_JOB_WIRE = {
  name: FULL_JOB_NAME,
  displayName: 'Everything',
  assetSource: 'projects/demo-project/locations/us-central1/sources/rvtools',
  createTime: '2026-11-01T10:00:00Z',
  updateTime: '2026-11-01T11:00:00Z',
  completeTime: '2026-11-01T12:00:00Z',
  labels: { team: 'migration' },
  state: 'IMPORT_JOB_STATE_FAILED_VALIDATION',
  executionReport: {
    executionErrors: { fileValidations: [], jobErrors: [importError('INFO')] },
    framesReported: 7,
    jobErrors: [importError('WARNING')],
    totalRowsCount: 9,
  },
  validationReport: {
    fileValidations: [
      {
        fileName: 'inventory.zip',
        partialReport: true,
        fileErrors: [importError('ERROR')],
        rowErrors: [
          {
            archiveError: { csvError: { rowNumber: 4 }, filePath: 'db/hosts.csv' },
            assetTitle: 'orders-db',
            csvError: { rowNumber: 5 },
            errors: [importError('SEVERITY_UNSPECIFIED')],
            rowNumber: 6,
            vmName: 'vm-1',
            vmUuid: '4c4c4544-0042',
            xlsxError: { rowNumber: 7, sheet: 'vInfo' },
          },
        ],
      },
    ],
    jobErrors: [],
  },
  gcsPayload: { format: 'IMPORT_JOB_FORMAT_DATABASE_ZIP', path: 'gs://inventory/db.zip' },
  inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'hosts.csv', data: 'aG9zdA==' }] },
};

/** The same job as the lookups return it: `gcsPayload` is `objectStoragePayload`, nothing else renamed or lost. */
export const FULL_JOB = (() => {
  const { gcsPayload, ...rest } = FULL_JOB_WIRE;
  return { ...rest, objectStoragePayload: gcsPayload };
})();
