// Jest projects: the whole suite with cdktf, and the end-to-end suites again
// with CDK Terrain (cdktn) as the framework, every `cdktf` import (the
// library's and the tests') resolved to `cdktn`: the same real-terraform
// tests under both frameworks.
const base = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/test'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }] },
};

module.exports = {
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    { ...base, displayName: 'cdktf', testMatch: ['**/*.test.ts'] },
    {
      ...base,
      displayName: 'cdktn',
      // The examples' CLI test drives the cdktf CLI in another process; the flavour's own test covers cdktn's CLI.
      testMatch: ['**/*.e2e.test.ts'],
      testPathIgnorePatterns: ['/test/examples/'],
      moduleNameMapper: { '^cdktf$': 'cdktn', '^cdktf/(.*)$': 'cdktn/$1' },
    },
  ],
};
