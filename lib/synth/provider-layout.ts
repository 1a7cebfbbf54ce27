import { TerraformStack } from 'cdktf';
import type { IConstruct } from 'constructs';
import { installProvider, lockEntry, writeLockEntry } from '../install';
import { addStackSynthesisStep } from './stack-synthesis';

const laidOut = new WeakSet<TerraformStack>();

/**
 * Makes the stack of `scope` lay the bundled provider out in its output
 * folder when it is synthesized: the plugin under `terraform.d/plugins/`
 * (Terraform's implied local mirror, so `terraform init` installs it offline
 * with no CLI configuration) and its entry in `.terraform.lock.hcl` (so init
 * neither warns nor asks a registry). Once per stack, a step of the stack's
 * synthesis (stack-synthesis.ts): after cdktf wrote the stack, into the folder
 * the manifest gives it.
 */
export function layOutProviderAtSynth(scope: IConstruct): void {
  const stack = TerraformStack.of(scope);
  if (laidOut.has(stack)) return;
  laidOut.add(stack);
  addStackSynthesisStep(stack, {
    write(dir: string): void {
      const installation = installProvider(dir, { layout: 'plugins' });
      writeLockEntry(dir, lockEntry(installation.package));
    },
  });
}
