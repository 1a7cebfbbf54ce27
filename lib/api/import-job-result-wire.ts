import { wireBoolean, wireList, wireNumber, wireObject, wireString, wireStringMap } from './wire';
import type {
  ExecutionReport,
  FileValidationReport,
  ImportError,
  ImportJob,
  ImportRowError,
  ImportRowErrorArchiveErrorDetails,
  ImportRowErrorCsvErrorDetails,
  ImportRowErrorXlsxErrorDetails,
  InlinePayloadInfo,
  ObjectStoragePayloadInfo,
  PayloadFile,
  ValidationReport,
} from './import-job-result';

/**
 * Migration Center ImportJob JSON → {@link ImportJob}: `gcsPayload` becomes
 * `objectStoragePayload`, missing parts become empty ones, unknown fields are
 * ignored. Each mapper accepts `undefined`, so `xFromWire(undefined)` is the
 * empty value of its struct (the Output form uses it as its fallback too).
 */
export function importJobFromWire(json: unknown): ImportJob {
  const job = wireObject(json);
  return {
    name: wireString(job.name),
    displayName: wireString(job.displayName),
    assetSource: wireString(job.assetSource),
    createTime: wireString(job.createTime),
    updateTime: wireString(job.updateTime),
    completeTime: wireString(job.completeTime),
    labels: wireStringMap(job.labels),
    state: wireString(job.state),
    executionReport: executionReportFromWire(job.executionReport),
    validationReport: validationReportFromWire(job.validationReport),
    objectStoragePayload: objectStoragePayloadFromWire(job.gcsPayload),
    inlinePayload: inlinePayloadFromWire(job.inlinePayload),
  };
}

function importErrorFromWire(json: unknown): ImportError {
  const error = wireObject(json);
  return { errorDetails: wireString(error.errorDetails), severity: wireString(error.severity) };
}

function rowErrorFromWire(json: unknown): ImportRowError {
  const row = wireObject(json);
  return {
    archiveError: archiveErrorFromWire(row.archiveError),
    assetTitle: wireString(row.assetTitle),
    csvError: csvErrorFromWire(row.csvError),
    errors: wireList(row.errors, importErrorFromWire),
    rowNumber: wireNumber(row.rowNumber),
    vmName: wireString(row.vmName),
    vmUuid: wireString(row.vmUuid),
    xlsxError: xlsxErrorFromWire(row.xlsxError),
  };
}

function csvErrorFromWire(json: unknown): ImportRowErrorCsvErrorDetails {
  return { rowNumber: wireNumber(wireObject(json).rowNumber) };
}

function xlsxErrorFromWire(json: unknown): ImportRowErrorXlsxErrorDetails {
  const details = wireObject(json);
  return { rowNumber: wireNumber(details.rowNumber), sheet: wireString(details.sheet) };
}

function archiveErrorFromWire(json: unknown): ImportRowErrorArchiveErrorDetails {
  const details = wireObject(json);
  return { csvError: csvErrorFromWire(details.csvError), filePath: wireString(details.filePath) };
}

function fileValidationFromWire(json: unknown): FileValidationReport {
  const file = wireObject(json);
  return {
    fileErrors: wireList(file.fileErrors, importErrorFromWire),
    fileName: wireString(file.fileName),
    partialReport: wireBoolean(file.partialReport),
    rowErrors: wireList(file.rowErrors, rowErrorFromWire),
  };
}

/** ValidationReport JSON → {@link ValidationReport}. */
export function validationReportFromWire(json: unknown): ValidationReport {
  const report = wireObject(json);
  return {
    fileValidations: wireList(report.fileValidations, fileValidationFromWire),
    jobErrors: wireList(report.jobErrors, importErrorFromWire),
  };
}

/** ExecutionReport JSON → {@link ExecutionReport}. */
export function executionReportFromWire(json: unknown): ExecutionReport {
  const report = wireObject(json);
  return {
    executionErrors: validationReportFromWire(report.executionErrors),
    framesReported: wireNumber(report.framesReported),
    jobErrors: wireList(report.jobErrors, importErrorFromWire),
    totalRowsCount: wireNumber(report.totalRowsCount),
  };
}

/** `gcsPayload` JSON → {@link ObjectStoragePayloadInfo}. */
export function objectStoragePayloadFromWire(json: unknown): ObjectStoragePayloadInfo {
  const payload = wireObject(json);
  return { format: wireString(payload.format), path: wireString(payload.path) };
}

/** `inlinePayload` JSON → {@link InlinePayloadInfo}. */
export function inlinePayloadFromWire(json: unknown): InlinePayloadInfo {
  const payload = wireObject(json);
  return { format: wireString(payload.format), payload: wireList(payload.payload, payloadFileFromWire) };
}

function payloadFileFromWire(json: unknown): PayloadFile {
  const file = wireObject(json);
  return { name: wireString(file.name), data: wireString(file.data) };
}
