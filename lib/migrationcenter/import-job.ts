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
 * A Migration Center import job (SPEC.md 2.6). Strings the API leaves out
 * are `''`, lists `[]`, maps `{}`; the reports and payloads are absent when
 * the API sent none (the basic view leaves the reports out).
 */
export interface ImportJob {
  /** `projects/{project}/locations/{location}/importJobs/{id}`. */
  readonly name: string;
  readonly displayName: string;
  readonly assetSource: string;
  readonly createTime: string;
  readonly updateTime: string;
  readonly completeTime: string;
  readonly labels: { [key: string]: string };
  /** e.g. `IMPORT_JOB_STATE_COMPLETED`. */
  readonly state: string;
  /** @default - absent in the basic view */
  readonly executionReport?: ExecutionReport;
  /** @default - absent in the basic view */
  readonly validationReport?: ValidationReport;
  /** @default - absent unless the payload is in Cloud Storage */
  readonly objectStoragePayload?: ObjectStoragePayloadInfo;
  /** @default - absent unless the payload was sent inline */
  readonly inlinePayload?: InlinePayloadInfo;
}
