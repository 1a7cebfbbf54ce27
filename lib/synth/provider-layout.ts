import { Annotations, CloudBackend, RemoteBackend, TerraformStack } from 'cdktf';
import type { IConstruct } from 'constructs';
import type * as Install from '../install';
import { ConstructValidationError } from './errors';
import { unsupportedNodeWarning } from './node-version';
import { addStackSynthesisStep } from './stack-synthesis';

const laidOut = new WeakSet<TerraformStack>();

/**
 * The app context key listing the platforms, besides this machine's, whose provider executable each
 * stack gets (Terraform's names, e.g. `["linux_amd64", "darwin_arm64"]`, or one comma-separated string
 * as `cdktf synth --context` gives it): the machines that run `terraform` for the stacks.
 */
export const PROVIDER_PLATFORMS_CONTEXT = 'googleiam:providerPlatforms';

/** The installer, loaded when a stack is written: loading the library stays close to loading cdktf (bench/). */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const install = (): typeof Install => require('../install') as typeof Install;

/**
 * Makes the stack of `scope` lay the provider out in its output folder when it
 * is synthesized: its native executable under `terraform.d/plugins/`
 * (Terraform's implied local mirror, so `terraform init` installs it offline
 * with no CLI configuration) for this machine's platform, linux_amd64 when the
 * stack's runs are remote (a CloudBackend or RemoteBackend: HCP Terraform runs
 * plans on Linux x86_64 machines, with the folder uploaded as it is), and the
 * platforms PROVIDER_PLATFORMS_CONTEXT lists; and its entry in
 * `.terraform.lock.hcl`, with the hashes of every platform (so init neither
 * warns nor asks a registry, on any machine). Once per stack, a step of the
 * stack's synthesis (stack-synthesis.ts), into the folder the manifest gives it.
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
      const installation = installProvider(dir, { layout: 'plugins', platforms: stackPlatforms(stack) });
      writeLockEntry(dir, lockEntry(installation.package));
    },
  });
}

/** The platforms `stack` gets an executable for: this machine's, the remote runs', the context's. */
function stackPlatforms(stack: TerraformStack): string[] {
  const { terraformPlatform, REMOTE_RUN_PLATFORM, SUPPORTED_PLATFORMS } = install();
  const platforms = [terraformPlatform()];
  if (stack.node.findAll().some((c) => c instanceof CloudBackend || c instanceof RemoteBackend)) platforms.push(REMOTE_RUN_PLATFORM);
  const listed: unknown = stack.node.tryGetContext(PROVIDER_PLATFORMS_CONTEXT);
  if (listed === undefined) return platforms;
  const names = typeof listed === 'string' ? listed.split(',').map((name) => name.trim()) : listed;
  if (!Array.isArray(names) || names.some((name) => typeof name !== 'string' || !SUPPORTED_PLATFORMS.includes(name))) {
    throw new ConstructValidationError(
      stack.node.path,
      `context ${PROVIDER_PLATFORMS_CONTEXT}`,
      listed,
      `expected a list of the platforms the provider has an executable for: ${SUPPORTED_PLATFORMS.join(', ')}`,
    );
  }
  return [...new Set([...platforms, ...(names as string[])])];
}
