export * from './import-job';
export * from './data-import-job';
export * from './import-job-enums';
