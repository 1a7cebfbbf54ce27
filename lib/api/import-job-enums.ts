/**
 * The closed sets of values of Migration Center's import jobs (`v1alpha1`), as string constants.
 *
 * Not jsii enums: a jsii enum carries its member names only, so from Python `ImportJobView.BASIC` would be
 * `'BASIC'`, not Google's `'IMPORT_JOB_VIEW_BASIC'`, and a job's `state` (a string) would never equal
 * `ImportJobState.COMPLETED`. Constants are the wire values in every language: `view=ImportJobView.BASIC`
 * works and `job.state == ImportJobState.COMPLETED` holds, from TypeScript, Python, Java, C# and Go alike; and a
 * value Google adds later still arrives, as a string.
 */

/** Which parts of an import job `getImportJob` returns: the values of its `view` argument. */
export class ImportJobView {
  /** Unspecified: Google's default applies, the full view ("Default value is FULL", importJobs.get). */
  public static readonly UNSPECIFIED = 'IMPORT_JOB_VIEW_UNSPECIFIED';
  /** Everything but the execution and validation reports. */
  public static readonly BASIC = 'IMPORT_JOB_VIEW_BASIC';
  /** Everything, the reports included. */
  public static readonly FULL = 'IMPORT_JOB_VIEW_FULL';

  private constructor() {}
}

/** The values of an import job's `state`. */
export class ImportJobState {
  /** Unspecified. */
  public static readonly UNSPECIFIED = 'IMPORT_JOB_STATE_UNSPECIFIED';
  /** Created, waiting to run. */
  public static readonly PENDING = 'IMPORT_JOB_STATE_PENDING';
  /** Running. */
  public static readonly RUNNING = 'IMPORT_JOB_STATE_RUNNING';
  /** Ran to completion. */
  public static readonly COMPLETED = 'IMPORT_JOB_STATE_COMPLETED';
  /** Ran and failed. */
  public static readonly FAILED = 'IMPORT_JOB_STATE_FAILED';
  /** Its data is being validated. */
  public static readonly VALIDATING = 'IMPORT_JOB_STATE_VALIDATING';
  /** Its data failed validation. */
  public static readonly FAILED_VALIDATION = 'IMPORT_JOB_STATE_FAILED_VALIDATION';
  /** Validated, ready to run. */
  public static readonly READY = 'IMPORT_JOB_STATE_READY';

  private constructor() {}
}

/** The values of an import data file's `format`. */
export class ImportJobFormat {
  /** Unspecified. */
  public static readonly UNSPECIFIED = 'IMPORT_JOB_FORMAT_UNSPECIFIED';
  /**
   * A configuration management database export.
   * @deprecated Google deprecates this format
   */
  public static readonly CMDB = 'IMPORT_JOB_FORMAT_CMDB';
  /** RVTools, as an XLSX workbook. */
  public static readonly RVTOOLS_XLSX = 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX';
  /** RVTools, as CSV files. */
  public static readonly RVTOOLS_CSV = 'IMPORT_JOB_FORMAT_RVTOOLS_CSV';
  /** An export from AWS, as CSV files. */
  public static readonly EXPORTED_AWS_CSV = 'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV';
  /** An export from Azure, as CSV files. */
  public static readonly EXPORTED_AZURE_CSV = 'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV';
  /** CSV files written by hand in Migration Center's format. */
  public static readonly MANUAL_CSV = 'IMPORT_JOB_FORMAT_MANUAL_CSV';
  /** A ZIP archive of database discovery files. */
  public static readonly DATABASE_ZIP = 'IMPORT_JOB_FORMAT_DATABASE_ZIP';

  private constructor() {}
}

/** The values of an import error's `severity`. */
export class ImportErrorSeverity {
  /** Unspecified. */
  public static readonly UNSPECIFIED = 'SEVERITY_UNSPECIFIED';
  /** An error: the data was not imported. */
  public static readonly ERROR = 'ERROR';
  /** A warning: the data was imported, perhaps not as expected. */
  public static readonly WARNING = 'WARNING';
  /** Information only. */
  public static readonly INFO = 'INFO';

  private constructor() {}
}
