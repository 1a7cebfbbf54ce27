import { wireBoolean, wireList, wireMessage, wireNumber, wireObject, wireString, wireStringMap, type WireObject } from './wire';
import type {
  ExecutionReport,
  FileValidationReport,
  ImportJobError,
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
 * Migration Center ImportJob JSON → `ImportJob`: `gcsPayload` becomes
 * `objectStoragePayload`; every field of the schema is a key of the result,
 * undefined where Google did not send it (at every level); unknown fields are ignored.
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
    executionReport: wireMessage(job.executionReport, executionReportFromWire),
    validationReport: wireMessage(job.validationReport, validationReportFromWire),
    objectStoragePayload: wireMessage(job.gcsPayload, objectStoragePayloadFromWire),
    inlinePayload: wireMessage(job.inlinePayload, inlinePayloadFromWire),
  };
}

function importErrorFromWire(json: unknown): ImportJobError {
  const error = wireObject(json);
  return { errorDetails: wireString(error.errorDetails), severity: wireString(error.severity) };
}

function rowErrorFromWire(json: unknown): ImportRowError {
  const row = wireObject(json);
  return {
    archiveError: wireMessage(row.archiveError, archiveErrorFromWire),
    assetTitle: wireString(row.assetTitle),
    csvError: wireMessage(row.csvError, csvErrorFromWire),
    errors: wireList(row.errors, importErrorFromWire),
    rowNumber: wireNumber(row.rowNumber),
    vmName: wireString(row.vmName),
    vmUuid: wireString(row.vmUuid),
    xlsxError: wireMessage(row.xlsxError, xlsxErrorFromWire),
  };
}

function csvErrorFromWire(details: WireObject): ImportRowErrorCsvErrorDetails {
  return { rowNumber: wireNumber(details.rowNumber) };
}

function xlsxErrorFromWire(details: WireObject): ImportRowErrorXlsxErrorDetails {
  return { rowNumber: wireNumber(details.rowNumber), sheet: wireString(details.sheet) };
}

function archiveErrorFromWire(details: WireObject): ImportRowErrorArchiveErrorDetails {
  return { csvError: wireMessage(details.csvError, csvErrorFromWire), filePath: wireString(details.filePath) };
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

function validationReportFromWire(report: WireObject): ValidationReport {
  return {
    fileValidations: wireList(report.fileValidations, fileValidationFromWire),
    jobErrors: wireList(report.jobErrors, importErrorFromWire),
  };
}

function executionReportFromWire(report: WireObject): ExecutionReport {
  return {
    executionErrors: wireMessage(report.executionErrors, validationReportFromWire),
    framesReported: wireNumber(report.framesReported),
    jobErrors: wireList(report.jobErrors, importErrorFromWire),
    totalRowsCount: wireNumber(report.totalRowsCount),
  };
}

function objectStoragePayloadFromWire(payload: WireObject): ObjectStoragePayloadInfo {
  return { format: wireString(payload.format), path: wireString(payload.path) };
}

function inlinePayloadFromWire(payload: WireObject): InlinePayloadInfo {
  return { format: wireString(payload.format), payload: wireList(payload.payload, payloadFileFromWire) };
}

function payloadFileFromWire(json: unknown): PayloadFile {
  const file = wireObject(json);
  return { name: wireString(file.name), data: wireString(file.data) };
}
