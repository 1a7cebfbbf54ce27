import { projectFromVariables } from '../api/credentials';
import type { IamPolicy } from '../api/policy-result';
import { settledResource, validateGoogleIamResource } from '../grant/generic-resource';
import type { GoogleIamResource } from '../grant/google-iam-resource';
import { ADDRESS_GROUP_TYPE, AUTHORIZATION_POLICY_TYPE, MIGRATION_JOB_TYPE, type IamResourceType } from '../grant/resource-type';
import { validateLocatedResource, validatePolicyVersion } from '../iam/located-resource';
import { validateProjectId } from '../iam/resource-name';
import type { ImportJob } from '../migrationcenter/import-job';
import { validateImportJobView } from '../migrationcenter/import-job-view';
import { checkAt } from '../synth/errors';
import { LookupContext } from './lookup-context';
import { importJobQuery, locatedPolicyQuery, namedPolicyQuery, type RunnerQuery } from '../synth/read-query';
import { RunnerLookup } from './runner-lookup';

/** Properties of {@link GoogleLookups}. */
export interface GoogleLookupsProps {
  /**
   * Project used when a lookup names none.
   * @default - `GOOGLE_CLOUD_PROJECT`, `GOOGLE_PROJECT`, `GCLOUD_PROJECT`, `CLOUDSDK_CORE_PROJECT`, then the ADC key file's project
   */
  readonly project?: string;
  /**
   * OAuth 2 access token for the calls. It reaches the process that reads
   * Google through that process's environment, never its command line, and is
   * never written to the context file.
   * @default - `GOOGLE_OAUTH_ACCESS_TOKEN`, else Application Default Credentials
   */
  readonly accessToken?: string;
  /**
   * The context file that keeps the lookups' results, so that synth is
   * repeatable and needs no network or credentials once every lookup is in it.
   * @default - `CDKTF_GOOGLE_IAM_CONTEXT_FILE`, else `cdktf-google-iam.context.json` beside the app's `cdktf.json`
   */
  readonly contextFile?: string;
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
 * Every lookup blocks until its result is there, in every language (it runs
 * the library's runner in a child `node` and waits for it), and returns the
 * typed result. Results are kept in the context file
 * (`cdktf-google-iam.context.json` beside `cdktf.json`): a lookup found there
 * makes no network call and looks up no credentials. Set
 * `CDKTF_GOOGLE_IAM_REFRESH_LOOKUPS` to `*` (or to entry keys, comma-separated)
 * to read afresh; set `CDKTF_GOOGLE_IAM_NO_LOOKUPS` to make a lookup missing
 * from the file fail instead of reading Google. A failed lookup is never kept.
 *
 * Arguments are checked before anything else; API errors throw with Google's
 * status (`NOT_FOUND`, `PERMISSION_DENIED`, …) and message, the lookup's name
 * and its arguments.
 */
export class GoogleLookups {
  private readonly props: GoogleLookupsProps;

  constructor(props: GoogleLookupsProps = {}) {
    this.props = props;
  }

  /** Reads a Migration Center import job: every field present, empty where Google left it out. */
  public getImportJob(args: GetImportJobArgs): ImportJob {
    const lookup = 'getImportJob';
    const project = this.settle(lookup, { ...args, id: args.importJobId, idField: 'importJobId' }, () => validateImportJobView(args.view));
    const key = { importJobId: args.importJobId, location: args.location, project, view: args.view };
    return this.read(lookup, key, importJobQuery({ ...args, project }, args.view)) as ImportJob;
  }

  /** Reads an address group's IAM policy; a resource without a policy reads as an empty policy. */
  public getAddressGroupIamPolicy(args: GetAddressGroupIamPolicyArgs): IamPolicy {
    return this.locatedPolicy('getAddressGroupIamPolicy', ADDRESS_GROUP_TYPE, 'addressGroupId', args.addressGroupId, args);
  }

  /** Reads a network-security authorization policy's IAM policy; a resource without a policy reads as an empty policy. */
  public getAuthorizationPolicyIamPolicy(args: GetAuthorizationPolicyIamPolicyArgs): IamPolicy {
    return this.locatedPolicy(
      'getAuthorizationPolicyIamPolicy',
      AUTHORIZATION_POLICY_TYPE,
      'authorizationPolicyId',
      args.authorizationPolicyId,
      args,
    );
  }

  /** Reads a Database Migration Service migration job's IAM policy; a resource without a policy reads as an empty policy. */
  public getMigrationJobIamPolicy(args: GetMigrationJobIamPolicyArgs): IamPolicy {
    return this.locatedPolicy('getMigrationJobIamPolicy', MIGRATION_JOB_TYPE, 'migrationJobId', args.migrationJobId, args);
  }

  /**
   * Reads the IAM policy of any resource with REST `:getIamPolicy` (the
   * method per service as the generic grants settle it); a resource without
   * a policy reads as an empty policy.
   */
  public getIamPolicy(args: GetIamPolicyArgs): IamPolicy {
    const lookup = 'getIamPolicy';
    checkAt(`GoogleLookups.${lookup}`, () => {
      validateGoogleIamResource(args.resource, () => true);
      validatePolicyVersion(args.optionsRequestedPolicyVersion);
    });
    const { service, apiVersion, name, policyReadMethod } = args.resource;
    const version = args.optionsRequestedPolicyVersion ?? 3;
    const key = { service, apiVersion, name, policyReadMethod, optionsRequestedPolicyVersion: version };
    return this.read(lookup, key, namedPolicyQuery(settledResource(args.resource), String(version))) as IamPolicy;
  }

  /** The typed policy lookups: one resource type each, by project, location and id. */
  private locatedPolicy(
    lookup: string,
    type: IamResourceType,
    idField: string,
    id: string,
    args: { readonly location: string; readonly project?: string; readonly optionsRequestedPolicyVersion?: number },
  ): IamPolicy {
    const project = this.settle(lookup, { project: args.project, location: args.location, id, idField }, () =>
      validatePolicyVersion(args.optionsRequestedPolicyVersion),
    );
    const version = args.optionsRequestedPolicyVersion ?? 3;
    const key = { [idField]: id, location: args.location, project, optionsRequestedPolicyVersion: version };
    return this.read(lookup, key, locatedPolicyQuery(type, { project, location: args.location, id }, String(version))) as IamPolicy;
  }

  /**
   * Validates the arguments before anything else and settles the project as far
   * as it can be without credentials (the call's, the props', then the
   * environment's); undefined leaves it to the credentials' project, found by
   * the runner.
   */
  private settle(
    lookup: string,
    where: { readonly project?: string; readonly location: string; readonly id: string; readonly idField: string },
    validateOptions: () => void,
  ): string | undefined {
    return checkAt(`GoogleLookups.${lookup}`, () => {
      validateLocatedResource(where);
      validateOptions();
      const project = where.project ?? this.props.project ?? projectFromVariables(process.env);
      return project === undefined ? undefined : validateProjectId(project, 'project');
    });
  }

  /** The context file's entry if there is one; else the read, kept in the context file once it succeeded. */
  private read(lookup: string, args: Record<string, string | number | undefined>, query: RunnerQuery): object {
    const context = LookupContext.open(this.props.contextFile);
    const key = LookupContext.key(lookup, args);
    const kept = context.get(key);
    if (kept) return kept;
    context.checkMayRead(`GoogleLookups.${lookup}`, key);
    const value = RunnerLookup.read(`GoogleLookups.${lookup}`, args, query, this.props.accessToken);
    context.set(key, value);
    return value;
  }
}
