/**
 * One sample of each row of the google → generic move table (lib/provider/resources/google-move-table.ts): a
 * google `_iam_member`'s state as terraform-provider-google stores it, the generic resource it moves to, and a
 * role grantable there. The unit and the real-terraform tests of moves share them.
 */
export const GOOGLE_MOVE_SAMPLES: readonly {
  readonly google: string;
  readonly state: Record<string, unknown>;
  readonly service: string;
  readonly apiVersion: string;
  readonly name: string;
  readonly role: string;
}[] = [
  {
    google: 'google_project',
    state: { project: 'p-123456' },
    service: 'cloudresourcemanager',
    apiVersion: 'v3',
    name: 'projects/p-123456',
    role: 'roles/viewer',
  },
  {
    google: 'google_folder',
    state: { folder: 'folders/123' },
    service: 'cloudresourcemanager',
    apiVersion: 'v3',
    name: 'folders/123',
    role: 'roles/resourcemanager.folderViewer',
  },
  {
    google: 'google_organization',
    state: { org_id: '456' },
    service: 'cloudresourcemanager',
    apiVersion: 'v3',
    name: 'organizations/456',
    role: 'roles/resourcemanager.organizationViewer',
  },
  {
    google: 'google_service_account',
    state: { service_account_id: 'projects/p-123456/serviceAccounts/sa@p-123456.iam.gserviceaccount.com' },
    service: 'iam',
    apiVersion: 'v1',
    name: 'projects/p-123456/serviceAccounts/sa@p-123456.iam.gserviceaccount.com',
    role: 'roles/iam.serviceAccountUser',
  },
  {
    google: 'google_pubsub_topic',
    state: { topic: 'projects/p-123456/topics/t', project: 'p-123456' },
    service: 'pubsub',
    apiVersion: 'v1',
    name: 'projects/p-123456/topics/t',
    role: 'roles/pubsub.subscriber',
  },
  {
    google: 'google_pubsub_subscription',
    state: { subscription: 's', project: 'p-123456' },
    service: 'pubsub',
    apiVersion: 'v1',
    name: 'projects/p-123456/subscriptions/s',
    role: 'roles/pubsub.subscriber',
  },
  {
    google: 'google_secret_manager_secret',
    state: { secret_id: 'projects/p-123456/secrets/db-password', project: 'p-123456' },
    service: 'secretmanager',
    apiVersion: 'v1',
    name: 'projects/p-123456/secrets/db-password',
    role: 'roles/secretmanager.secretAccessor',
  },
  {
    google: 'google_kms_key_ring',
    state: { key_ring_id: 'projects/p-123456/locations/europe-west1/keyRings/k' },
    service: 'cloudkms',
    apiVersion: 'v1',
    name: 'projects/p-123456/locations/europe-west1/keyRings/k',
    role: 'roles/cloudkms.viewer',
  },
  {
    google: 'google_kms_crypto_key',
    state: { crypto_key_id: 'projects/p-123456/locations/europe-west1/keyRings/k/cryptoKeys/c' },
    service: 'cloudkms',
    apiVersion: 'v1',
    name: 'projects/p-123456/locations/europe-west1/keyRings/k/cryptoKeys/c',
    role: 'roles/cloudkms.cryptoKeyEncrypterDecrypter',
  },
  {
    google: 'google_artifact_registry_repository',
    state: { project: 'p-123456', location: 'europe-west1', repository: 'images' },
    service: 'artifactregistry',
    apiVersion: 'v1',
    name: 'projects/p-123456/locations/europe-west1/repositories/images',
    role: 'roles/artifactregistry.reader',
  },
  {
    google: 'google_cloud_run_v2_service',
    state: { project: 'p-123456', location: 'europe-west1', name: 'api' },
    service: 'run',
    apiVersion: 'v2',
    name: 'projects/p-123456/locations/europe-west1/services/api',
    role: 'roles/run.invoker',
  },
];
