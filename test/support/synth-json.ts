import { DefaultTokenResolver, StringConcat, Testing, Tokenization, type TerraformStack } from 'cdktf';

/** A stack's synthesized JSON configuration, parsed. */
export function synthJson(stack: TerraformStack): Record<string, any> {
  return JSON.parse(Testing.synth(stack));
}

/** The configuration of the resource a construct declares, found by the construct's `fqn` (`type.name`). */
export function resourceOf(stack: TerraformStack, construct: { readonly fqn: string }): Record<string, any> {
  const address = String(Tokenization.resolve(construct.fqn, { scope: stack, resolver: new DefaultTokenResolver(new StringConcat()) }));
  const [type, name] = address.replace(/^\$\{|\}$/g, '').split('.');
  return synthJson(stack).resource[type][name];
}
