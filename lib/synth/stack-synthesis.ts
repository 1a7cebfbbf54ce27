import * as path from 'path';
import { Aspects, TerraformStack, type IAspect, type IStackSynthesizer, type ISynthesisSession } from 'cdktf';
import type { IConstruct } from 'constructs';

/**
 * What this library does around cdktf's synthesis of a stack. cdktf has no
 * public API that writes a file at a chosen path of a stack's folder
 * (`TerraformAsset` copies into `assets/<id>/<hash>/`; `addCustomSynthesis` is
 * not exported, by cdktf nor cdktn), so the stack's public `synthesizer` is
 * wrapped, once per stack: the original writes the stack, then each step
 * writes into the folder the manifest gives the stack (the provider's layout,
 * the IAM reports).
 *
 * cdktf invokes only the aspects of the stack and of what is under it (an
 * aspect added to the App is never invoked); the wrapper adds to the stack,
 * before cdktf synthesizes it, the aspects marked `appliesToStacksBelow` that
 * were added to a construct above it (GoogleIamChecks added to the App).
 */

/** A step of a stack's synthesis: writes into the stack's folder `dir`. */
export interface StackSynthesisStep {
  /**
   * Whether it runs also when cdktf refused the stack for its error annotations (after making the folder and
   * collecting the annotations, before writing cdk.tf.json). @default false
   */
  readonly alsoOnErrorAnnotations?: boolean;
  write(dir: string, refused: boolean): void;
}

/** The level of an error annotation in the manifest (cdktf's and cdktn's AnnotationMetadataEntryType.ERROR). */
const ERROR_ANNOTATION = '@cdktf/error';
const steps = new WeakMap<TerraformStack, StackSynthesisStep[]>();
const stackAspects = new WeakSet<IAspect>();

/** Marks an aspect that, added to a construct above a stack (the App), is applied to each stack of this library's constructs. */
export function appliesToStacksBelow(aspect: IAspect): void {
  stackAspects.add(aspect);
}

/** Adds `step` to the synthesis of the stack of `scope`, after the steps added before (also during the synthesis: aspects add theirs). */
export function addStackSynthesisStep(scope: IConstruct, step: StackSynthesisStep): void {
  const stack = TerraformStack.of(scope);
  let list = steps.get(stack);
  if (!list) {
    list = [];
    steps.set(stack, list);
    wrap(stack, list);
  }
  list.push(step);
}

function wrap(stack: TerraformStack, list: readonly StackSynthesisStep[]): void {
  const original: IStackSynthesizer = stack.synthesizer;
  stack.synthesizer = {
    synthesize(session: ISynthesisSession): void {
      adoptStackAspects(stack);
      const stackManifest = session.manifest.forStack(stack);
      const dir = path.join(session.outdir, stackManifest.workingDirectory);
      try {
        original.synthesize(session);
      } catch (error) {
        // cdktf throws for error annotations once it has collected them into the manifest.
        const refused = (stackManifest.annotations ?? []).some((a) => String(a.level) === ERROR_ANNOTATION);
        if (refused) for (const step of list.filter((s) => s.alsoOnErrorAnnotations)) step.write(dir, true);
        throw error;
      }
      for (const step of list) step.write(dir, false);
    },
  };
}

/** Adds to the stack the marked aspects of the constructs above it that it does not have yet. */
function adoptStackAspects(stack: TerraformStack): void {
  const own = Aspects.of(stack);
  for (const scope of stack.node.scopes.slice(0, -1)) {
    for (const aspect of Aspects.of(scope).all) {
      if (stackAspects.has(aspect) && !own.all.includes(aspect)) own.add(aspect);
    }
  }
}
