import * as path from 'path';
import { TerraformStack, type IStackSynthesizer, type ISynthesisSession } from 'cdktf';
import type { IConstruct } from 'constructs';
import { installProvider, lockEntry, writeLockEntry } from '../install';

const laidOut = new WeakSet<TerraformStack>();

/**
 * Makes the stack of `scope` lay the bundled provider out in its output
 * folder when it is synthesized: the plugin under `terraform.d/plugins/`
 * (Terraform's implied local mirror, so `terraform init` installs it offline
 * with no CLI configuration) and its entry in `.terraform.lock.hcl` (so init
 * neither warns nor asks a registry). Once per stack.
 *
 * cdktf has no public API that writes a file at a chosen path of a stack's
 * folder: `TerraformAsset` copies into `assets/<id>/<hash>/`, and
 * `addCustomSynthesis` is not exported (by cdktf nor cdktn). So the stack's
 * public `synthesizer` is wrapped: the original writes the stack, then the
 * provider is written into the folder the manifest gives the stack.
 */
export function layOutProviderAtSynth(scope: IConstruct): void {
  const stack = TerraformStack.of(scope);
  if (laidOut.has(stack)) return;
  laidOut.add(stack);
  const original: IStackSynthesizer = stack.synthesizer;
  stack.synthesizer = {
    synthesize(session: ISynthesisSession): void {
      original.synthesize(session);
      const dir = path.join(session.outdir, session.manifest.forStack(stack).workingDirectory);
      const installation = installProvider(dir, { layout: 'plugins' });
      writeLockEntry(dir, lockEntry(installation.package));
    },
  };
}
