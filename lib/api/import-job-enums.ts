/**
 * The closed sets of values of Migration Center's import jobs (`v1alpha1`).
 * The API and the results carry them as strings; these enums name them, so
 * `job.state === ImportJobState.COMPLETED` reads as what it checks and each
 * language's IDE can offer them.
 */

/** Which parts of an import job `getImportJob` returns. */
export enum ImportJobView {
  /** Unspecified: Google's default applies, the full view ("Default value is FULL", importJobs.get). */
  UNSPECIFIED = 'IMPORT_JOB_VIEW_UNSPECIFIED',
  /** Everything but the execution and validation reports. */
  BASIC = 'IMPORT_JOB_VIEW_BASIC',
  /** Everything, the reports included. */
  FULL = 'IMPORT_JOB_VIEW_FULL',
}

/** The state of an import job. */
export enum ImportJobState {
  /** Unspecified. */
  UNSPECIFIED = 'IMPORT_JOB_STATE_UNSPECIFIED',
  /** Created, waiting to run. */
  PENDING = 'IMPORT_JOB_STATE_PENDING',
  /** Running. */
  RUNNING = 'IMPORT_JOB_STATE_RUNNING',
  /** Ran to completion. */
  COMPLETED = 'IMPORT_JOB_STATE_COMPLETED',
  /** Ran and failed. */
  FAILED = 'IMPORT_JOB_STATE_FAILED',
  /** Its data is being validated. */
  VALIDATING = 'IMPORT_JOB_STATE_VALIDATING',
  /** Its data failed validation. */
  FAILED_VALIDATION = 'IMPORT_JOB_STATE_FAILED_VALIDATION',
  /** Validated, ready to run. */
  READY = 'IMPORT_JOB_STATE_READY',
}

/** The format of an import job's payload. */
export enum ImportJobFormat {
  /** Unspecified. */
  UNSPECIFIED = 'IMPORT_JOB_FORMAT_UNSPECIFIED',
  /**
   * A configuration management database export.
   * @deprecated Google deprecates this format
   */
  CMDB = 'IMPORT_JOB_FORMAT_CMDB',
  /** RVTools, as an XLSX workbook. */
  RVTOOLS_XLSX = 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
  /** RVTools, as CSV files. */
  RVTOOLS_CSV = 'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
  /** An export from AWS, as CSV files. */
  EXPORTED_AWS_CSV = 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
  /** An export from Azure, as CSV files. */
  EXPORTED_AZURE_CSV = 'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
  /** CSV files written by hand in Migration Center's format. */
  MANUAL_CSV = 'IMPORT_JOB_FORMAT_MANUAL_CSV',
  /** A ZIP archive of database discovery files. */
  DATABASE_ZIP = 'IMPORT_JOB_FORMAT_DATABASE_ZIP',
}

/** How severe an import error is. */
export enum ImportErrorSeverity {
  /** Unspecified. */
  UNSPECIFIED = 'SEVERITY_UNSPECIFIED',
  /** An error: the data was not imported. */
  ERROR = 'ERROR',
  /** A warning: the data was imported, perhaps not as expected. */
  WARNING = 'WARNING',
  /** Information only. */
  INFO = 'INFO',
}
