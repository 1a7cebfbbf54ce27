import { Fn, Token, type ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';
import { grantId, type Grant, type IamResource } from '../iam/grant';
import { validateGrantValues } from '../iam/grant-validation';
import { parseResourceName, type ResourceNameFormat } from '../iam/resource-name';
import type { ConditionInput } from '../iam/types';
import { namedPolicyQuery } from '../contract/read-query';
import { checkAt } from '../synth/errors';
import { RunnerRead } from '../synth/runner-read';
import { GoogleIamGrants } from './google-iam-grants';
import { GrantRegistry } from './grant-registry';
import type { IamCondition } from './iam-condition';
import type { IamGrantOptions } from './iam-grant-options';
import { isKnown } from '../synth/known-values';

/** Where a grant construct's policy lives. @internal */
export interface GrantTarget {
  /** The construct's class name, for messages: `AuthorizationPolicyIamMember`. */
  readonly typeName: string;
  readonly resource: IamResource;
  /** What `resource.name` must look like; undefined for the generic grants (any resource). */
  readonly nameFormat?: ResourceNameFormat;
}

/**
 * The shared body of every grant construct: validates what is known at synth,
 * registers the grant for the app-wide checks, and adds it to its stack's
 * grants resource (`terraform_data.google_iam_grants`, see
 * google-iam-grants.ts), whose provisioners run the bundled runner at
 * create (grant, from grants-applied.ts) and destroy (revoke) time.
 *
 * A grant is one instance of that resource, applied by one instance of
 * `terraform_data.google_iam_grants_applied`; its `fqn` is the address of
 * the latter, so what `dependsOn` a grant waits until it is in Google.
 *
 * jsii erases this base class: its public members appear on each grant construct.
 *
 * @internal
 */
export abstract class IamGrant extends Construct implements ITerraformDependable {
  /** Name of the resource whose IAM policy holds the grant. */
  public readonly name: string;
  /** The project the resource belongs to, taken from `name` (a Terraform expression when `name` is one). */
  public readonly project: string;
  /**
   * Terraform-style id: `{name}/{role}/{member}` for a member, `{name}/{role}` for a binding, `{name}` for a
   * policy; member and binding followed by `/{title}/{description}/{expression}` when conditional.
   */
  public readonly id: string;
  /**
   * The Terraform address of the grant's application, `terraform_data.google_iam_grants_applied["<key>"]`: what
   * `dependsOn`, `terraform apply -target` and `-replace` take. `terraform destroy -target` takes the grant's own
   * instance, `terraform_data.google_iam_grants["<key>"]`, whose destroy revokes it.
   */
  public readonly fqn: string;

  private readonly target: GrantTarget;
  private etagRead?: RunnerRead;

  protected constructor(scope: Construct, id: string, target: GrantTarget, grant: Grant, options: IamGrantOptions) {
    super(scope, id);
    this.target = target;
    this.name = target.resource.name;
    this.project = projectOf(this.name);
    if (isKnown(this.name) && target.nameFormat) checkAt(this, () => parseResourceName(this.name, target.nameFormat!, 'name'));
    checkAt(this, () => validateGrantValues(grant, isKnown));
    this.id = grantId(grant);
    const label = `${target.typeName} ${this.node.path}`;
    this.fqn = GoogleIamGrants.of(this)._addGrant(grant, label, {
      detectDrift: options.detectDrift ?? true,
      failPlanOnDrift: options.failPlanOnDrift ?? false,
    });
    GrantRegistry.of(this).register({ construct: this, typeName: target.typeName, grant });
  }

  /**
   * Etag of the resource's IAM policy, read after this grant is applied.
   *
   * Using it adds a plan-time read through the runner (Terraform's `external`
   * data source, which then needs the `hashicorp/external` provider) that
   * reads the policy once the grant exists; no credential reaches the plan or the state.
   */
  public get etag(): string {
    this.etagRead ??= new RunnerRead(this, 'PolicyEtag', {
      query: namedPolicyQuery(this.target.resource, '3'),
      dependsOn: [this],
    });
    return this.etagRead.field('etag');
  }
}

/** A condition as the grant carries it: only the three fields Google defines. @internal */
export function conditionOf(condition: IamCondition | undefined): ConditionInput | undefined {
  if (!condition) return undefined;
  const { expression, title, description } = condition;
  return description === undefined ? { expression, title } : { expression, title, description };
}

/** `projects/{project}/...` → project; a token name yields a token. */
function projectOf(name: string): string {
  if (!Token.isUnresolved(name)) return name.split('/')[1] ?? '';
  return Token.asString(Fn.element(Fn.split('/', name), 1));
}
