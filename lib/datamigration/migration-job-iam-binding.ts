import type { Construct } from 'constructs';
import { IamBindingGrant } from '../grant/iam-binding-grant';
import type { IamCondition } from '../grant/iam-condition';
import type { IamGrantOptions } from '../grant/iam-grant-options';
import { MIGRATION_JOB_TYPE, resourceOfType } from '../grant/resource-type';

/**
 * Properties of a {@link MigrationJobIamBinding}.
 */
export interface MigrationJobIamBindingProps extends IamGrantOptions {
  /**
   * Name of the migration job:
   * `projects/{project}/locations/{location}/migrationJobs/{id}`.
   */
  readonly name: string;
  /** The role that is applied. Only one binding resource can be used per role (and condition). */
  readonly role: string;
  /**
   * The identities granted `role`; the binding's member list becomes exactly this list.
   * Each is `user:{email}`, `serviceAccount:{email}`, `group:{email}`, `domain:{domain}`,
   * `principal://…` or `principalSet://…`.
   */
  readonly members: string[];
  /**
   * An IAM condition for the binding.
   * @default - the binding is unconditional
   */
  readonly condition?: IamCondition;
}

/**
 * Owns the full member list of one role (and condition) on a Database
 * Migration Service migration job. Other roles' bindings are left alone;
 * changing `members` rewrites the list in one write (nobody who stays loses
 * access in between); deleting it removes the binding.
 */
export class MigrationJobIamBinding extends IamBindingGrant {
  constructor(scope: Construct, id: string, props: MigrationJobIamBindingProps) {
    super(
      scope,
      id,
      {
        typeName: 'MigrationJobIamBinding',
        resource: resourceOfType(MIGRATION_JOB_TYPE, props.name),
        nameFormat: MIGRATION_JOB_TYPE.nameFormat,
      },
      props,
    );
  }
}
