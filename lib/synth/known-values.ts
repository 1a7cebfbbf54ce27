import { Token } from 'cdktf';

/** True unless the value is a Terraform token: synth-time checks skip what only apply time knows. */
export function isKnown(value: unknown): boolean {
  return value === undefined || !Token.isUnresolved(value);
}
