import type { Construct } from 'constructs';
import { MIGRATION_JOB_TYPE } from '../grant/resource-type';
import { DataIamPolicyRead } from '../lookups/data-iam-policy';

/** Properties of a {@link DataMigrationJobIamPolicy}: the arguments of `getMigrationJobIamPolicy`. */
export interface DataMigrationJobIamPolicyProps {
  /** The migration job's id. */
  readonly migrationJobId: string;
  /** e.g. `us-central1`. */
  readonly location: string;
  /**
   * The project of the migration job.
   * @default - the runner's default project: `GOOGLE_CLOUD_PROJECT`, `GOOGLE_PROJECT`, `GCLOUD_PROJECT`, `CLOUDSDK_CORE_PROJECT`, then the credentials' project
   */
  readonly project?: string;
  /**
   * Policy version to request: 0, 1 or 3 (see {@link IamPolicyVersion}). Below 3, Google returns conditional
   * bindings with mangled roles and no condition.
   * @default 3
   */
  readonly optionsRequestedPolicyVersion?: number;
}

/**
 * The Output form of `getMigrationJobIamPolicy`: reads a Database Migration Service migration job's IAM policy at
 * plan time, so its attributes are Terraform expressions usable in other
 * resources. Needs Node.js where `terraform plan` runs and the
 * `hashicorp/external` provider (required in the stack).
 *
 * Asks for policy version 3, so conditional bindings come back intact.
 */
export class DataMigrationJobIamPolicy extends DataIamPolicyRead {
  /** The migration job's id. */
  public readonly migrationJobId: string;
  /** The migration job's location. */
  public readonly location: string;

  constructor(scope: Construct, id: string, props: DataMigrationJobIamPolicyProps) {
    super(
      scope,
      id,
      {
        ...MIGRATION_JOB_TYPE,
        project: props.project,
        location: props.location,
        id: props.migrationJobId,
        idField: 'migrationJobId',
      },
      props.optionsRequestedPolicyVersion,
    );
    this.migrationJobId = props.migrationJobId;
    this.location = props.location;
  }
}
