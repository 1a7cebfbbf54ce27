// The test tiers, as Jest projects (`npm test` runs them all; `npx jest --selectProjects unit` one):
// - unit: pure and in-process (lib/iam, the engine against an in-memory policy, synth); seconds.
// - integration: the emulator over real HTTP, real processes, the real `terraform` (with cdktf).
// - cdktn: the integration suites' real-terraform tests again, with CDK Terrain as the framework:
//   every `cdktf` import (the library's and the tests') resolves to `cdktn`.
// - package: the published packages (jsii assemblies, code generation, API docs, module layout).
// - jsii: the packed library (both flavours) driven through @jsii/runtime's kernel protocol, as Python, Java,
//   Go and .NET drive it (the runtime's tarball is fetched once into a cache folder; needs `npm run build`).
const base = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  rootDir: __dirname,
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json' }],
    // The CEL parser is an ES module; lib/iam loads it when dist/vendor/cel.js has not been built.
    '/node_modules/@marcbachmann/cel-js/.+\\.js$': '<rootDir>/test/support/esm-to-cjs.js',
  },
  transformIgnorePatterns: ['/node_modules/(?!@marcbachmann/cel-js/)'],
};

module.exports = {
  // Three test files at a time on two cores: most of an end-to-end file's time is spent waiting (on terraform,
  // its provider processes and the emulator's latency), and Jest's default (one worker per core but one) left the
  // second core mostly idle: one worker took 542 s for the whole suite on two cores, three take 264 s
  // (docs/development.md). Each file has its own emulator port, temp folders and terraform working directories.
  maxWorkers: 3,
  // Tests leave nothing in the system's temp dir: see test/support/temp-dir-global.js.
  globalSetup: '<rootDir>/test/support/temp-dir-setup.js',
  globalTeardown: '<rootDir>/test/support/temp-dir-teardown.js',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  projects: [
    {
      ...base,
      displayName: 'unit',
      roots: ['<rootDir>/test/unit'],
      testMatch: ['**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/provider-bundle.js',
    },
    { ...base, displayName: 'integration', roots: ['<rootDir>/test/integration'], testMatch: ['**/*.test.ts'] },
    {
      ...base,
      displayName: 'cdktn',
      roots: ['<rootDir>/test/integration'],
      testMatch: ['**/*.e2e.test.ts'],
      // The examples' CLI test drives the cdktf CLI in another process; the flavour's own package test covers cdktn's CLI.
      // The provider's own tests use hand-written configurations, no cdktf: once is enough.
      testPathIgnorePatterns: ['/test/integration/examples/', '/test/integration/provider/'],
      moduleNameMapper: { '^cdktf$': 'cdktn', '^cdktf/(.*)$': 'cdktn/$1' },
    },
    { ...base, displayName: 'package', roots: ['<rootDir>/test/package'], testMatch: ['**/*.test.ts'] },
    { ...base, displayName: 'jsii', roots: ['<rootDir>/test/jsii'], testMatch: ['**/*.test.ts'] },
  ],
};
