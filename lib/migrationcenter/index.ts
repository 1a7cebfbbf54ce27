export * from './import-job';
export * from './data-import-job';
