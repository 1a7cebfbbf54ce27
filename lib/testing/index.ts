/**
 * `cdktf-google-iam/testing`: helpers for testing stacks that use
 * cdktf-google-iam: a local Google API emulator that the provider and the
 * lookups talk to over real HTTP, and `terraform` run without blocking it.
 * TypeScript/JavaScript only (see the README, "Testing your stacks").
 */
export * from './emulator';
export * from './terraform-cli';
