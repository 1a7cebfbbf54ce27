import { Token } from 'cdktf';
import type { Construct } from 'constructs';
import type { ConditionInput } from '../iam/types';
import type { IamCondition } from './iam-condition';
import { conditionOf, IamGrant, type GrantResourceConfig, type GrantResourceFactory, type GrantTarget } from './iam-grant';
import type { IamGrantOptions } from './iam-grant-options';

/** One binding of a `*IamPolicy` construct: a role, its principals, and an optional condition. */
export interface IamPolicyBindingProps {
  /** The role, e.g. `roles/secretmanager.secretAccessor`, `projects/{project}/roles/{id}` or `organizations/{org}/roles/{id}`. */
  readonly role: string;
  /**
   * The principals granted `role`: `user:{email}`, `serviceAccount:{email}`,
   * `group:{email}`, `domain:{domain}`, `principal://…`, `principalSet://…`,
   * `allUsers` or `allAuthenticatedUsers`.
   */
  readonly members: string[];
  /**
   * An IAM condition for the binding; the same role with another condition is another binding.
   * @default - the binding is unconditional
   */
  readonly condition?: IamCondition;
}

/** Logging for one type of permission, in an `IamAuditConfigProps`. */
export interface IamAuditLogConfigProps {
  /** `ADMIN_READ`, `DATA_WRITE` or `DATA_READ` (see `AuditLogType`; admin writes are always logged). */
  readonly logType: string;
  /**
   * Principals whose use of these permissions is not logged.
   * @default - none
   */
  readonly exemptedMembers?: string[];
}

/** Cloud audit logging of one service, in a `*IamPolicy` construct. */
export interface IamAuditConfigProps {
  /** A service, e.g. `secretmanager.googleapis.com`, or `allServices`. */
  readonly service: string;
  /** Which types of permission are logged, with exemptions. */
  readonly auditLogConfigs: IamAuditLogConfigProps[];
}

/** The props every `*IamPolicy` construct shares. @internal */
export interface IamPolicyFields extends IamGrantOptions {
  readonly bindings: IamPolicyBindingProps[];
  readonly auditConfigs?: IamAuditConfigProps[];
}

/** One binding of a policy resource's configuration (what the grant's bindings are too). @internal */
export interface PolicyResourceBinding {
  readonly role: string;
  readonly members: string[];
  readonly condition?: ConditionInput;
}

/** One audit config of a policy resource's configuration (a type, not an interface: the grant's AuditConfig has an index signature). @internal */
export type PolicyResourceAuditConfig = {
  readonly service: string;
  readonly auditLogConfigs: { readonly logType: string; readonly exemptedMembers?: string[] }[];
};

/** The configuration of a policy resource (`googleiam_*_iam_policy`). @internal */
export interface PolicyResourceConfig extends GrantResourceConfig {
  readonly bindings: PolicyResourceBinding[];
  readonly auditConfigs?: PolicyResourceAuditConfig[];
}

/**
 * Every binding of a resource's IAM policy: at each apply the policy's
 * bindings become exactly `bindings` (any other binding, e.g. one added in
 * the console, is removed; `terraform plan` reports it as drift). Audit
 * configs are replaced only when `auditConfigs` is given (`[]` clears them);
 * without it they are left as they are.
 *
 * Destroying the construct (deleting it from the code, or `terraform
 * destroy`) removes the declared bindings only, and leaves audit configs and
 * any binding added since as they are. The google provider's
 * `google_*_iam_policy` resources empty the whole policy instead.
 *
 * Only one policy construct may own a resource's policy, and no member or
 * binding construct may grant on that resource beside it (synth fails,
 * naming both constructs): each apply of one would undo the other.
 *
 * jsii erases this base class: its public members appear on each `*IamPolicy` construct.
 *
 * @internal
 */
export abstract class IamPolicyGrant extends IamGrant {
  /** The bindings the policy holds. */
  public readonly bindings: IamPolicyBindingProps[];
  /**
   * The audit configs the policy holds.
   * @default - audit configs are left as they are
   */
  public readonly auditConfigs?: IamAuditConfigProps[];

  protected constructor(
    scope: Construct,
    id: string,
    target: GrantTarget,
    props: IamPolicyFields,
    resourceType: GrantResourceFactory<PolicyResourceConfig>,
  ) {
    const bindings = grantBindings(props.bindings);
    const auditConfigs = props.auditConfigs === undefined ? {} : { auditConfigs: auditConfigsOf(props.auditConfigs) };
    super(scope, id, target, { mode: 'policy', resource: target.resource, bindings, ...auditConfigs }, props, (self, rid, base) =>
      resourceType(self, rid, { ...base, bindings, ...auditConfigs }),
    );
    this.bindings = props.bindings;
    this.auditConfigs = props.auditConfigs;
  }
}

/** The bindings as the grant carries them: a condition with only the fields Google defines. A token list passes as it is. */
function grantBindings(bindings: IamPolicyBindingProps[]): PolicyResourceBinding[] {
  if (Token.isUnresolved(bindings) || !Array.isArray(bindings)) return bindings as unknown as PolicyResourceBinding[];
  return bindings.map((b) => {
    const condition = Token.isUnresolved(b.condition) ? b.condition : conditionOf(b.condition);
    return { role: b.role, members: b.members, ...(condition === undefined ? {} : { condition }) };
  });
}

function auditConfigsOf(configs: IamAuditConfigProps[]): PolicyResourceAuditConfig[] {
  if (Token.isUnresolved(configs) || !Array.isArray(configs)) return configs as unknown as PolicyResourceAuditConfig[];
  return configs.map((c): PolicyResourceAuditConfig => ({
    service: c.service,
    auditLogConfigs: Token.isUnresolved(c.auditLogConfigs)
      ? (c.auditLogConfigs as unknown as PolicyResourceAuditConfig['auditLogConfigs'])
      : (c.auditLogConfigs ?? []).map((l) => ({
          logType: l.logType,
          ...(l.exemptedMembers === undefined ? {} : { exemptedMembers: l.exemptedMembers }),
        })),
  }));
}
