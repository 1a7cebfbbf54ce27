/** How an API exposes `getIamPolicy`. */
export enum GetIamPolicyMethod {
  /** `GET {version}/{name}:getIamPolicy?options.requestedPolicyVersion=3` (most APIs: Secret Manager, Pub/Sub, Cloud KMS, Cloud Run, ...). */
  GET = 'GET',
  /** `POST {version}/{name}:getIamPolicy` with `{"options": {"requestedPolicyVersion": 3}}` (Resource Manager, Spanner, Bigtable Admin, Cloud Tasks, ...). */
  POST = 'POST',
}

/**
 * Any Google Cloud resource whose REST API has `:getIamPolicy` and
 * `:setIamPolicy` methods at `https://{service}.googleapis.com/{apiVersion}/{name}`,
 * e.g. `{ service: 'secretmanager', apiVersion: 'v1', name: 'projects/my-project/secrets/db-password' }`
 * or `{ service: 'cloudresourcemanager', apiVersion: 'v3', name: 'projects/my-project' }`.
 *
 * Not reachable this way (the google provider has resources for them):
 * BigQuery (`bigquery/v2/…`), Cloud Storage (`…/b/{bucket}/iam`), Compute
 * Engine (`…/getIamPolicy` without a colon) and Cloud DNS (`dns/v1/…`).
 */
export interface GoogleIamResource {
  /** The API: its host name without `.googleapis.com`, e.g. `secretmanager`, `pubsub`, `cloudresourcemanager` (lowercase letters and digits). */
  readonly service: string;
  /** The API version, e.g. `v1`, `v2`, `v3`, `v1beta1`. */
  readonly apiVersion: string;
  /**
   * The resource's full name, as the API's getIamPolicy takes it (the path
   * between the version and `:getIamPolicy`), e.g. `projects/my-project/secrets/db-password`.
   * No leading or trailing slash, no `.` or `..` segments, no `?`, `#`, `%` or whitespace, and no `:` in the last segment.
   */
  readonly name: string;
  /**
   * The HTTP method of the API's getIamPolicy. (Named so because jsii
   * reserves `get…` names for Java getters.)
   * @default - POST for cloudresourcemanager, spanner, bigtableadmin, cloudtasks, datacatalog, dataproc, iap and servicedirectory; GET for every other service
   */
  readonly policyReadMethod?: GetIamPolicyMethod;
}
