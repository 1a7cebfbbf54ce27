/**
 * Testing helpers for stacks that use cdktf-google-iam: a local Google API
 * emulator that the grant runner and the lookups talk to over real HTTP.
 * TypeScript/JavaScript only (see the README, "Testing your stacks").
 */
export * from './emulator';
export * from './terraform-provider-external';
export * from './terraform-cli';
