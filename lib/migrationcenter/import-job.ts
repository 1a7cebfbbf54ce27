/** An error found while validating or running an import job. */
export interface ImportError {
  readonly errorDetails: string;
  /** `SEVERITY_UNSPECIFIED`, `ERROR`, `WARNING` or `INFO`. */
  readonly severity: string;
}

/** A row that failed validation. */
export interface ImportRowError {
  readonly errors: ImportError[];
  readonly rowNumber: number;
  readonly vmName: string;
  readonly vmUuid: string;
}

/** Errors found in one file. */
export interface FileValidationReport {
  readonly fileErrors: ImportError[];
  readonly fileName: string;
  /** True if processing stopped because the maximum number of errors was reached. */
  readonly partialReport: boolean;
  readonly rowErrors: ImportRowError[];
}

/** Validation results (every field present; lists empty when the API sent none). */
export interface ValidationReport {
  readonly fileValidations: FileValidationReport[];
  readonly jobErrors: ImportError[];
}

/** Results of running the job (every field present; zero or empty when the API sent none). */
export interface ExecutionReport {
  readonly executionErrors: ValidationReport;
  readonly framesReported: number;
  /** @deprecated use `executionErrors.jobErrors` */
  readonly jobErrors: ImportError[];
  readonly totalRowsCount: number;
}

/** The payload is in Cloud Storage (the wire's `gcsPayload`). */
export interface ObjectStoragePayloadInfo {
  /** e.g. `IMPORT_JOB_FORMAT_RVTOOLS_CSV`. */
  readonly format: string;
  /** e.g. `gs://bucket/inventory.csv`. */
  readonly path: string;
}

/** One file of an inline payload. */
export interface PayloadFile {
  readonly name: string;
  /** File content, base64-encoded. */
  readonly data: string;
}

/** The payload was included in the request. */
export interface InlinePayloadInfo {
  readonly format: string;
  readonly payload: PayloadFile[];
}

/**
 * A Migration Center import job (`v1alpha1`). Every field is always present:
 * what the API leaves out reads as `''` (strings), `0` (numbers), `false`,
 * `[]` (lists) or `{}` (labels), and a missing report or payload reads as one
 * whose fields are all empty. The basic view (`IMPORT_JOB_VIEW_BASIC`) leaves
 * the reports out, so there they are empty. Fields the API adds later are ignored.
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
  /** e.g. `IMPORT_JOB_STATE_COMPLETED`. */
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
