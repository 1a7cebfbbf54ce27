import { Annotations, TerraformStack } from 'cdktf';
import type { IConstruct } from 'constructs';
import type * as Install from '../install';
import { unsupportedNodeWarning } from './node-version';
import { addStackSynthesisStep } from './stack-synthesis';

const laidOut = new WeakSet<TerraformStack>();

/** The installer, loaded when a stack is written: loading the library stays close to loading cdktf (bench/). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const install = (): typeof Install => require('../install') as typeof Install;

/**
 * Makes the stack of `scope` lay the bundled provider out in its output
 * folder when it is synthesized: the plugin under `terraform.d/plugins/`
 * (Terraform's implied local mirror, so `terraform init` installs it offline
 * with no CLI configuration) and its entry in `.terraform.lock.hcl` (so init
 * neither warns nor asks a registry). Once per stack, a step of the stack's
 * synthesis (stack-synthesis.ts): after cdktf wrote the stack, into the folder
 * the manifest gives it. On a Node.js older than the provider runs on, the
 * stack gets a warning (node-version.ts).
 */
export function layOutProviderAtSynth(scope: IConstruct): void {
  const stack = TerraformStack.of(scope);
  if (laidOut.has(stack)) return;
  laidOut.add(stack);
  const oldNode = unsupportedNodeWarning();
  if (oldNode) Annotations.of(stack).addWarning(oldNode);
  addStackSynthesisStep(stack, {
    write(dir: string): void {
      const { installProvider, lockEntry, writeLockEntry } = install();
      const installation = installProvider(dir, { layout: 'plugins' });
      writeLockEntry(dir, lockEntry(installation.package));
    },
  });
}
