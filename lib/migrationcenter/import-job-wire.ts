import { wireBoolean, wireList, wireNumber, wireObject, wireOptional, wireString, wireStringMap } from '../lookups/wire';
import type {
  ExecutionReport, FileValidationReport, ImportError, ImportJob, ImportRowError, InlinePayloadInfo, ObjectStoragePayloadInfo, PayloadFile, ValidationReport,
} from './import-job';

/** Migration Center ImportJob JSON → {@link ImportJob}; `gcsPayload` becomes `objectStoragePayload`, unknown fields are ignored. */
export function importJobFromWire(json: unknown): ImportJob {
  const job = wireObject(json);
  const optional = {
    executionReport: wireOptional(job.executionReport, executionReportFromWire),
    validationReport: wireOptional(job.validationReport, validationReportFromWire),
    objectStoragePayload: wireOptional(job.gcsPayload, objectStoragePayloadFromWire),
    inlinePayload: wireOptional(job.inlinePayload, inlinePayloadFromWire),
  };
  return {
    name: wireString(job.name),
    displayName: wireString(job.displayName),
    assetSource: wireString(job.assetSource),
    createTime: wireString(job.createTime),
    updateTime: wireString(job.updateTime),
    completeTime: wireString(job.completeTime),
    labels: wireStringMap(job.labels),
    state: wireString(job.state),
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
  };
}

function importErrorFromWire(json: unknown): ImportError {
  const error = wireObject(json);
  return { errorDetails: wireString(error.errorDetails), severity: wireString(error.severity) };
}

function rowErrorFromWire(json: unknown): ImportRowError {
  const row = wireObject(json);
  return { errors: wireList(row.errors, importErrorFromWire), rowNumber: wireNumber(row.rowNumber), vmName: wireString(row.vmName), vmUuid: wireString(row.vmUuid) };
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

function validationReportFromWire(json: unknown): ValidationReport {
  const report = wireObject(json);
  return { fileValidations: wireList(report.fileValidations, fileValidationFromWire), jobErrors: wireList(report.jobErrors, importErrorFromWire) };
}

function executionReportFromWire(json: unknown): ExecutionReport {
  const report = wireObject(json);
  return {
    executionErrors: validationReportFromWire(report.executionErrors),
    framesReported: wireNumber(report.framesReported),
    jobErrors: wireList(report.jobErrors, importErrorFromWire),
    totalRowsCount: wireNumber(report.totalRowsCount),
  };
}

function objectStoragePayloadFromWire(json: unknown): ObjectStoragePayloadInfo {
  const payload = wireObject(json);
  return { format: wireString(payload.format), path: wireString(payload.path) };
}

function inlinePayloadFromWire(json: unknown): InlinePayloadInfo {
  const payload = wireObject(json);
  return { format: wireString(payload.format), payload: wireList(payload.payload, payloadFileFromWire) };
}

function payloadFileFromWire(json: unknown): PayloadFile {
  const file = wireObject(json);
  return { name: wireString(file.name), data: wireString(file.data) };
}
