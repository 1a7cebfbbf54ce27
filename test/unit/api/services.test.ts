import { defaultProject } from '../../../lib/api/credentials';
import { endpointOverrideVariable, serviceRootUrl } from '../../../lib/api/services';

test('the public endpoint unless gcloud-style overrides say otherwise', () => {
  expect(serviceRootUrl('networksecurity', {})).toBe('https://networksecurity.googleapis.com/');
  expect(endpointOverrideVariable('datamigration')).toBe('CLOUDSDK_API_ENDPOINT_OVERRIDES_DATAMIGRATION');
  expect(serviceRootUrl('datamigration', { CLOUDSDK_API_ENDPOINT_OVERRIDES_DATAMIGRATION: 'http://127.0.0.1:9/' })).toBe(
    'http://127.0.0.1:9/',
  );
  expect(serviceRootUrl('migrationcenter', { CLOUDSDK_API_ENDPOINT_OVERRIDES_MIGRATIONCENTER: 'http://127.0.0.1:9' })).toBe(
    'http://127.0.0.1:9/',
  );
  expect(serviceRootUrl('migrationcenter', { CLOUDSDK_API_ENDPOINT_OVERRIDES_MIGRATIONCENTER: '  ' })).toBe(
    'https://migrationcenter.googleapis.com/',
  );
});

test('the default project comes from the environment, in the SDKs’ order, and never from the metadata server', async () => {
  expect(await defaultProject({ GOOGLE_CLOUD_PROJECT: 'a', GOOGLE_PROJECT: 'b' })).toBe('a');
  expect(await defaultProject({ GOOGLE_PROJECT: 'b', CLOUDSDK_CORE_PROJECT: 'c' })).toBe('b');
  expect(await defaultProject({ CLOUDSDK_CORE_PROJECT: 'c' })).toBe('c');
  expect(await defaultProject({})).toBeUndefined();
});
