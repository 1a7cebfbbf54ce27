/**
 * The embedded emulator for the examples: seeded with the resources the
 * example app refers to, so the demo and `npx cdktf synth` work with no
 * Google account.
 */
import { GoogleApiEmulator } from '../lib/testing';
import { ADDRESS_GROUP, AUTHORIZATION_POLICY, IMPORT_JOB, MIGRATION_JOB } from './app';

export async function startSeededEmulator(log?: (line: string) => void): Promise<GoogleApiEmulator> {
  const emulator = await GoogleApiEmulator.start({ log });
  // Someone else's grants, which the example must leave alone.
  emulator.addResource(AUTHORIZATION_POLICY, {
    version: 1,
    bindings: [{ role: 'roles/networksecurity.admin', members: ['user:platform-team@example.com'] }],
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'ADMIN_READ' }] }],
  });
  emulator.addResource(MIGRATION_JOB, {
    bindings: [{ role: 'projects/demo-project/roles/dbaOnCall', members: ['user:dba@example.com'] }],
  });
  const { project, location, addressGroupId } = ADDRESS_GROUP;
  emulator.addResource(`projects/${project}/locations/${location}/addressGroups/${addressGroupId}`, {
    version: 3,
    bindings: [
      {
        role: 'roles/compute.networkUser',
        members: ['group:network-admins@example.com'],
        condition: { title: 'office-hours', expression: 'request.time.getHours("Europe/Berlin") >= 8' },
      },
    ],
  });
  emulator.addImportJob({
    name: `projects/${IMPORT_JOB.project}/locations/${IMPORT_JOB.location}/importJobs/${IMPORT_JOB.importJobId}`,
    displayName: 'Inventory import 2026',
    assetSource: `projects/${IMPORT_JOB.project}/locations/${IMPORT_JOB.location}/sources/vcenter`,
    state: 'IMPORT_JOB_STATE_COMPLETED',
    createTime: '2026-11-01T09:00:00Z',
    updateTime: '2026-11-01T09:12:00Z',
    completeTime: '2026-11-01T09:12:00Z',
    labels: { team: 'migration' },
    gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_CSV', path: 'gs://inventory/rvtools.csv' },
    executionReport: { framesReported: 412, totalRowsCount: 412, executionErrors: { fileValidations: [], jobErrors: [] }, jobErrors: [] },
    validationReport: { fileValidations: [], jobErrors: [] },
  });
  return emulator;
}

/** True when the environment already points somewhere real (or at another emulator). */
export function hasGoogleConfiguration(env: NodeJS.ProcessEnv): boolean {
  return Boolean(
    env.GOOGLE_OAUTH_ACCESS_TOKEN || env.GOOGLE_APPLICATION_CREDENTIALS || env.CLOUDSDK_API_ENDPOINT_OVERRIDES_MIGRATIONCENTER,
  );
}
