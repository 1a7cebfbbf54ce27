import { DefaultTokenResolver, StringConcat, Tokenization } from 'cdktf';
import type { IConstruct } from 'constructs';

/** What Terraform will see for `value` (a token or a structure holding tokens) in `scope`'s stack. */
export function resolveIn(scope: IConstruct, value: unknown): unknown {
  return Tokenization.resolve(value, { scope, preparing: false, resolver: new DefaultTokenResolver(new StringConcat()) });
}
