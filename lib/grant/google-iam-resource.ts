/** How an API's `getIamPolicy` is called: which verb, and where the policy version goes. */
export enum GetIamPolicyMethod {
  /** `GET {version}/{name}:getIamPolicy?options.requestedPolicyVersion=3` (most collections: Secret Manager, Pub/Sub, Cloud KMS, Cloud Run, ...). */
  GET = 'GET',
  /** `POST {version}/{name}:getIamPolicy` with `{"options": {"requestedPolicyVersion": 3}}` (Resource Manager, Spanner, Bigtable Admin, Cloud Tasks, ...). */
  POST = 'POST',
  /** `POST {version}/{name}:getIamPolicy?options.requestedPolicyVersion=3` with no body (Vertex AI's `aiplatform`, IAM service accounts). */
  POST_QUERY = 'POST_QUERY',
}

/**
 * Any Google Cloud resource whose REST API has IAM methods (`getIamPolicy` and
 * `setIamPolicy`), e.g. `{ service: 'secretmanager', apiVersion: 'v1', name: 'projects/my-project/secrets/db-password' }`,
 * `{ service: 'cloudresourcemanager', apiVersion: 'v3', name: 'projects/my-project' }`,
 * `{ service: 'storage', apiVersion: 'v1', name: 'b/my-bucket' }` or
 * `{ service: 'compute', apiVersion: 'v1', name: 'projects/my-project/zones/us-central1-a/instances/vm' }`.
 *
 * Checked at synth against Google's published API descriptions (the
 * Discovery documents, pinned in this release): the name must belong to one
 * of the IAM-enabled collections of that API version, and the requests are
 * the ones its methods describe, at whatever path the API serves them
 * (`{apiVersion}/{name}:getIamPolicy` for most, `storage/v1/b/{bucket}/iam`,
 * `compute/v1/{name}/getIamPolicy`, ...).
 */
export interface GoogleIamResource {
  /** The API: its host name without `.googleapis.com`, e.g. `secretmanager`, `pubsub`, `cloudresourcemanager` (lowercase letters and digits). */
  readonly service: string;
  /** The API version, e.g. `v1`, `v2`, `v3`, `v1beta1`. */
  readonly apiVersion: string;
  /**
   * The resource's full name, as the API's getIamPolicy takes it (the path
   * between the version and `:getIamPolicy`), e.g. `projects/my-project/secrets/db-password`;
   * a Cloud Storage bucket `b/my-bucket` (Google's full resource name `projects/_/buckets/my-bucket` is taken too).
   * It must match a pattern Google publishes for the API version (a Terraform token is checked at apply).
   * No leading or trailing slash, no `.` or `..` segments, no `?`, `#`, `%` or whitespace, and no `:` in the last segment.
   */
  readonly name: string;
  /**
   * How the API's getIamPolicy is called, overriding Google's published API
   * description (e.g. for an API version published after this release, whose
   * name is then checked only as a path). (Named so because jsii reserves
   * `get…` names for Java getters.)
   * @default - what Google publishes for the name's collection: GET for most, POST for Resource Manager, Spanner, Bigtable Admin, Cloud Tasks, IAP, ..., POST_QUERY for Vertex AI and IAM service accounts
   */
  readonly policyReadMethod?: GetIamPolicyMethod;
}
