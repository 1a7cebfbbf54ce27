import { Annotations, type ITerraformDependable, type TerraformResource } from 'cdktf';
import { Construct } from 'constructs';
import { checkGrantConditions } from '../iam/condition';
import type { Grant, IamResource } from '../iam/grant';
import { validateGrantValues } from '../iam/grant-validation';
import { parseResourceName, type ResourceNameFormat } from '../iam/resource-name';
import { checkGrantRoles } from '../iam/role-check';
import type { RoleTarget } from '../iam/role-grantability';
import type { ConditionInput } from '../iam/types';
import { genericRoleTarget } from '../resource-types/role-target';
import { checkAt, ConstructValidationError, validationMessage } from '../synth/errors';
import { roleCheckOptionsAtSynth } from '../synth/extra-roles';
import { holdsTokens, isKnown, projectOfName } from '../synth/known-values';
import { useGoogleIamProvider } from './default-provider';
import type { GoogleIamProvider } from '../provider-bindings/google-iam-provider.generated';
import { grantResourceName } from './grant-address';
import { GrantRegistry } from './grant-registry';
import type { IamCondition } from './iam-condition';
import type { IamGrantOptions } from './iam-grant-options';

/** The attributes every grant resource of the provider has. @internal */
export type GrantResource = TerraformResource & { readonly id: string; readonly etag: string };

/**
 * Creates a grant's L1 resource, of its type's generated class, as the child
 * `id` of `scope` (the configuration as the typed types' classes take it;
 * the generic ones add the resource's API). @internal
 */
export type GrantResourceFactory<Config> = (scope: Construct, id: string, config: Config) => GrantResource;

/** What every grant resource's configuration holds besides what it grants. @internal */
export interface GrantResourceConfig {
  /** The resource whose policy holds the grant. */
  readonly name: string;
  readonly provider?: GoogleIamProvider;
}

/** What the IAM checks (lib/checks) read of a grant construct: its class name, its grant and its L1 resource. @internal */
export interface DeclaredGrant {
  readonly typeName: string;
  readonly grant: Grant;
  readonly resource: GrantResource;
}

const declaredGrants = new WeakMap<Construct, DeclaredGrant>();

/** The grant `construct` declares, if it is a grant construct of this library. @internal */
export function declaredGrantOf(construct: Construct): DeclaredGrant | undefined {
  return declaredGrants.get(construct);
}

/** The construct id of a grant's L1 resource: cdktf leaves `Default` out of the address, which is then the construct's own where no name is given. */
const RESOURCE_ID = 'Default';

/** Where a grant construct's policy lives. @internal */
export interface GrantTarget {
  /** The construct's class name, for messages: `AuthorizationPolicyIamMember`. */
  readonly typeName: string;
  readonly resource: IamResource;
  /** What `resource.name` must look like; undefined for the generic grants (any resource). */
  readonly nameFormat?: ResourceNameFormat;
  /** The resource type its roles must be grantable on; undefined: the collection Google publishes for the resource, when known. */
  readonly roleTarget?: RoleTarget;
}

/**
 * The shared body of every grant construct: validates what is known at synth
 * (the provider's ValidateResourceConfig checks the rest at plan), registers
 * the grant for the app-wide checks, then declares the provider's L1 resource
 * (`googleiam_*_iam_member`, `_binding`, `_policy`), named by what it grants
 * (grant-address.ts), which Terraform creates, reads, updates and deletes
 * through the provider. The stack gets the
 * provider with no user code (see default-provider.ts).
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
  private readonly grantResource: GrantResource;

  /** Validates and registers `grant`, then declares its resource: `declare(this, RESOURCE_ID, { name, provider })` plus what it grants. */
  protected constructor(
    scope: Construct,
    id: string,
    target: GrantTarget,
    grant: Grant,
    options: IamGrantOptions,
    declare: (scope: Construct, id: string, config: GrantResourceConfig) => GrantResource,
  ) {
    super(scope, id);
    this.name = target.resource.name;
    this.project = projectOfName(this.name);
    if (isKnown(this.name) && target.nameFormat) checkAt(this, () => parseResourceName(this.name, target.nameFormat!, 'name'));
    checkAt(this, () => validateGrantValues(grant, isKnown));
    // A bulk grant of nothing is a mistake in a program (HCL's may be empty: a `dynamic` block over an empty list).
    if (grant.mode === 'members' && isKnown(grant.grants) && Array.isArray(grant.grants) && grant.grants.length === 0) {
      throw new ConstructValidationError(
        this.node.path,
        'grants',
        grant.grants,
        'must list at least one grant; to grant nothing, remove the construct',
      );
    }
    const roleTarget = target.roleTarget ?? publishedRoleTarget(target.resource);
    for (const warning of checkAt(this, () => checkGrantRoles(grant, roleTarget, isKnown, roleCheckOptionsAtSynth()))) {
      Annotations.of(this).addWarning(validationMessage(this, warning.field, warning.role, warning.reason));
    }
    // What Google may refuse in a condition although its reference does not make it certain (lib/iam/condition.ts).
    for (const warning of checkGrantConditions(grant, isKnown)) {
      Annotations.of(this).addWarning(validationMessage(this, warning.field, warning.expression, warning.reason));
    }
    GrantRegistry.of(this).register({ construct: this, typeName: target.typeName, grant });
    useGoogleIamProvider(this);
    const resource = declare(this, RESOURCE_ID, { name: this.name, ...(options.provider ? { provider: options.provider } : {}) });
    // Named by what it grants (a grant holding values only Terraform knows: by the construct's path).
    if (!holdsTokens(grant)) resource.overrideLogicalId(grantResourceName(grant, id));
    this.grantResource = resource;
    declaredGrants.set(this, { typeName: target.typeName, grant, resource });
  }

  /**
   * The Terraform id of the grant's resource, as the provider sets it at plan (a Terraform expression): member
   * `{name}/{role}/{member}`, binding `{name}/{role}`, policy `{name}`, member and binding followed by
   * `/{title}/{description}/{expression}` when conditional; bulk members `{name}`, a principal's roles `{name}/{member}`.
   */
  public get id(): string {
    return this.grantResource.id;
  }

  /** Etag of the resource's IAM policy after the grant's last write or refresh (known after apply). */
  public get etag(): string {
    return this.grantResource.etag;
  }

  /**
   * The Terraform address of the grant's resource, named by what it grants, e.g.
   * `googleiam_authorization_policy_iam_member.projects_p_..._user_alice_example_com_1a2b3c4d`:
   * what `dependsOn`, `terraform apply -target` and `-replace` take (an import block: see `importFrom`).
   */
  public get fqn(): string {
    return this.grantResource.fqn;
  }

  /**
   * Adopts a grant that already exists in Google at the next `terraform apply`, writing nothing (Terraform's
   * `import` block). `importId` is in the google provider's format: member `"<name> <role> <member>"`, binding
   * `"<name> <role>"`, policy `"<name>"`; a conditional member or binding adds the condition's title
   * (`"<name> <role> <member> <title>"`); bulk members `"<name>"` (adopting no entry: the next apply grants the
   * listed ones and revokes nothing); a principal's roles `"<name> <member>"`. For the generic grants `<name>` is Google's full resource name,
   * `//<service>.googleapis.com/<resource name>`.
   *
   * @param importId the grant's import ID
   */
  public importFrom(importId: string): void {
    this.grantResource.importFrom(importId);
  }
}

/** The role target of a generic grant's resource, once its service, version and name are known at synth. */
function publishedRoleTarget({ service, apiVersion, name }: IamResource): RoleTarget | undefined {
  const known = [service, apiVersion, name].every((value) => typeof value === 'string' && isKnown(value));
  return known ? genericRoleTarget(service, apiVersion, name) : undefined;
}

/** A condition as the grant carries it: only the three fields Google defines. @internal */
export function conditionOf(condition: IamCondition | undefined): ConditionInput | undefined {
  if (!condition) return undefined;
  const { expression, title, description } = condition;
  return description === undefined ? { expression, title } : { expression, title, description };
}
