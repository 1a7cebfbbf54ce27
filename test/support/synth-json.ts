import { Testing, type TerraformStack } from 'cdktf';

/** A stack's synthesized JSON configuration, parsed. */
export function synthJson(stack: TerraformStack): Record<string, any> {
  return JSON.parse(Testing.synth(stack));
}

/** The resources (or, with `data`, the data sources) of one type in a stack's configuration, by Terraform name. */
export function blocksOf(stack: TerraformStack, type: string, kind: 'resource' | 'data' = 'resource'): Record<string, any> {
  return synthJson(stack)[kind]?.[type] ?? {};
}
