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
 * Written by hand (no published source lists these as data) from
 * terraform-provider-google's IAM updaters (google/services/<service>/
 * iam_<type>.go: the `Iam<Type>Schema` attribute names, e.g. IamKmsKeyRingSchema
 * holding only `key_ring_id` passed to parseKmsKeyRingId, IamPubsubTopicSchema's
 * `topic` with compareSelfLinkOrResourceName and `project`; each updater's
 * `GetResourceId`) and the provider's exported resource schemas (e.g.
 * google_artifact_registry_repository_iam_member: `repository`, `location`,
 * `project`; google_cloud_run_v2_service_iam_member: `name`, `location`,
 * `project`; google_organization_iam_member: `org_id`); each row is
 * checked against the generated Discovery table (GoogleIamApis) by the unit
 * tests. A row added here moves in (and the stand-in google provider of the
 * tests serves its schemas). Cloud Storage, Compute Engine and BigQuery serve
 * IAM elsewhere: the generic kinds do not reach them, so they are not here.
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
