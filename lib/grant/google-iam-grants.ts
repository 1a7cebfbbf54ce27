import {
  Annotations,
  DefaultTokenResolver,
  Lazy,
  StringConcat,
  TerraformResource,
  TerraformStack,
  Token,
  Tokenization,
  type TerraformResourceLifecycle,
} from 'cdktf';
import type { Construct, IConstruct } from 'constructs';
import type { Grant, IamResource } from '../iam/grant';
import { shortDigest } from '../iam/digest';
import { grantKey, PolicyIdentity } from '../iam/identity';
import { grantLabel, serializeGrant } from '../contract/grant';
import { RUNNER_ENV, TWINS_SEPARATOR } from '../contract/runner-env';
import { onRunnerUse, runnerAssetPath } from '../synth/runner-asset';
import { escapeTemplate, holdsTokens, stringLiteral, terraformExpression } from '../synth/terraform-expression';
import { DriftChecks, driftCheckName, type DriftGroup } from './drift-checks';
import { APPLIED_RESOURCE_NAME, GrantsApplied, withForEach } from './grants-applied';
import { GrantsRepair, REPAIR_RESOURCE_NAME } from './grants-repair';

/** The Terraform name of every stack's grants resource: `terraform_data.google_iam_grants`. */
export const GRANTS_RESOURCE_NAME = 'google_iam_grants';
const CONSTRUCT_ID = 'GoogleIamGrants';
/** Both grant resources iterate over the map of grants kept in a local value. */
const FOR_EACH_JSON = `\${local.${GRANTS_RESOURCE_NAME}}`;
const FOR_EACH_HCL = { value: `local.${GRANTS_RESOURCE_NAME}`, isBlock: false, type: 'simple', storageClassType: 'reference' };

interface Declared extends GrantOptions {
  readonly grant: Grant;
  readonly label: string;
}

interface Entry {
  readonly grant: Grant;
  readonly holdsTokens: boolean;
  readonly labels: string[];
  detectDrift: boolean;
  failPlanOnDrift: boolean;
}

/** Options of one grant in the stack's grants resource. @internal */
export interface GrantOptions {
  /** Whether the stack's drift check compares this grant with Google. */
  readonly detectDrift: boolean;
  /** Whether its drift fails the plan rather than warns. */
  readonly failPlanOnDrift: boolean;
}

/**
 * The one Terraform resource that holds every grant of a stack:
 * `terraform_data.google_iam_grants`, with one instance per grant
 * (`for_each`, keyed by what the grant is). Its destroy provisioner runs the
 * bundled runner's `remove`; each of its objects is applied (`apply`) by an
 * instance of `terraform_data.google_iam_grants_applied` (see
 * grants-applied.ts: why a failed apply must not taint this instance).
 *
 * Why one resource and not one per grant: Terraform runs a destroy-time
 * provisioner only from configuration that still contains it. A grant deleted
 * from the code removes its key from this map while the resource block stays,
 * so Terraform destroys that instance *with* its provisioner and the grant is
 * revoked. (A resource block deleted from the code is destroyed without one.)
 *
 * The key is the grant's identity (policy, role, condition and, for a member
 * grant, the principal), not the construct path: renaming or moving a
 * construct changes nothing in Terraform, and two constructs that grant the
 * same thing share one instance (revoked only when neither declares it). A
 * grant holding values only Terraform knows is keyed by the text of the
 * expressions that stand for them (`for_each` keys must be known when
 * planning, and e.g. a service account's email may not be).
 *
 * A change that keeps the key (a binding's members, a spelling) replaces the
 * instance with create_before_destroy: the new object's `apply` writes the new
 * state in one write, and Terraform destroys the replaced object without its
 * destroy provisioner, so nothing is revoked in between. The same holds for
 * `terraform apply -replace` and `terraform taint` (of either instance): they
 * re-apply the grant.
 *
 * The resource is in every stack of an app that uses this library anywhere
 * (a grant or a lookup in any stack), granting or not: so deleting a stack's
 * last grant leaves the block in place and Terraform revokes the grant. Only
 * an app that stops using the library altogether loses it (see the README,
 * "Lifecycle": keep `GoogleIamGrants.of(stack)` for that apply).
 */
export class GoogleIamGrants extends TerraformResource {
  /**
   * The stack's grants resource, created on first use. Call it yourself to
   * keep the (then empty) resource in a stack whose last grant you delete,
   * so that the next apply revokes what the deleted grants had granted.
   */
  public static of(scope: IConstruct): GoogleIamGrants {
    const stack = TerraformStack.of(scope);
    return (stack.node.tryFindChild(CONSTRUCT_ID) as GoogleIamGrants | undefined) ?? new GoogleIamGrants(stack, CONSTRUCT_ID);
  }

  /**
   * Whether `terraform plan` compares the stack's grants with Google and warns
   * about every difference (one read per policy per plan, through the
   * runner; needs the `hashicorp/external` provider). Set it to false to
   * leave the whole stack unchecked; a grant's own `detectDrift: false`
   * leaves out that grant.
   * @default true
   */
  public detectDrift = true;

  /**
   * Whether drift of any grant of the stack fails `terraform plan` (and
   * `cdktf diff`) instead of warning: the plan exits non-zero, also with
   * `-detailed-exitcode`, naming each drifted construct, role and principal
   * and the repair. A grant's own `failPlanOnDrift: true` does the same for
   * that grant (and the grants of the same policy are then read after any
   * pending apply of theirs).
   * @default false
   */
  public failPlanOnDrift = false;

  private readonly declared: Declared[] = [];
  private toldEmpty = false;
  private readonly warnedTwins = new Set<string>();
  private entriesByKey?: Map<string, Entry>;
  private twinsByKey?: Map<string, Array<[string, Entry]>>;
  private readonly runnerPath: string;

  private constructor(scope: Construct, id: string) {
    super(scope, id, { terraformResourceType: 'terraform_data', terraformGeneratorMetadata: { providerName: 'terraform' } });
    this.overrideLogicalId(GRANTS_RESOURCE_NAME);
    this.runnerPath = runnerAssetPath(this);
    this.lifecycle = {
      createBeforeDestroy: true,
      replaceTriggeredBy: [`terraform_data.${REPAIR_RESOURCE_NAME}`],
    } satisfies TerraformResourceLifecycle;
    new GrantsRepair(this, 'Repair');
    // A destroy-time provisioner reads only `self`.
    const environment = {
      [RUNNER_ENV.grant]: '${self.triggers_replace}',
      [RUNNER_ENV.label]: '${self.input}',
      [RUNNER_ENV.run]: '${plantimestamp()}',
    };
    this.provisioners = [{ type: 'local-exec', command: 'remove', interpreter: ['node', this.runnerPath], environment, when: 'destroy' }];
    new GrantsApplied(this, 'Applied', `terraform_data.${GRANTS_RESOURCE_NAME}`, this.runnerPath, {
      json: FOR_EACH_JSON,
      hcl: FOR_EACH_HCL,
    });
    new DriftChecks(
      this,
      'DriftChecks',
      () => this.driftGroups(),
      () => this.runnerPath,
      {
        grants: `terraform_data.${GRANTS_RESOURCE_NAME}`,
        grantsLocal: `local.${GRANTS_RESOURCE_NAME}`,
        applied: `terraform_data.${APPLIED_RESOURCE_NAME}`,
        repair: `terraform_data.${REPAIR_RESOURCE_NAME}`,
      },
    );
  }

  /**
   * Adds `grant`, declared by the construct `label` names, and returns the
   * Terraform address of its application
   * (`terraform_data.google_iam_grants_applied["<key>"]`: what depends on it
   * then waits until the grant is in Google), a token: keys of grants
   * holding tokens are only known at synth.
   * @internal
   */
  public _addGrant(grant: Grant, label: string, options: GrantOptions): string {
    this.declared.push({ grant, label, ...options });
    this.entriesByKey = undefined;
    this.twinsByKey = undefined;
    const index = this.declared.length - 1;
    return Lazy.stringValue({
      produce: () => `terraform_data.${APPLIED_RESOURCE_NAME}[${JSON.stringify(this.keyOf(this.declared[index].grant))}]`,
    });
  }

  /** How many distinct grants the stack holds. */
  public get grantCount(): number {
    return this.entries().size;
  }

  /**
   * Adds `for_each` to cdktf's rendering (cdktf renders its own `forEach`
   * meta-argument, left unset here, over any attribute of that name), over
   * the map of grants kept in a local value: Terraform evaluates a local once,
   * where a map written into `for_each` itself costs it time per instance
   * (measured: planning 100 grants took 3.2 s instead of 1.0 s).
   */
  public toTerraform(): any {
    this.coverEveryStack();
    const checks = this.twinChecks();
    return {
      ...withForEach(super.toTerraform(), this, FOR_EACH_JSON),
      locals: { [GRANTS_RESOURCE_NAME]: this.forEachJson() },
      ...(checks.length ? { check: Object.fromEntries(checks) } : {}),
    };
  }

  /**
   * For each pair of possible twins, a check block: `terraform plan` warns
   * when Terraform's values make them grant the same thing.
   */
  private twinChecks(): Array<[string, unknown]> {
    const checks: Array<[string, unknown]> = [];
    const entries = [...this.entries()];
    const position = new Map(entries.map(([key], i) => [key, i]));
    for (const [key, a] of entries) {
      for (const [otherKey, b] of this.twins().get(key) ?? []) {
        if (position.get(otherKey)! < position.get(key)!) continue; // each pair once, in declaration order
        // Named by the pair's grant keys: stable while both grants are declared.
        const name = `google_iam_twins_${shortDigest(JSON.stringify([key, otherKey]), 16)}`;
        const fields = (grant: Grant) => `lower(jsonencode(${terraformExpression(keyFields(grant), this)}))`;
        const message =
          `${a.labels.join(', ')} and ${b.labels.join(', ')} grant the same thing: deleting one keeps the grant while the other declares it ` +
          '(the runner checks at apply); declare it once';
        checks.push([
          name,
          { assert: [{ condition: `\${${fields(a.grant)} != ${fields(b.grant)}}`, error_message: escapeTemplate(message) }] },
        ]);
      }
    }
    return checks;
  }

  /** The same for `synthHcl` output. */
  public toHclTerraform(): any {
    this.coverEveryStack();
    const grants = { value: this.forEachHcl(), isBlock: false, type: 'any' };
    const rendered = withForEach(super.toHclTerraform(), this, FOR_EACH_HCL);
    // HCL takes a bare reference here; cdktf's renderer writes a string that starts with "[" as it is.
    const lifecycle = rendered.resource?.[this.terraformResourceType]?.[this.friendlyUniqueId]?.lifecycle;
    if (lifecycle) lifecycle.replace_triggered_by = `[terraform_data.${REPAIR_RESOURCE_NAME}]`;
    return { ...rendered, locals: { [GRANTS_RESOURCE_NAME]: grants } };
  }

  /** The instance's grant (replacing it re-applies the grant) and the constructs that declare it (updated in place). */
  protected synthesizeAttributes(): { [name: string]: unknown } {
    return { triggers_replace: '${each.value.grant}', input: '${each.value.label}' };
  }

  /** The same for `synthHcl` output. */
  protected synthesizeHclAttributes(): { [name: string]: unknown } {
    const simple = (value: string) => ({ value, isBlock: false, type: 'simple', storageClassType: 'string' });
    return { triggers_replace: simple('${each.value.grant}'), input: simple('${each.value.label}') };
  }

  /**
   * Puts the (maybe empty) grants resource into every stack of the app, when
   * it is rendered (all stacks exist by then): a stack whose last grant was
   * deleted keeps it, and the next apply revokes that grant.
   */
  private coverEveryStack(): void {
    for (const stack of this.node.root.node.findAll().filter(TerraformStack.isStack)) GoogleIamGrants.of(stack);
    if (this.entries().size === 0 && !this.toldEmpty) {
      this.toldEmpty = true;
      Annotations.of(this).addInfo(
        'This stack declares no grants; its (empty) grants resource stays so that deleting a last grant revokes it. ' +
          'If the whole app stops using cdktf-google-iam, keep GoogleIamGrants.of(stack) for one more apply (README, "Lifecycle").',
      );
    }
  }

  /** `{ "<key>": { grant: "<JSON>", label: "<constructs>" } }`; a grant holding tokens is `${jsonencode({...})}`. */
  private forEachJson(): Record<string, { grant: string; label: string }> {
    return Object.fromEntries(
      [...this.entries()].map(([key, entry]) => {
        const twins = this.twinsExpression(key, entry);
        return [
          key,
          {
            grant: entry.holdsTokens
              ? `\${jsonencode(${terraformExpression(entry.grant, this)})}`
              : escapeTemplate(serializeGrant(entry.grant)),
            label: twins
              ? `\${join("", [${stringLiteral(grantLabel(entry.labels))}, ${twins}])}`
              : escapeTemplate(grantLabel(entry.labels)),
          },
        ];
      }),
    );
  }

  /**
   * Grants of this stack that may grant the same thing as `entry` once
   * Terraform knows their values (one of them holds tokens, so they have
   * different keys), as the expression of the label's suffix: the runner's
   * `remove` keeps a grant that such a twin declared at the last apply (see
   * lib/runner/twins.ts). Warned about at synth.
   */
  private twinsExpression(key: string, entry: Entry): string | undefined {
    const twins = this.twins().get(key) ?? [];
    if (twins.length === 0) return undefined;
    if (!this.warnedTwins.has(key)) {
      this.warnedTwins.add(key);
      for (const [, twin] of twins)
        Annotations.of(this).addWarning(
          `${entry.labels.join(', ')} and ${twin.labels.join(', ')} may grant the same thing (a value only Terraform knows decides it). ` +
            'Deleting one keeps the grant while the other declares it; declare it once.',
        );
    }
    return `${stringLiteral(TWINS_SEPARATOR)}, jsonencode([${twins.map(([, twin]) => terraformExpression(twin.grant, this)).join(', ')}])`;
  }

  /**
   * cdktf's HCL renderer does not escape backslashes (nor quotes in strings
   * that hold `${`), so for HCL the map is one expression whose literal
   * strings travel base64-encoded: Terraform decodes them to the very same
   * values as the JSON output's.
   */
  private forEachHcl(): string {
    const items = [...this.entries()].map(([key, entry]) => {
      const grant = entry.holdsTokens
        ? `jsonencode(${terraformExpression(entry.grant, this)})`
        : base64Literal(serializeGrant(entry.grant));
      const twins = this.twinsExpression(key, entry);
      const label = base64Literal(grantLabel(entry.labels));
      return `${JSON.stringify(key)} = { grant = ${grant}, label = ${twins ? `join("", [${label}, ${twins}])` : label} }`;
    });
    return `\${{ ${items.join(', ')} }}`;
  }

  /**
   * Each grant's possible twins: the other grants that may grant the same
   * thing once Terraform knows their values. Only a grant holding tokens can
   * have one, so the search pairs those with every grant, not every grant
   * with every other (10,000 literal grants: no pair to look at).
   */
  private twins(): Map<string, Array<[string, Entry]>> {
    if (!this.twinsByKey) {
      const twins = new Map<string, Array<[string, Entry]>>();
      const add = (key: string, twin: [string, Entry]) => twins.set(key, [...(twins.get(key) ?? []), twin]);
      const entries = [...this.entries()];
      const withTokens = entries.filter(([, entry]) => entry.holdsTokens);
      const seen = new Set<string>();
      for (const [key, entry] of withTokens) {
        for (const [otherKey, other] of entries) {
          const pair = key < otherKey ? `${key}\n${otherKey}` : `${otherKey}\n${key}`;
          if (otherKey === key || seen.has(pair) || !mayGrantTheSame(entry.grant, other.grant)) continue;
          seen.add(pair);
          add(key, [otherKey, other]);
          add(otherKey, [key, entry]);
        }
      }
      // In declaration order, as the label lists them.
      const order = new Map(entries.map(([key], i) => [key, i]));
      for (const list of twins.values()) list.sort(([a], [b]) => order.get(a)! - order.get(b)!);
      this.twinsByKey = twins;
    }
    return this.twinsByKey;
  }

  /** Grants by key, in declaration order; two constructs that declare the same grant share an entry. */
  private entries(): Map<string, Entry> {
    if (!this.entriesByKey) {
      this.entriesByKey = new Map();
      for (const { grant, label, detectDrift, failPlanOnDrift } of this.declared) {
        const key = this.keyOf(grant);
        const entry = this.entriesByKey.get(key);
        if (entry) {
          entry.labels.push(label);
          entry.detectDrift ||= detectDrift;
          entry.failPlanOnDrift ||= failPlanOnDrift;
        } else {
          this.entriesByKey.set(key, { grant, holdsTokens: holdsTokens(grant), labels: [label], detectDrift, failPlanOnDrift });
        }
      }
    }
    return this.entriesByKey;
  }

  /**
   * The checked grants, by the policy they are on (its fields as Terraform
   * templates) and by whether their drift fails the plan: a policy with grants
   * of both kinds is read twice. A group is its check's name, so no two share
   * one; the first grant of a group says how the policy is read.
   */
  private driftGroups(): DriftGroup[] {
    if (!this.detectDrift) return [];
    const groups = new Map<string, { resource: IamResource; resourceHoldsTokens: boolean; keys: string[]; failPlan: boolean }>();
    for (const [key, entry] of this.entries()) {
      if (!entry.detectDrift) continue;
      const resource = resolvedText(escapeTemplates(entry.grant.resource), this);
      const failPlan = this.failPlanOnDrift || entry.failPlanOnDrift;
      const id = driftCheckName(resource, failPlan);
      const group = groups.get(id) ?? { resource, resourceHoldsTokens: holdsTokens(entry.grant.resource), keys: [], failPlan };
      group.keys.push(key);
      groups.set(id, group);
    }
    return [...groups.values()];
  }

  /** The grant's identity; for a grant holding tokens, over the expressions they stand for. */
  private keyOf(grant: Grant): string {
    return safeKey(grantKey(holdsTokens(grant) ? resolvedText(grant, this) : grant));
  }
}

/**
 * Whether two grants may hold the same thing once Terraform knows their
 * values: every field their keys are made of is equal, or a token on either side.
 */
function mayGrantTheSame(a: Grant, b: Grant): boolean {
  return a.mode === b.mode && mayBeEqual(keyFields(a), keyFields(b));
}

/** What a grant's key is made of, as values that may be tokens (persisted: the twin checks compare them in Terraform). */
function keyFields(grant: Grant): unknown {
  const where = PolicyIdentity.of(grant.resource).fields;
  if (grant.mode === 'member') return [where, grant.role, grant.member, grant.condition ?? null];
  if (grant.mode === 'binding') return [where, grant.role, grant.condition ?? null];
  return [where];
}

function mayBeEqual(a: unknown, b: unknown): boolean {
  if (Token.isUnresolved(a) || Token.isUnresolved(b)) return true;
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => mayBeEqual(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => mayBeEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

/**
 * The `for_each` key of a grant key (persisted: the instance's address). Map keys become part of
 * addresses users type (`-target`, `-replace`): keep them readable and quote-free.
 */
function safeKey(identity: string): string {
  if (/^[A-Za-z0-9/_.:@|+=,~*-]+$/.test(identity) && identity.length <= 400) return identity;
  const readable = identity.replace(/[^A-Za-z0-9/_.:@|+=,~*-]+/g, '_').slice(0, 200);
  return `${readable}#${shortDigest(identity, 12)}`;
}

/** Every string of a resource reference escaped for templates (tokens left as they are). */
function escapeTemplates(resource: IamResource): IamResource {
  return Object.fromEntries(
    Object.entries(resource).map(([k, v]) => [k, typeof v === 'string' ? escapeTemplate(v) : v]),
  ) as unknown as IamResource;
}

/** A copy of `value` with every token replaced by the text of its expression, e.g. `${var.member}`. */
function resolvedText<T>(value: T, scope: IConstruct): T {
  return Tokenization.resolve(value, { scope, preparing: false, resolver: new DefaultTokenResolver(new StringConcat()) }) as T;
}

function base64Literal(text: string): string {
  return `base64decode("${Buffer.from(text, 'utf8').toString('base64')}")`;
}

// A stack that uses the runner (a lookup, say) has a grants resource too, which renders it into every other stack.
onRunnerUse((stack) => GoogleIamGrants.of(stack));
