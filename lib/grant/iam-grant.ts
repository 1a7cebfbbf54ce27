import { Fn, TerraformResource, Token, anyToHclTerraform, anyToTerraform, stringToHclTerraform } from 'cdktf';
import type { Construct } from 'constructs';
import { checkConditionAllowed, validateCondition } from '../iam/condition';
import { IamValidationError } from '../iam/errors';
import { parseGrantPrincipal } from '../iam/principal';
import { parseResourceName } from '../iam/resource-name';
import { validateRole } from '../iam/role';
import { GoogleRestRead } from '../lookups/google-rest-read';
import { checkAt, validationMessage } from './errors';
import { isKnown } from './known-values';
import { GrantRegistry } from './grant-registry';
import { grantId, type GrantSpec } from './grant-spec';
import { grantTrigger } from './grant-trigger';
import type { IamCondition } from './iam-condition';
import type { GrantResourceType } from './resource-type';
import { runnerAssetPath } from './runner-asset';
import { RunnerProvisioners } from './runner-provisioners';

/** What a concrete grant construct hands to the shared base. */
export interface IamGrantOptions {
  readonly typeName: string;
  readonly type: GrantResourceType;
  readonly mode: 'member' | 'binding';
  readonly name: string;
  readonly role: string;
  readonly members: string[];
  readonly condition?: IamCondition;
  /** The props field that holds the principals, for error messages. */
  readonly membersField: 'member' | 'members';
}

/**
 * The shared body of every grant construct: validates what is known at synth,
 * registers the grant for the app-wide checks, and is itself one
 * `terraform_data` whose local-exec provisioners run the bundled runner at
 * create (grant) and destroy (revoke) time. Being the resource (not wrapping
 * one) keeps the Terraform address short (`terraform_data.<id>`), lets other
 * resources `dependsOn` a grant, and saves cdktf a construct per grant.
 *
 * It synthesizes `terraform_data` as cdktf's DataResource does, minus
 * DataResource's synth-time check of the Terraform version: that check spawns
 * `terraform version` once per resource (about 40 ms each, 40 s for 1,000
 * grants), and Terraform older than 1.4 refuses `terraform_data` by itself.
 *
 * @internal jsii erases this base class: its public members appear on each grant construct.
 */
export abstract class IamGrant extends TerraformResource {
  /** Name of the resource whose IAM policy holds the grant. */
  public readonly name: string;
  /** The role that is granted. */
  public readonly role: string;
  /**
   * The IAM condition of the binding.
   * @default - unconditional
   */
  public readonly condition?: IamCondition;
  /**
   * Terraform-style id: `{name}/{role}/{member}` for a member, `{name}/{role}`
   * for a binding, each followed by `/{title}/{description}/{expression}` when conditional.
   */
  public readonly id: string;
  /** The project the resource belongs to, taken from `name`. */
  public readonly project: string;

  private readonly policyType: GrantResourceType;
  private readonly triggersReplace: string | object;
  private readonly runner: RunnerProvisioners;
  private etagRead?: GoogleRestRead;

  protected constructor(scope: Construct, id: string, options: IamGrantOptions) {
    super(scope, id, { terraformResourceType: 'terraform_data', terraformGeneratorMetadata: { providerName: 'terraform' } });
    const { type, mode, name, role, members, condition } = options;
    this.validateOptions(options);

    this.name = name;
    this.role = role;
    this.condition = condition;
    this.policyType = type;
    this.project = projectOf(name);
    const spec: GrantSpec = { type: type.key, mode, resource: name, role, members, condition: condition && { ...condition } };
    this.id = grantId(spec);

    GrantRegistry.of(this).register({ construct: this, typeName: options.typeName, mode, resource: name, role, members, condition });

    const { triggersReplace, specExpression } = grantTrigger({ ...spec, label: `${options.typeName} ${this.node.path}` });
    this.triggersReplace = triggersReplace;
    this.runner = new RunnerProvisioners(runnerAssetPath(this), specExpression);
    this.node.addValidation({ validate: () => this.checkSingleInstance() });
  }

  /**
   * Etag of the resource's IAM policy, read after this grant is applied.
   *
   * Using it adds an `http` data source (and the google and http providers,
   * if the stack lacks them) that reads the policy once the grant exists.
   */
  public get etag(): string {
    this.etagRead ??= new GoogleRestRead(this, 'PolicyEtag', {
      service: this.policyType.service,
      path: `${this.policyType.apiVersion}/${this.name}:getIamPolicy`,
      query: { 'options.requestedPolicyVersion': '3' },
      dependsOn: [this],
    });
    return this.etagRead.field('etag');
  }

  /**
   * Adds the runner's provisioners (see runner-provisioners.ts) to cdktf's
   * rendering; `provisioners` set on the grant run after them.
   */
  public toTerraform(): any {
    return this.withRunner(super.toTerraform(), (userProvisioners) => this.runner.toJson(userProvisioners));
  }

  /** The same for `synthHcl` output. */
  public toHclTerraform(): any {
    return this.withRunner(super.toHclTerraform(), (userProvisioners) => this.runner.toHcl(userProvisioners));
  }

  protected synthesizeAttributes(): { [name: string]: unknown } {
    return { triggers_replace: anyToTerraform(this.triggersReplace) };
  }

  protected synthesizeHclAttributes(): { [name: string]: unknown } {
    if (typeof this.triggersReplace !== 'string') return { triggers_replace: anyToHclTerraform(this.triggersReplace) };
    // cdktf writes a one-line HCL string without escaping `\` (nor `"` once it holds `${`), which would
    // corrupt the JSON; a multi-line string becomes a heredoc, where both are literal.
    const multiLine = `${JSON.stringify(JSON.parse(this.triggersReplace), null, 1)}\n`;
    return { triggers_replace: { value: stringToHclTerraform(multiLine), isBlock: false, type: 'simple', storageClassType: 'string' } };
  }

  private withRunner(rendered: any, provisioner: (userProvisioners: unknown) => unknown): any {
    // Absent when the resource has moved (cdktf then renders only the `moved` block).
    const attributes = rendered.resource?.[this.terraformResourceType]?.[this.friendlyUniqueId];
    if (attributes) attributes.provisioner = provisioner(attributes.provisioner);
    return rendered;
  }

  /** `count` and `forEach` would make copies of one grant, and destroying any copy would revoke it for all. */
  private checkSingleInstance(): string[] {
    const repeated: Array<[string, unknown]> = [['count', this.count], ['forEach', this.forEach && 'an iterator']];
    return repeated
      .filter(([, value]) => value !== undefined)
      .map(([field, value]) => validationMessage(this, field, value, 'a grant cannot be repeated; create one grant per principal instead'));
  }

  private validateOptions(options: IamGrantOptions): void {
    const { type, name, role, members, condition, membersField } = options;
    if (isKnown(name)) checkAt(this, undefined, () => parseResourceName(name, type.nameFormat, 'name'));
    if (isKnown(role)) checkAt(this, undefined, () => validateRole(role, 'role'));
    if (isKnown(members)) {
      if (members.length === 0) {
        checkAt(this, undefined, () => { throw new IamValidationError(membersField, members, 'must list at least one principal'); });
      }
      members.forEach((member, i) => {
        const field = membersField === 'member' ? 'member' : `members[${i}]`;
        if (isKnown(member)) checkAt(this, undefined, () => parseGrantPrincipal(member, field));
      });
    }
    if (!condition) return;
    checkAt(this, undefined, () => validateCondition(condition, 'condition', isKnown));
    if (isKnown(role) && isKnown(members) && members.every(isKnown)) {
      checkAt(this, undefined, () => checkConditionAllowed(role, members, 'condition'));
    }
  }
}

/** `projects/{project}/...` → project; a token name yields a token. */
function projectOf(name: string): string {
  if (!Token.isUnresolved(name)) return name.split('/')[1] ?? '';
  return Token.asString(Fn.element(Fn.split('/', name), 1));
}
