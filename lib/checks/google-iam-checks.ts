import { Annotations, TerraformProvider, TerraformStack, type IAspect } from 'cdktf';
import type { Construct, IConstruct } from 'constructs';
import { checkGrant, findingText, raisedFindings, separationOfDuties, type StackGrant } from '../iam/check-grant';
import { checkRule, validateAllowedDomain, validateRuleSetting, type CheckRuleSetting, type CheckSettings } from '../iam/check-rules';
import { declaredGrantOf } from '../grant/iam-grant';
import { checkAt, ConstructValidationError } from '../synth/errors';
import { holdsTokens, isKnown } from '../synth/known-values';
import { addStackSynthesisStep, appliesToStacksBelow } from '../synth/stack-synthesis';
import { suppressionsOf } from './iam-suppressions';
import { callerLanguage } from '../synth/caller-language';
import { writeReports, type ReportedGrant, type ReportSettings } from './iam-report';

/** What a rule of the IAM checks does with a finding. */
export enum IamCheckLevel {
  /** The finding fails `cdktf synth` (and, for values learned at apply, the apply). */
  ERROR = 'error',
  /** The finding is a warning (a cdktf annotation; at plan a Terraform warning). */
  WARNING = 'warning',
  /** The rule is not checked. */
  OFF = 'off',
}

/** The settings of `GoogleIamChecks`. */
export interface GoogleIamChecksProps {
  /**
   * The domains members may belong to, e.g. `['example.com']` (their subdomains too): a `user:`, `group:`,
   * `serviceAccount:` or `domain:` member of another domain is a GoogleIam-Domain finding (an error), as the
   * organization policy `constraints/iam.allowedPolicyMemberDomains` would refuse it at apply.
   * @default - members' domains are not checked
   */
  readonly allowedMemberDomains?: string[];
  /**
   * Rule levels that differ from the rules' own, by rule ID, e.g. `{ 'GoogleIam-BasicRole': IamCheckLevel.ERROR }`,
   * or `IamCheckLevel.OFF` to turn a rule off.
   * @default - every rule at its own level (docs/checks.md)
   */
  readonly rules?: { [ruleId: string]: IamCheckLevel };
  /**
   * Whether to write `iam-report.json`, `iam-report.md` and `iam-report.sarif` into each stack's output folder.
   * @default true
   */
  readonly reports?: boolean;
}

const TOOL = { ...packageOf(), informationUri: 'https://github.com/cdktf-google-iam/cdktf-google-iam' };
/** The provider's type name (GoogleIamProvider.tfResourceType). */
const PROVIDER_TYPE = 'googleiam';

/** Per stack: the grants judged, for its reports (whichever GoogleIamChecks judged them). */
const reportedByStack = new WeakMap<TerraformStack, ReportedGrant[]>();
/** Grants judged already: a second GoogleIamChecks over the same grant leaves it. */
const judged = new WeakSet<IConstruct>();

/**
 * Google's IAM security rules over every grant of this library, the way
 * cdk-nag checks AWS CDK apps: add it to the App (or a stack, or any
 * construct) as an Aspect.
 *
 * At synth, every role each grant gives each principal is judged by the
 * rules of docs/checks.md: an error-level finding fails `cdktf synth` with
 * the construct path, the rule ID, what was found and what to do; a
 * warning-level one is a cdktf warning with the same. `IamSuppressions`
 * accepts a finding with a reason. Each stack's folder gets
 * `iam-report.json`, `iam-report.md` (who gets what, for a pull request) and
 * `iam-report.sarif` (for GitHub code scanning), also when synth fails on an
 * error. Values only Terraform knows (tokens) are judged by the provider at
 * plan or apply: the aspect sets every `googleiam` provider block of the
 * stack to the same settings (`iam_checks = "enforce"`, the allowed domains,
 * the rules' levels) and each grant resource's `check_suppressions`.
 *
 * @exampleMetadata fixture=checks
 * @example
 * Aspects.of(app).add(new GoogleIamChecks({ allowedMemberDomains: ['example.com'] }));
 */
export class GoogleIamChecks implements IAspect {
  private readonly settings: CheckSettings;
  private readonly reports: boolean;
  private readonly rules: ReadonlyMap<string, CheckRuleSetting>;
  private readonly processed = new WeakSet<IConstruct>();

  /** @param props the allowed member domains, the rules' levels, and whether to write reports */
  constructor(props: GoogleIamChecksProps = {}) {
    const where = 'GoogleIamChecks';
    const domains = props.allowedMemberDomains ?? [];
    if (!Array.isArray(domains)) throw new ConstructValidationError(where, 'allowedMemberDomains', domains, 'expected a list of domains');
    const allowedMemberDomains = domains.map((d, i) => checkAt(where, () => validateAllowedDomain(d, `allowedMemberDomains[${i}]`)));
    const rules = new Map<string, CheckRuleSetting>();
    for (const [id, level] of Object.entries(props.rules ?? {}))
      rules.set(
        id,
        checkAt(where, () => validateRuleSetting(id, level, 'rules')),
      );
    this.rules = rules;
    this.settings = { allowedMemberDomains, rules };
    this.reports = props.reports ?? true;
    appliesToStacksBelow(this);
  }

  /**
   * Judges the grants under `node` (when it is the first node visited in its stack's tree: the stack, for an
   * aspect of the App or the stack), and sets a `googleiam` provider block's check settings.
   *
   * @param node the construct cdktf visits
   */
  public visit(node: IConstruct): void {
    if (TerraformProvider.isTerraformProvider(node) && node.terraformResourceType === PROVIDER_TYPE) this.configureProvider(node);
    // Judged with a scope above it (allocation-free: cdktf visits every node of the stack).
    for (let scope: IConstruct | undefined = node; scope; scope = scope.node.scope) if (this.processed.has(scope)) return;
    let stack: TerraformStack;
    try {
      stack = TerraformStack.of(node);
    } catch {
      return; // above the stacks (cdktf never visits them; called by hand)
    }
    this.processed.add(node);
    this.judge(node, stack);
  }

  private judge(scope: IConstruct, stack: TerraformStack): void {
    const now = new Date();
    const grants: (StackGrant & { readonly construct: IConstruct; readonly reported: ReportedGrant })[] = [];
    for (const construct of scope.node.findAll()) {
      const declared = declaredGrantOf(construct as Construct);
      if (!declared || judged.has(construct)) continue;
      judged.add(construct);
      const where = construct.node.path;
      const suppressions = suppressionsOf(construct);
      // Token checks only where there are tokens: a stack of 10,000 literal grants is judged at once.
      const tokens = holdsTokens(declared.grant);
      const check = checkGrant(declared.grant, { settings: this.settings, now, ...(tokens ? { isKnown } : {}), suppressions });
      const { resource } = declared;
      const reported: ReportedGrant = {
        constructPath: where,
        address: `${resource.terraformResourceType}.${resource.friendlyUniqueId}`,
        resourceType: resource.terraformResourceType,
        construct: declared.typeName,
        service: !tokens || isKnown(declared.grant.resource.service) ? declared.grant.resource.service : 'known at apply',
        kind: declared.grant.mode,
        check,
      };
      grants.push({ check, where, suppressions, construct, reported });
    }
    if (grants.length === 0) return;
    separationOfDuties(grants, this.settings);
    for (const g of grants) {
      for (const finding of raisedFindings(g.check)) {
        const message = `${g.where}: ${findingText(finding)} To accept it: ${suppressionCall(finding.rule)}`;
        if (finding.level === 'error') Annotations.of(g.construct).addError(message);
        else Annotations.of(g.construct).addWarning(message);
      }
      this.carrySuppressions(g);
    }
    let reported = reportedByStack.get(stack);
    if (!reported) {
      reported = [];
      reportedByStack.set(stack, reported);
      if (this.reports) {
        const list = reported;
        const options: ReportSettings = { settings: this.settings, tool: TOOL };
        addStackSynthesisStep(stack, {
          alsoOnErrorAnnotations: true,
          write: (dir) => writeReports(dir, stack.node.id, list, options),
        });
      }
    }
    reported.push(...grants.map((g) => g.reported));
  }

  /**
   * The suppressions the provider needs for this grant, as its resource's `check_suppressions`: those of rules
   * it judges (not the stack's) that found something here, or all of them when a value is known only at apply.
   */
  private carrySuppressions(g: StackGrant & { readonly construct: IConstruct }): void {
    const suppressions = g.suppressions ?? new Map<string, string>();
    const found = new Set(g.check.entries.flatMap((e) => e.findings.map((f) => f.rule)));
    const carried = [...suppressions].filter(([id]) => checkRule(id)?.scope === 'grant' && (g.check.pending || found.has(id)));
    if (carried.length === 0) return;
    declaredGrantOf(g.construct as Construct)!.resource.addOverride('check_suppressions', Object.fromEntries(carried));
  }

  /** The provider judges what synth could not with the same settings: error-level findings refused at apply. */
  private configureProvider(provider: TerraformProvider): void {
    provider.addOverride('iam_checks', 'enforce');
    const domains = this.settings.allowedMemberDomains ?? [];
    if (domains.length > 0) provider.addOverride('allowed_member_domains', [...domains]);
    if (this.rules.size > 0) provider.addOverride('iam_check_rules', Object.fromEntries(this.rules));
  }
}

/** The package's name and version (cdktf-google-iam, or the CDK Terrain flavour's cdktn-google-iam). */
function packageOf(): { name: string; version: string } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { name, version } = require('../../package.json') as { name: string; version: string };
  return { name, version };
}

/** The call that accepts a finding of `rule`, written in the calling language. */
function suppressionCall(rule: string): string {
  const language = callerLanguage();
  const suppression = language.struct('IamSuppression', { id: rule, reason: '<why>' });
  return language.staticCall('IamSuppressions', 'addSuppressions', [
    '<this grant or a scope above it>',
    language.list('IamSuppression', [suppression]),
  ]);
}
