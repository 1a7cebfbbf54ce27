import type { IConstruct } from 'constructs';
import { validateSuppression } from '../iam/check-rules';
import { callerLanguage, callerMethod } from '../synth/caller-language';
import { checkAt, ConstructValidationError } from '../synth/errors';

/** A finding of the IAM checks that is accepted, and why. */
export interface IamSuppression {
  /** The rule's ID, e.g. `GoogleIam-Public` (docs/checks.md lists the rules). */
  readonly id: string;
  /** Why the finding is accepted, for the reviewer who reads the report: at least 10 characters. */
  readonly reason: string;
}

const suppressionsByScope = new WeakMap<IConstruct, Map<string, string>>();

/**
 * Accepts findings of the IAM checks (`GoogleIamChecks`) on a grant, or on
 * any construct or stack to cover every grant under it, each with the reason.
 * A suppressed finding is not raised (no error, no warning, at synth or in
 * the provider), but the reports keep it with its reason.
 *
 * @exampleMetadata fixture=checks
 * @example
 * const publicByDesign: IamSuppression = { id: 'GoogleIam-Public', reason: 'the status page is public by design' };
 * IamSuppressions.addSuppressions(statusPage, [publicByDesign]);
 */
export class IamSuppressions {
  /**
   * Accepts the findings of `suppressions` on `scope` and every grant under it (a suppression on a grant wins over
   * one of the same rule above it). An unknown rule ID, or a reason of fewer than 10 characters, throws at once,
   * naming the construct.
   *
   * @param scope a grant, or a construct or stack above grants
   * @param suppressions the rules' IDs and the reasons
   */
  public static addSuppressions(scope: IConstruct, suppressions: IamSuppression[]): void {
    const where = scope?.node?.path ?? callerMethod('IamSuppressions', 'addSuppressions');
    if (!Array.isArray(suppressions)) {
      const language = callerLanguage();
      const example = language.list('IamSuppression', [language.struct('IamSuppression', { id: 'GoogleIam-Public', reason: '<why>' })]);
      throw new ConstructValidationError(where, 'suppressions', suppressions, `expected a list of IamSuppression, e.g. ${example}`);
    }
    const checked = suppressions.map((s, i) => {
      const { id, reason } = typeof s === 'object' && s !== null ? s : ({} as IamSuppression);
      return [id, checkAt(where, () => validateSuppression(id, reason, `suppressions[${i}]`))] as const;
    });
    let own = suppressionsByScope.get(scope);
    if (!own) {
      own = new Map();
      suppressionsByScope.set(scope, own);
    }
    for (const [id, reason] of checked) own.set(id, reason);
  }

  private constructor() {}
}

const NONE: ReadonlyMap<string, string> = new Map();

/** The suppressions that cover `construct`: its own and its scopes', the nearest first to set a rule. @internal */
export function suppressionsOf(construct: IConstruct): ReadonlyMap<string, string> {
  let found: Map<string, string> | undefined;
  for (let scope: IConstruct | undefined = construct; scope; scope = scope.node.scope) {
    const own = suppressionsByScope.get(scope);
    if (!own) continue;
    found ??= new Map();
    for (const [id, reason] of own) if (!found.has(id)) found.set(id, reason);
  }
  return found ?? NONE;
}
