import { GoogleRestClient } from '../api/client';
import { defaultProject, PROJECT_VARIABLES } from '../api/credentials';
import { IamPolicyApi } from '../api/iam-policy';
import { ImportJobsApi } from '../api/import-jobs';
import { checkAt } from '../synth/errors';
import type { GoogleIamResource } from '../grant/google-iam-resource';
import { settledResource, validateGoogleIamResource } from '../grant/generic-resource';
import { ADDRESS_GROUP_TYPE, AUTHORIZATION_POLICY_TYPE, MIGRATION_JOB_TYPE, type IamResourceType } from '../grant/resource-type';
import { IamValidationError } from '../iam/errors';
import type { IamResource } from '../iam/grant';
import { IMPORT_JOB, validateProjectId } from '../iam/resource-name';
import type { ImportJob } from '../migrationcenter/import-job';
import { importJobFromWire } from '../migrationcenter/import-job-wire';
import type { IamPolicy } from '../api/policy-result';
import { iamPolicyFromWire } from '../api/policy-result-wire';
import { locatedName, validateLocatedResource, validatePolicyVersion, type LocatedResource } from '../iam/located-resource';
import { validateImportJobView } from '../migrationcenter/import-job-view';

/** Properties of {@link GoogleLookups}. */
export interface GoogleLookupsProps {
  /**
   * Project used when a lookup names none.
   * @default - `GOOGLE_CLOUD_PROJECT`, `GOOGLE_PROJECT`, `GCLOUD_PROJECT`, `CLOUDSDK_CORE_PROJECT`, then the ADC key file's project
   */
  readonly project?: string;
  /**
   * OAuth 2 access token for the calls.
   * @default - `GOOGLE_OAUTH_ACCESS_TOKEN`, else Application Default Credentials
   */
  readonly accessToken?: string;
}

/** Arguments of {@link GoogleLookups.getImportJob}. */
export interface GetImportJobArgs {
  /** The import job's id, e.g. `inventory-2026`. */
  readonly importJobId: string;
  /** e.g. `us-central1`. */
  readonly location: string;
  /**
   * The project of the resource.
   * @default - the lookups' project
   */
  readonly project?: string;
  /**
   * Which parts to read: `IMPORT_JOB_VIEW_BASIC` leaves the reports out, `IMPORT_JOB_VIEW_FULL`
   * includes them, `IMPORT_JOB_VIEW_UNSPECIFIED` is Google's default (see {@link ImportJobView}).
   * @default - Google's default, the full view
   */
  readonly view?: string;
}

/** Arguments of {@link GoogleLookups.getAddressGroupIamPolicy}. */
export interface GetAddressGroupIamPolicyArgs {
  /** The address group's id. */
  readonly addressGroupId: string;
  /** e.g. `global`. */
  readonly location: string;
  /**
   * The project of the resource.
   * @default - the lookups' project
   */
  readonly project?: string;
  /**
   * Policy version to request: 0, 1 or 3 (see {@link IamPolicyVersion}). Below 3, Google returns conditional
   * bindings with mangled roles and no condition.
   * @default 3
   */
  readonly optionsRequestedPolicyVersion?: number;
}

/** Arguments of {@link GoogleLookups.getAuthorizationPolicyIamPolicy}. */
export interface GetAuthorizationPolicyIamPolicyArgs {
  /** The authorization policy's id. */
  readonly authorizationPolicyId: string;
  /** e.g. `global`. */
  readonly location: string;
  /**
   * The project of the resource.
   * @default - the lookups' project
   */
  readonly project?: string;
  /**
   * Policy version to request: 0, 1 or 3 (see {@link IamPolicyVersion}). Below 3, Google returns conditional
   * bindings with mangled roles and no condition.
   * @default 3
   */
  readonly optionsRequestedPolicyVersion?: number;
}

/** Arguments of {@link GoogleLookups.getMigrationJobIamPolicy}. */
export interface GetMigrationJobIamPolicyArgs {
  /** The migration job's id. */
  readonly migrationJobId: string;
  /** e.g. `us-central1`. */
  readonly location: string;
  /**
   * The project of the resource.
   * @default - the lookups' project
   */
  readonly project?: string;
  /**
   * Policy version to request: 0, 1 or 3 (see {@link IamPolicyVersion}). Below 3, Google returns conditional
   * bindings with mangled roles and no condition.
   * @default 3
   */
  readonly optionsRequestedPolicyVersion?: number;
}

/** Arguments of {@link GoogleLookups.getIamPolicy}. */
export interface GetIamPolicyArgs {
  /** Any resource with REST `:getIamPolicy`, e.g. `{ service: 'secretmanager', apiVersion: 'v1', name: 'projects/p/secrets/s' }`. */
  readonly resource: GoogleIamResource;
  /**
   * Policy version to request: 0, 1 or 3 (see {@link IamPolicyVersion}). Below 3, Google returns conditional
   * bindings with mangled roles and no condition.
   * @default 3
   */
  readonly optionsRequestedPolicyVersion?: number;
}

/**
 * The Direct form of the lookups: reads Google while the app synthesizes, so
 * the result can decide what to synthesize (e.g. grant only once an import job
 * has COMPLETED). Same credentials and endpoint overrides as the grant runner.
 *
 * Arguments are checked before any request; API errors reject with Google's
 * status (`NOT_FOUND`, `PERMISSION_DENIED`, …) and message.
 */
export class GoogleLookups {
  private readonly props: GoogleLookupsProps;
  private clientInstance?: GoogleRestClient;

  constructor(props: GoogleLookupsProps = {}) {
    this.props = props;
  }

  /** Reads a Migration Center import job: every field present, empty where Google left it out. */
  public async getImportJob(args: GetImportJobArgs): Promise<ImportJob> {
    const name = await this.resolveName('getImportJob', { ...args, id: args.importJobId, idField: 'importJobId' }, () =>
      validateImportJobView(args.view),
    );
    return importJobFromWire(await new ImportJobsApi(this.client()).get(locatedName(IMPORT_JOB, ...name), args.view));
  }

  /** Reads an address group's IAM policy; a resource without a policy reads as an empty policy. */
  public async getAddressGroupIamPolicy(args: GetAddressGroupIamPolicyArgs): Promise<IamPolicy> {
    return this.locatedPolicy(
      'getAddressGroupIamPolicy',
      ADDRESS_GROUP_TYPE,
      { ...args, id: args.addressGroupId, idField: 'addressGroupId' },
      args.optionsRequestedPolicyVersion,
    );
  }

  /** Reads a network-security authorization policy's IAM policy; a resource without a policy reads as an empty policy. */
  public async getAuthorizationPolicyIamPolicy(args: GetAuthorizationPolicyIamPolicyArgs): Promise<IamPolicy> {
    return this.locatedPolicy(
      'getAuthorizationPolicyIamPolicy',
      AUTHORIZATION_POLICY_TYPE,
      { ...args, id: args.authorizationPolicyId, idField: 'authorizationPolicyId' },
      args.optionsRequestedPolicyVersion,
    );
  }

  /** Reads a Database Migration Service migration job's IAM policy; a resource without a policy reads as an empty policy. */
  public async getMigrationJobIamPolicy(args: GetMigrationJobIamPolicyArgs): Promise<IamPolicy> {
    return this.locatedPolicy(
      'getMigrationJobIamPolicy',
      MIGRATION_JOB_TYPE,
      { ...args, id: args.migrationJobId, idField: 'migrationJobId' },
      args.optionsRequestedPolicyVersion,
    );
  }

  /**
   * Reads the IAM policy of any resource with REST `:getIamPolicy` (the
   * method per service as the generic grants settle it); a resource without
   * a policy reads as an empty policy.
   */
  public async getIamPolicy(args: GetIamPolicyArgs): Promise<IamPolicy> {
    checkAt('GoogleLookups.getIamPolicy', () => {
      validateGoogleIamResource(args.resource, () => true);
      validatePolicyVersion(args.optionsRequestedPolicyVersion);
    });
    return this.readPolicy(settledResource(args.resource), args.optionsRequestedPolicyVersion);
  }

  /** The typed lookups: the located resource's name, checked and with its project settled, then the one read. */
  private async locatedPolicy(
    method: string,
    type: IamResourceType,
    where: LocatedResource,
    version: number | undefined,
  ): Promise<IamPolicy> {
    const name = await this.resolveName(method, where, () => validatePolicyVersion(version));
    return this.readPolicy(
      {
        service: type.service,
        apiVersion: type.apiVersion,
        name: locatedName(type.nameFormat, ...name),
        getIamPolicyMethod: type.getIamPolicyMethod,
      },
      version,
    );
  }

  private async readPolicy(resource: IamResource, version: number | undefined): Promise<IamPolicy> {
    const api = new IamPolicyApi(this.client(), resource);
    return iamPolicyFromWire(await api.getIamPolicy(resource.name, version));
  }

  /**
   * Validates the arguments and settles the project, before any request;
   * returns [project, location, id]. Argument errors name the method.
   */
  private async resolveName(method: string, where: LocatedResource, validateOptions: () => void): Promise<[string, string, string]> {
    const at = `GoogleLookups.${method}`;
    checkAt(at, () => {
      validateLocatedResource(where);
      validateOptions();
    });
    const project = where.project ?? this.props.project ?? (await defaultProject(process.env));
    return checkAt(at, () => {
      if (!project) {
        throw new IamValidationError(
          'project',
          project,
          `no project given and none configured; pass project, set it in GoogleLookupsProps, or set one of ${PROJECT_VARIABLES.join(', ')}`,
        );
      }
      return [validateProjectId(project, 'project'), where.location, where.id];
    });
  }

  private client(): GoogleRestClient {
    this.clientInstance ??= new GoogleRestClient({ accessToken: this.props.accessToken });
    return this.clientInstance;
  }
}
