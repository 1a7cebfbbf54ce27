import { Aspects, TerraformProvider, TerraformStack } from 'cdktf';
import type { IConstruct } from 'constructs';
import { GoogleIamProvider } from '../provider-bindings/google-iam-provider.generated';
import { layOutProviderAtSynth } from '../synth/provider-layout';

const DEFAULT_PROVIDER_ID = 'GoogleIamDefaultProvider';
const covered = new WeakSet<TerraformStack>();

/**
 * Called by every construct of this library: its stack gets the `googleiam`
 * provider (a default provider block and its required_providers entry) with
 * no user code, unless the user declared a default one of their own, before
 * or after the constructs. Decided when the stack is synthesized (an aspect:
 * cdktf runs aspects in `app.synth()` and in its `Testing` helpers alike), so
 * declaration order does not matter and no stack gets two defaults.
 */
export function useGoogleIamProvider(scope: IConstruct): void {
  const stack = TerraformStack.of(scope);
  if (covered.has(stack)) return;
  covered.add(stack);
  layOutProviderAtSynth(stack);
  Aspects.of(stack).add({
    visit(node: IConstruct): void {
      if (node === stack && !hasDefaultProvider(stack)) new GoogleIamProvider(stack, DEFAULT_PROVIDER_ID);
    },
  });
}

function hasDefaultProvider(stack: TerraformStack): boolean {
  return stack.node
    .findAll()
    .some(
      (c) =>
        TerraformProvider.isTerraformProvider(c) && c.terraformResourceType === GoogleIamProvider.tfResourceType && c.alias === undefined,
    );
}
