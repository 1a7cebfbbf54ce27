import type { Construct } from 'constructs';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { IamPolicyGrant, type IamAuditConfigProps, type IamPolicyBindingProps } from '../grant/iam-policy-grant';
import { MIGRATION_JOB_TYPE, resourceOfType } from '../grant/resource-type';

/**
 * Properties of a {@link MigrationJobIamPolicy}.
 */
export interface MigrationJobIamPolicyProps extends IamGrantOptions {
  /**
   * Name of the migration job:
   * `projects/{project}/locations/{location}/migrationJobs/{id}`.
   */
  readonly name: string;
  /** Every binding of the policy: the policy's bindings become exactly these (one entry per role and condition). */
  readonly bindings: IamPolicyBindingProps[];
  /**
   * The policy's audit configs, replaced at each apply when given (`[]` clears them).
   * @default - audit configs are left as they are
   */
  readonly auditConfigs?: IamAuditConfigProps[];
}

/**
 * Owns the whole IAM policy of a Database Migration Service migration job: at each apply its
 * bindings become exactly `bindings`, and its audit configs `auditConfigs`
 * when given.
 *
 * Destroying it (deleting it from the code, or `terraform destroy`) removes
 * the declared bindings only; the google provider's `google_*_iam_policy`
 * resources empty the whole policy instead. No member or binding construct
 * may grant on the same migration job (synth fails, naming both).
 */
export class MigrationJobIamPolicy extends IamPolicyGrant {
  constructor(scope: Construct, id: string, props: MigrationJobIamPolicyProps) {
    super(
      scope,
      id,
      {
        typeName: 'MigrationJobIamPolicy',
        resource: resourceOfType(MIGRATION_JOB_TYPE, props.name),
        nameFormat: MIGRATION_JOB_TYPE.nameFormat,
      },
      props,
    );
  }
}
