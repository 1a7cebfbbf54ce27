/*
 * A Migration Center import job (`v1alpha1`) as the lookups return it: every
 * field of Google's schema, each absent (undefined; None, null or nil in the
 * other languages) when Google did not send it, as the API leaves out what is
 * empty or does not apply. So a CSV error and an XLSX error stay apart: a row
 * error carries the details of the file it comes from and no others.
 */

/**
 * An error found while validating or running an import job (Google's `ImportError`, renamed: that name is Python's
 * builtin exception, which `from cdktf_google_iam import *` would shadow).
 */
export interface ImportJobError {
  /**
   * What went wrong.
   * @default - absent: Google did not send it
   */
  readonly errorDetails?: string;
  /**
   * `SEVERITY_UNSPECIFIED`, `ERROR`, `WARNING` or `INFO` (see `ImportErrorSeverity`).
   * @default - absent: Google did not send it
   */
  readonly severity?: string;
}

/** Where in a CSV file a row error was found. */
export interface ImportRowErrorCsvErrorDetails {
  /**
   * The row number where the error was detected.
   * @default - absent: Google did not send it
   */
  readonly rowNumber?: number;
}

/** Where in an XLSX workbook a row error was found. */
export interface ImportRowErrorXlsxErrorDetails {
  /**
   * The row number where the error was detected.
   * @default - absent: Google did not send it
   */
  readonly rowNumber?: number;
  /**
   * The name of the sheet where the error was detected.
   * @default - absent: Google did not send it
   */
  readonly sheet?: string;
}

/** Where in an archive (e.g. a database ZIP) a row error was found. */
export interface ImportRowErrorArchiveErrorDetails {
  /**
   * Where in the file inside the archive, when it is a CSV file.
   * @default - absent: Google did not send it
   */
  readonly csvError?: ImportRowErrorCsvErrorDetails;
  /**
   * The path of the file inside the archive where the error was detected.
   * @default - absent: Google did not send it
   */
  readonly filePath?: string;
}

/** A row that failed validation. */
export interface ImportRowError {
  /**
   * Where in an archive the row is.
   * @default - absent: the row is not in an archive, or Google did not say
   */
  readonly archiveError?: ImportRowErrorArchiveErrorDetails;
  /**
   * The asset title.
   * @default - absent: Google did not send it
   */
  readonly assetTitle?: string;
  /**
   * Where in a CSV file the row is.
   * @default - absent: the row is not in a CSV file, or Google did not say
   */
  readonly csvError?: ImportRowErrorCsvErrorDetails;
  /**
   * The errors found in the row.
   * @default - absent: Google did not send any
   */
  readonly errors?: ImportJobError[];
  /**
   * The row's number in its file.
   * @default - absent: Google did not send it
   * @deprecated Google deprecates it: use `csvError.rowNumber`, `xlsxError.rowNumber` or `archiveError.csvError.rowNumber`
   */
  readonly rowNumber?: number;
  /**
   * The name of the virtual machine the row describes.
   * @default - absent: Google did not send it
   */
  readonly vmName?: string;
  /**
   * The UUID of the virtual machine the row describes.
   * @default - absent: Google did not send it
   */
  readonly vmUuid?: string;
  /**
   * Where in an XLSX workbook the row is.
   * @default - absent: the row is not in an XLSX workbook, or Google did not say
   */
  readonly xlsxError?: ImportRowErrorXlsxErrorDetails;
}

/** Errors found in one file. */
export interface FileValidationReport {
  /**
   * Errors that concern the whole file.
   * @default - absent: Google did not send any
   */
  readonly fileErrors?: ImportJobError[];
  /**
   * The file's name.
   * @default - absent: Google did not send it
   */
  readonly fileName?: string;
  /**
   * True if processing stopped because the maximum number of errors was reached.
   * @default - absent: Google did not send it
   */
  readonly partialReport?: boolean;
  /**
   * Rows that failed validation (a partial list when `partialReport`).
   * @default - absent: Google did not send any
   */
  readonly rowErrors?: ImportRowError[];
}

/** Validation results. */
export interface ValidationReport {
  /**
   * Per file: the errors found in it.
   * @default - absent: Google did not send any
   */
  readonly fileValidations?: FileValidationReport[];
  /**
   * Errors that concern the whole job.
   * @default - absent: Google did not send any
   */
  readonly jobErrors?: ImportJobError[];
}

/** Results of running the job. */
export interface ExecutionReport {
  /**
   * Validation errors found while the job ran.
   * @default - absent: Google did not send it
   */
  readonly executionErrors?: ValidationReport;
  /**
   * How many asset frames the job reported.
   * @default - absent: Google did not send it
   */
  readonly framesReported?: number;
  /**
   * Errors that concern the whole job.
   * @default - absent: Google did not send any
   * @deprecated use `executionErrors.jobErrors`
   */
  readonly jobErrors?: ImportJobError[];
  /**
   * How many rows the job's files held.
   * @default - absent: Google did not send it
   */
  readonly totalRowsCount?: number;
}

/** The payload is in Cloud Storage (the wire's `gcsPayload`). */
export interface ObjectStoragePayloadInfo {
  /**
   * The payload's format, e.g. `IMPORT_JOB_FORMAT_RVTOOLS_CSV` (see `ImportJobFormat`).
   * @default - absent: Google did not send it
   */
  readonly format?: string;
  /**
   * Where the payload is, e.g. `gs://bucket/inventory.csv`.
   * @default - absent: Google did not send it
   */
  readonly path?: string;
}

/** One file of an inline payload. */
export interface PayloadFile {
  /**
   * The file's name.
   * @default - absent: Google did not send it
   */
  readonly name?: string;
  /**
   * File content, base64-encoded.
   * @default - absent: Google did not send it
   */
  readonly data?: string;
}

/** The payload was included in the request. */
export interface InlinePayloadInfo {
  /**
   * The payload's format, e.g. `IMPORT_JOB_FORMAT_MANUAL_CSV` (see `ImportJobFormat`).
   * @default - absent: Google did not send it
   */
  readonly format?: string;
  /**
   * The files of the payload.
   * @default - absent: Google did not send any
   */
  readonly payload?: PayloadFile[];
}

/**
 * A Migration Center import job (`v1alpha1`). A field Google did not send is
 * absent, at every level: the basic view (`IMPORT_JOB_VIEW_BASIC`) leaves the
 * reports out, a job has one payload, a row error the details of its own
 * file. Without a view Google returns the full view. Fields the API adds later
 * are ignored.
 */
export interface ImportJob {
  /**
   * `projects/{project}/locations/{location}/importJobs/{id}`.
   * @default - absent: Google did not send it
   */
  readonly name?: string;
  /**
   * User-friendly name, at most 63 characters.
   * @default - absent: Google did not send it
   */
  readonly displayName?: string;
  /**
   * The source the job imports into, `projects/{p}/locations/{l}/sources/{id}`.
   * @default - absent: Google did not send it
   */
  readonly assetSource?: string;
  /**
   * When the job was created (RFC 3339).
   * @default - absent: Google did not send it
   */
  readonly createTime?: string;
  /**
   * When the job was last updated (RFC 3339).
   * @default - absent: Google did not send it
   */
  readonly updateTime?: string;
  /**
   * When the job completed (RFC 3339).
   * @default - absent: the job has not completed
   */
  readonly completeTime?: string;
  /**
   * Labels as key-value pairs.
   * @default - absent: the job has no labels
   */
  readonly labels?: { [key: string]: string };
  /**
   * The job's state, e.g. `IMPORT_JOB_STATE_COMPLETED` (see `ImportJobState`).
   * @default - absent: Google did not send it
   */
  readonly state?: string;
  /**
   * Results of running the job.
   * @default - absent: the basic view, or a job that has not run
   */
  readonly executionReport?: ExecutionReport;
  /**
   * Validation results.
   * @default - absent: the basic view, or a job not validated yet
   */
  readonly validationReport?: ValidationReport;
  /**
   * The Cloud Storage payload (the wire's `gcsPayload`).
   * @default - absent: the payload is not in Cloud Storage
   */
  readonly objectStoragePayload?: ObjectStoragePayloadInfo;
  /**
   * The inline payload.
   * @default - absent: the payload was not sent inline
   */
  readonly inlinePayload?: InlinePayloadInfo;
}
