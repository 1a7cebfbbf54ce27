import { GoogleIamApis } from '../../api/iam-apis';
import type { IamResource } from '../../iam/grant';

/**
 * The google provider's IAM resources a `moved` block brings into the generic
 * kinds (`googleiam_iam_member`, `_iam_binding`, `_iam_policy`): one row per
 * type stem (before `_iam_member`, `_iam_binding`, `_iam_policy`), with the
 * API (service and version) the generic kind manages it through and the
 * resource's full name as a template over the google state's attributes. The
 * template's last `{attribute}` is the one naming the resource: a value that
 * is already a full name of the collection is taken as it is (the google
 * provider stores what the configuration gave, and most accept either); a
 * value without a `/` is the last segment, the template filled from the other
 * attributes (`project`, `location`) where the state has them. Anything else
 * is refused.
 *
 * Written by hand, as no published source holds these templates as data:
 * from terraform-provider-google's IAM updaters (google/services/<service>/
 * iam_<type>.go: the `Iam<Type>Schema` attribute names, e.g. IamKmsKeyRingSchema
 * holding only `key_ring_id` passed to parseKmsKeyRingId, IamPubsubTopicSchema's
 * `topic` with compareSelfLinkOrResourceName and `project`; each updater's
 * `GetResourceId`, the name; the generated updaters set the resource's
 * attribute to it, so the state holds the full name). Each row is checked by
 * the unit tests (test/unit/provider/google-move-table.test.ts) against the
 * google provider's published schemas, the @cdktf/provider-google package's
 * bindings (the `_iam_member`, `_iam_binding` and `_iam_policy` types exist,
 * with every attribute the template names, the resource's own required), and
 * against the generated Discovery table (GoogleIamApis: the collection is
 * IAM-enabled at the row's API version). A row added here moves in (and the
 * stand-in google provider of the tests serves its schemas). The APIs serving
 * IAM at paths of their own (Cloud Storage `b/<bucket>`, Compute Engine, BigQuery,
 * Cloud DNS) are reached as any other. Not here: Cloud Storage managed folders
 * (iam_storage_managed_folder.go stores `managed_folder` as given, ending in
 * `/`, which no collection pattern `b/*\/managedFolders/*` takes).
 */
export interface GoogleGenericMoveRow {
  /** The google provider's type stem: `google_pubsub_topic` (`google_pubsub_topic_iam_member`, …). */
  readonly google: string;
  readonly service: string;
  readonly apiVersion: string;
  /**
   * The full name, `{attribute}` for a state attribute (`projects/{project}/topics/{topic}`), `*` for a segment
   * the state holds only within the full name (`projects/*\/serviceAccounts/{service_account_id}`: that attribute
   * must hold the full name).
   */
  readonly name: string;
}

export const GOOGLE_GENERIC_MOVE_ROWS: readonly GoogleGenericMoveRow[] = [
  // resourcemanager/iam_project.go: `project` (a project ID), GetResourceId the project.
  { google: 'google_project', service: 'cloudresourcemanager', apiVersion: 'v3', name: 'projects/{project}' },
  // resourcemanager/iam_folder.go: `folder` (`folders/{id}`; canonicalFolderId adds the prefix to a bare ID).
  { google: 'google_folder', service: 'cloudresourcemanager', apiVersion: 'v3', name: 'folders/{folder}' },
  // resourcemanager/iam_organization.go: `org_id`, the numeric ID; GetResourceId `organizations/{org_id}`.
  { google: 'google_organization', service: 'cloudresourcemanager', apiVersion: 'v3', name: 'organizations/{org_id}' },
  // resourcemanager/iam_service_account.go: `service_account_id`, `projects/{p}/serviceAccounts/{email}` (ServiceAccountLinkRegex).
  { google: 'google_service_account', service: 'iam', apiVersion: 'v1', name: 'projects/*/serviceAccounts/{service_account_id}' },
  // pubsub/iam_pubsub_topic.go: `topic` (full or short) and `project`; GetResourceId `projects/{{project}}/topics/{{topic}}`.
  { google: 'google_pubsub_topic', service: 'pubsub', apiVersion: 'v1', name: 'projects/{project}/topics/{topic}' },
  // pubsub/iam_pubsub_subscription.go: `subscription` and `project`; getComputedSubscriptionName keeps a full name.
  { google: 'google_pubsub_subscription', service: 'pubsub', apiVersion: 'v1', name: 'projects/{project}/subscriptions/{subscription}' },
  // secretmanager/iam_secret_manager_secret.go: `secret_id` (full `projects/{p}/secrets/{s}`, as stored) and `project`.
  { google: 'google_secret_manager_secret', service: 'secretmanager', apiVersion: 'v1', name: 'projects/{project}/secrets/{secret_id}' },
  // kms/iam_kms_key_ring.go: `key_ring_id`, `projects/{p}/locations/{l}/keyRings/{k}` (stored as given: a short form needs the provider's project, refused).
  {
    google: 'google_kms_key_ring',
    service: 'cloudkms',
    apiVersion: 'v1',
    name: 'projects/*/locations/*/keyRings/{key_ring_id}',
  },
  // kms/iam_kms_crypto_key.go: `crypto_key_id`, `projects/{p}/locations/{l}/keyRings/{k}/cryptoKeys/{c}`.
  {
    google: 'google_kms_crypto_key',
    service: 'cloudkms',
    apiVersion: 'v1',
    name: 'projects/*/locations/*/keyRings/*/cryptoKeys/{crypto_key_id}',
  },
  // artifactregistry/iam_artifact_registry_repository.go: `project`, `location`, `repository`; GetResourceId as the template.
  {
    google: 'google_artifact_registry_repository',
    service: 'artifactregistry',
    apiVersion: 'v1',
    name: 'projects/{project}/locations/{location}/repositories/{repository}',
  },
  // cloudrunv2/iam_cloud_run_v2_service.go: `project`, `location`, `name`; GetResourceId as the template.
  {
    google: 'google_cloud_run_v2_service',
    service: 'run',
    apiVersion: 'v2',
    name: 'projects/{project}/locations/{location}/services/{name}',
  },
  // The five APIs serving IAM at paths of their own. Their updaters are generated (Magic Modules, iam_<type>.go): the
  // producer sets the resource's attribute to GetResourceId, the full name below (the others, `project`, `zone`,
  // `region`, `dataset_id`, as resolved), and the schema's CompareSelfLinkOrResourceName takes a short name too.
  // storage/iam_storage_bucket.go: `bucket`, GetResourceId `b/{{bucket}}` (import formats `b/{bucket}`, `{bucket}`).
  { google: 'google_storage_bucket', service: 'storage', apiVersion: 'v1', name: 'b/{bucket}' },
  // compute/iam_compute_instance.go: `project`, `zone`, `instance_name`; GetResourceId as the template.
  {
    google: 'google_compute_instance',
    service: 'compute',
    apiVersion: 'v1',
    name: 'projects/{project}/zones/{zone}/instances/{instance_name}',
  },
  // compute/iam_compute_subnetwork.go: `project`, `region`, `subnetwork`.
  {
    google: 'google_compute_subnetwork',
    service: 'compute',
    apiVersion: 'v1',
    name: 'projects/{project}/regions/{region}/subnetworks/{subnetwork}',
  },
  // compute/iam_compute_disk.go: `project`, `zone`, `name`.
  { google: 'google_compute_disk', service: 'compute', apiVersion: 'v1', name: 'projects/{project}/zones/{zone}/disks/{name}' },
  // compute/iam_compute_region_disk.go: `project`, `region`, `name`.
  {
    google: 'google_compute_region_disk',
    service: 'compute',
    apiVersion: 'v1',
    name: 'projects/{project}/regions/{region}/disks/{name}',
  },
  // compute/iam_compute_image.go: `project`, `image`.
  { google: 'google_compute_image', service: 'compute', apiVersion: 'v1', name: 'projects/{project}/global/images/{image}' },
  // compute/iam_compute_snapshot.go: `project`, `name`.
  { google: 'google_compute_snapshot', service: 'compute', apiVersion: 'v1', name: 'projects/{project}/global/snapshots/{name}' },
  // compute/iam_compute_instance_template.go: `project`, `name`.
  {
    google: 'google_compute_instance_template',
    service: 'compute',
    apiVersion: 'v1',
    name: 'projects/{project}/global/instanceTemplates/{name}',
  },
  // compute/iam_compute_storage_pool.go: `project`, `zone`, `name`.
  {
    google: 'google_compute_storage_pool',
    service: 'compute',
    apiVersion: 'v1',
    name: 'projects/{project}/zones/{zone}/storagePools/{name}',
  },
  // compute/iam_compute_instant_snapshot.go: `project`, `zone`, `name`.
  {
    google: 'google_compute_instant_snapshot',
    service: 'compute',
    apiVersion: 'v1',
    name: 'projects/{project}/zones/{zone}/instantSnapshots/{name}',
  },
  // bigquery/iam_bigquery_table.go: `project`, `dataset_id`, `table_id`; GetResourceId as the template.
  {
    google: 'google_bigquery_table',
    service: 'bigquery',
    apiVersion: 'v2',
    name: 'projects/{project}/datasets/{dataset_id}/tables/{table_id}',
  },
  // dns/iam_dns_managed_zone.go: `project`, `managed_zone`.
  { google: 'google_dns_managed_zone', service: 'dns', apiVersion: 'v1', name: 'projects/{project}/managedZones/{managed_zone}' },
];

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** The state attributes a row's template names, the resource's own (the last) last. */
export function rowAttributes(row: GoogleGenericMoveRow): string[] {
  return [...row.name.matchAll(PLACEHOLDER)].map((m) => m[1]);
}

/** The attribute naming the resource: the template's last. */
export function resourceAttribute(row: GoogleGenericMoveRow): string {
  const attributes = rowAttributes(row);
  return attributes[attributes.length - 1];
}

/** The collection's pattern: the template with `*` for each attribute. */
function pattern(row: GoogleGenericMoveRow): string {
  return row.name.replace(PLACEHOLDER, '*');
}

/**
 * The generic resource a google state of `row` names; a string saying what is
 * missing when it names none this table can build (no guess).
 */
export function genericMovedResource(row: GoogleGenericMoveRow, state: Readonly<Record<string, unknown>>): IamResource | string {
  const own = resourceAttribute(row);
  const value = state[own];
  if (typeof value !== 'string' || value === '') return `has no ${own}`;
  let name: string;
  if (GoogleIamApis.matches(pattern(row), value)) name = value;
  else if (!value.includes('/')) {
    const missing = rowAttributes(row).filter((a) => typeof state[a] !== 'string' || state[a] === '');
    if (missing.length > 0) return `has ${own} ${JSON.stringify(value)} but no ${missing.join(', ')} to make the full name ${row.name}`;
    name = row.name.replace(PLACEHOLDER, (_m, a: string) => state[a] as string);
    if (name.includes('*')) return `has ${own} ${JSON.stringify(value)}, which is not the full name ${pattern(row)}`;
  } else return `has ${own} ${JSON.stringify(value)}, which is not a full name ${pattern(row)}`;
  if (!GoogleIamApis.collection(row.service, row.apiVersion, name))
    return `names ${name}, which ${row.service} ${row.apiVersion} does not serve IAM for`;
  return { service: row.service, apiVersion: row.apiVersion, name };
}
