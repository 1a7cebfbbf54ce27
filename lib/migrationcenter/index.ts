// The import job's structs and constants live in lib/api, beside the client that reads them (the provider decodes them too).
export * from '../api/import-job-result';
export * from './data-import-job';
export * from '../api/import-job-enums';
