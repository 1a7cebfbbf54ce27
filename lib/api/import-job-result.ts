/** An error found while validating or running an import job. */
export interface ImportError {
  /** What went wrong. */
  readonly errorDetails: string;
  /** `SEVERITY_UNSPECIFIED`, `ERROR`, `WARNING` or `INFO` (see {@link ImportErrorSeverity}). */
  readonly severity: string;
}

/** Where in a CSV file a row error was found. */
export interface ImportRowErrorCsvErrorDetails {
  /** The row number where the error was detected. */
  readonly rowNumber: number;
}

/** Where in an XLSX workbook a row error was found. */
export interface ImportRowErrorXlsxErrorDetails {
  /** The row number where the error was detected. */
  readonly rowNumber: number;
  /** The name of the sheet where the error was detected. */
  readonly sheet: string;
}

/** Where in an archive (e.g. a database ZIP) a row error was found. */
export interface ImportRowErrorArchiveErrorDetails {
  /** Where in the file inside the archive, when it is a CSV file. */
  readonly csvError: ImportRowErrorCsvErrorDetails;
  /** The path of the file inside the archive where the error was detected. */
  readonly filePath: string;
}

/** A row that failed validation. */
export interface ImportRowError {
  /** Where in an archive the row is (empty when the payload is not one). */
  readonly archiveError: ImportRowErrorArchiveErrorDetails;
  /** The asset title. */
  readonly assetTitle: string;
  /** Where in a CSV file the row is (empty when the payload is not one). */
  readonly csvError: ImportRowErrorCsvErrorDetails;
  /** The errors found in the row. */
  readonly errors: ImportError[];
  /**
   * The row's number in its file.
   * @deprecated Google deprecates it: use `csvError.rowNumber`, `xlsxError.rowNumber` or `archiveError.csvError.rowNumber`
   */
  readonly rowNumber: number;
  /** The name of the virtual machine the row describes. */
  readonly vmName: string;
  /** The UUID of the virtual machine the row describes. */
  readonly vmUuid: string;
  /** Where in an XLSX workbook the row is (empty when the payload is not one). */
  readonly xlsxError: ImportRowErrorXlsxErrorDetails;
}

/** Errors found in one file. */
export interface FileValidationReport {
  /** Errors that concern the whole file. */
  readonly fileErrors: ImportError[];
  /** The file's name. */
  readonly fileName: string;
  /** True if processing stopped because the maximum number of errors was reached. */
  readonly partialReport: boolean;
  /** Rows that failed validation (a partial list when `partialReport`). */
  readonly rowErrors: ImportRowError[];
}

/** Validation results (every field present; lists empty when the API sent none). */
export interface ValidationReport {
  /** Per file: the errors found in it. */
  readonly fileValidations: FileValidationReport[];
  /** Errors that concern the whole job. */
  readonly jobErrors: ImportError[];
}

/** Results of running the job (every field present; zero or empty when the API sent none). */
export interface ExecutionReport {
  /** Validation errors found while the job ran. */
  readonly executionErrors: ValidationReport;
  /** How many asset frames the job reported. */
  readonly framesReported: number;
  /**
   * Errors that concern the whole job.
   * @deprecated use `executionErrors.jobErrors`
   */
  readonly jobErrors: ImportError[];
  /** How many rows the job's files held. */
  readonly totalRowsCount: number;
}

/** The payload is in Cloud Storage (the wire's `gcsPayload`). */
export interface ObjectStoragePayloadInfo {
  /** The payload's format, e.g. `IMPORT_JOB_FORMAT_RVTOOLS_CSV` (see {@link ImportJobFormat}). */
  readonly format: string;
  /** Where the payload is, e.g. `gs://bucket/inventory.csv`. */
  readonly path: string;
}

/** One file of an inline payload. */
export interface PayloadFile {
  /** The file's name. */
  readonly name: string;
  /** File content, base64-encoded. */
  readonly data: string;
}

/** The payload was included in the request. */
export interface InlinePayloadInfo {
  /** The payload's format, e.g. `IMPORT_JOB_FORMAT_MANUAL_CSV` (see {@link ImportJobFormat}). */
  readonly format: string;
  /** The files of the payload. */
  readonly payload: PayloadFile[];
}

/**
 * A Migration Center import job (`v1alpha1`). Every field is always present:
 * what the API leaves out reads as `''` (strings), `0` (numbers), `false`,
 * `[]` (lists) or `{}` (labels), and a missing report or payload reads as one
 * whose fields are all empty. The basic view (`IMPORT_JOB_VIEW_BASIC`) leaves
 * the reports out, so there they are empty; without a view Google returns the
 * full view. Fields the API adds later are ignored.
 */
export interface ImportJob {
  /** `projects/{project}/locations/{location}/importJobs/{id}`. */
  readonly name: string;
  /** User-friendly name, at most 63 characters. */
  readonly displayName: string;
  /** The source the job imports into, `projects/{p}/locations/{l}/sources/{id}`. */
  readonly assetSource: string;
  /** When the job was created (RFC 3339). */
  readonly createTime: string;
  /** When the job was last updated (RFC 3339). */
  readonly updateTime: string;
  /** When the job completed (RFC 3339); `''` until then. */
  readonly completeTime: string;
  /** Labels as key-value pairs. */
  readonly labels: { [key: string]: string };
  /** The job's state, e.g. `IMPORT_JOB_STATE_COMPLETED` (see {@link ImportJobState}). */
  readonly state: string;
  /** Results of running the job; empty in the basic view. */
  readonly executionReport: ExecutionReport;
  /** Validation results; empty in the basic view. */
  readonly validationReport: ValidationReport;
  /** The Cloud Storage payload (the wire's `gcsPayload`); empty when the payload is not there. */
  readonly objectStoragePayload: ObjectStoragePayloadInfo;
  /** The inline payload; empty when the payload was not sent inline. */
  readonly inlinePayload: InlinePayloadInfo;
}
