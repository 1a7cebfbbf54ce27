/**
 * A stand-in of the hashicorp/external Terraform provider, for running
 * Terraform offline in tests (see README.md beside this file).
 */
export * from './install';
