/**
 * The Output form at synth level (its providers cannot be downloaded here):
 * what Terraform will call, with which credentials, and what fails at synth.
 */
import { Testing, TerraformStack, TerraformVariable } from 'cdktf';
import { GoogleProvider } from '@cdktf/provider-google/lib/provider';
import { DataGoogleClientConfig } from '@cdktf/provider-google/lib/data-google-client-config';
import { HttpProvider } from '@cdktf/provider-http/lib/provider';
import { DataHttp } from '@cdktf/provider-http/lib/data-http';
import { AuthorizationPolicyIamMember, DataAddressGroupIamPolicy, DataImportJob } from '../../lib';
import { resolveIn } from '../support/resolve';

interface HttpRead { url: string; request_headers: Record<string, string>; lifecycle: { postcondition: Array<{ condition: string; error_message: string }> } }

function reads(synthesized: string): HttpRead[] {
  return Object.values((JSON.parse(synthesized) as { data: { http: Record<string, HttpRead> } }).data.http);
}

const newStack = () => new TerraformStack(Testing.app(), 'stack');
const OVERRIDES = ['CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY', 'CLOUDSDK_API_ENDPOINT_OVERRIDES_MIGRATIONCENTER'];
const saved = OVERRIDES.map((name) => process.env[name]);
beforeEach(() => OVERRIDES.forEach((name) => delete process.env[name]));
afterAll(() => OVERRIDES.forEach((name, i) => (saved[i] === undefined ? delete process.env[name] : (process.env[name] = saved[i]))));

test('several reads share one google_client_config and add each provider once', () => {
  const stack = newStack();
  new DataAddressGroupIamPolicy(stack, 'A', { addressGroupId: 'ag-1', location: 'global', project: 'my-project' });
  new DataAddressGroupIamPolicy(stack, 'B', { addressGroupId: 'ag-2', location: 'global' });
  new DataImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1' });
  const synthesized = Testing.synth(stack);
  expect(synthesized).toHaveProvider(GoogleProvider);
  expect(synthesized).toHaveProvider(HttpProvider);
  const json = JSON.parse(synthesized) as { provider: Record<string, unknown[]>; data: Record<string, Record<string, unknown>> };
  expect(json.provider.google).toHaveLength(1);
  expect(json.provider.http).toHaveLength(1);
  expect(Object.keys(json.data.google_client_config)).toHaveLength(1);
  expect(Object.keys(json.data.http)).toHaveLength(3);
});

test('a stack that has a google provider keeps it and gets no second one', () => {
  const stack = newStack();
  new GoogleProvider(stack, 'mine', { project: 'configured-project', region: 'europe-west4' });
  new DataImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1' });
  const json = JSON.parse(Testing.synth(stack)) as { provider: Record<string, Array<Record<string, unknown>>> };
  expect(json.provider.google).toEqual([{ project: 'configured-project', region: 'europe-west4' }]);
});

test('the version and the view reach the API; the project defaults to the provider’s', () => {
  const stack = newStack();
  new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: 'ag', location: 'global', optionsRequestedPolicyVersion: 1 });
  new DataImportJob(stack, 'Full', { importJobId: 'job', location: 'us-central1', project: 'my-project', view: 'IMPORT_JOB_VIEW_FULL' });
  new DataImportJob(stack, 'Default', { importJobId: 'job', location: 'us-central1', project: 'my-project' });
  expect(reads(Testing.synth(stack)).map((r) => r.url).sort()).toEqual([
    'https://migrationcenter.googleapis.com/v1alpha1/projects/my-project/locations/us-central1/importJobs/job',
    'https://migrationcenter.googleapis.com/v1alpha1/projects/my-project/locations/us-central1/importJobs/job?view=IMPORT_JOB_VIEW_FULL',
    'https://networksecurity.googleapis.com/v1/projects/${data.google_client_config.GoogleIamClientConfig.project}/locations/global/addressGroups/ag:getIamPolicy?options.requestedPolicyVersion=1',
  ]);
});

test('version 3 is asked for by default, and the endpoint override at synth time is honoured', () => {
  process.env.CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY = 'http://127.0.0.1:8080';
  const stack = newStack();
  new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: 'ag', location: 'global', project: 'my-project' });
  expect(reads(Testing.synth(stack))[0].url).toBe('http://127.0.0.1:8080/v1/projects/my-project/locations/global/addressGroups/ag:getIamPolicy?options.requestedPolicyVersion=3');
});

test('the bearer token comes from google_client_config, never literally; a non-200 answer fails the plan with the body', () => {
  process.env.GOOGLE_OAUTH_ACCESS_TOKEN = 'ya29.canary-synth';
  try {
    const stack = newStack();
    new DataImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1' });
    const synthesized = Testing.synth(stack);
    expect(synthesized).not.toContain('ya29.canary-synth');
    expect(synthesized).toHaveDataSource(DataGoogleClientConfig);
    expect(synthesized).toHaveDataSourceWithProperties(DataHttp, {
      request_headers: { Accept: 'application/json', Authorization: 'Bearer ${data.google_client_config.GoogleIamClientConfig.access_token}' },
    });
    expect(reads(synthesized)[0].lifecycle.postcondition).toEqual([{
      condition: '${self.status_code == 200}',
      error_message: 'GET ${self.url} answered HTTP ${self.status_code}: ${self.response_body}',
    }]);
  } finally {
    delete process.env.GOOGLE_OAUTH_ACCESS_TOKEN;
  }
});

test('attributes are Terraform expressions over the response body', () => {
  const stack = newStack();
  const policy = new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: 'ag', location: 'global', project: 'my-project' });
  const job = new DataImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1', project: 'my-project' });
  const body = (id: string) => `jsondecode(data.http.${id}.response_body)`;
  expect(resolveIn(stack, policy.etag)).toBe(`\${try(${body('P_Policy_Read_605534FC')}.etag, "")}`);
  expect(resolveIn(stack, policy.version)).toBe(`\${try(${body('P_Policy_Read_605534FC')}.version, 0)}`);
  expect(resolveIn(stack, policy.bindings)).toBe(`\${try(${body('P_Policy_Read_605534FC')}.bindings, [])}`);
  expect(resolveIn(stack, job.state)).toMatch(/^\$\{try\(jsondecode\(data\.http\.J_ImportJob_Read_[0-9A-F]+\.response_body\)\.state, ""\)\}$/);
  expect(resolveIn(stack, job.objectStoragePayload)).toMatch(/\.gcsPayload, \{"format" = "", "path" = ""\}\)\}$/);
  expect(resolveIn(stack, job.labels)).toMatch(/\.labels, \{\}\)\}$/);
  expect(resolveIn(stack, job.executionReport)).toMatch(/\.executionReport, \{"executionErrors" = \{"fileValidations" = \[\], "jobErrors" = \[\]\}, "framesReported" = 0, "jobErrors" = \[\], "totalRowsCount" = 0\}\)\}$/);
  expect(resolveIn(stack, policy.body)).toBe('${data.http.P_Policy_Read_605534FC.response_body}');
  expect(resolveIn(stack, job.body)).toMatch(/^\$\{data\.http\.J_ImportJob_Read_[0-9A-F]+\.response_body\}$/);
});

test('a grant’s etag is read after the grant, at version 3', () => {
  const stack = newStack();
  const grant = new AuthorizationPolicyIamMember(stack, 'G', { name: 'projects/my-project/locations/global/authorizationPolicies/ap', role: 'roles/networksecurity.authorizationPolicyViewer', member: 'user:a@example.com' });
  expect(grant.etag).toMatch(/\$\{TfToken/);
  const synthesized = Testing.synth(stack);
  const [read] = reads(synthesized);
  expect(read.url).toBe('https://networksecurity.googleapis.com/v1/projects/my-project/locations/global/authorizationPolicies/ap:getIamPolicy?options.requestedPolicyVersion=3');
  expect((JSON.parse(synthesized) as { data: { http: Record<string, { depends_on: string[] }> } }).data.http[Object.keys(JSON.parse(synthesized).data.http)[0]].depends_on)
    .toEqual([expect.stringMatching(/^terraform_data\.G$/)]);
});

describe('synth-time checks name the construct path and the field', () => {
  test.each([
    ['version 2', (s: TerraformStack) => new DataAddressGroupIamPolicy(s, 'Bad', { addressGroupId: 'ag', location: 'global', optionsRequestedPolicyVersion: 2 }), 'stack/Bad: optionsRequestedPolicyVersion: expected 0, 1 or 3'],
    ['a bad address group id', (s: TerraformStack) => new DataAddressGroupIamPolicy(s, 'Bad', { addressGroupId: 'ag/../x', location: 'global' }), 'stack/Bad: addressGroupId: expected'],
    ['a bad location', (s: TerraformStack) => new DataImportJob(s, 'Bad', { importJobId: 'job', location: 'US Central' }), 'stack/Bad: location: expected a location'],
    ['a bad project', (s: TerraformStack) => new DataImportJob(s, 'Bad', { importJobId: 'job', location: 'us-central1', project: 'My_Project' }), 'stack/Bad: project: expected a project ID'],
    ['a bad view', (s: TerraformStack) => new DataImportJob(s, 'Bad', { importJobId: 'job', location: 'us-central1', view: 'full' }), 'stack/Bad: view: expected one of IMPORT_JOB_VIEW_UNSPECIFIED, IMPORT_JOB_VIEW_BASIC, IMPORT_JOB_VIEW_FULL (got "full")'],
  ])('%s', (_label, build, message) => {
    expect(() => build(newStack())).toThrow(message);
  });

  test('tokens are left for Terraform', () => {
    const stack = newStack();
    const id = new TerraformVariable(stack, 'id', { type: 'string' }).stringValue;
    const view = new TerraformVariable(stack, 'view', { type: 'string' }).stringValue;
    const version = new TerraformVariable(stack, 'version', { type: 'number' }).numberValue;
    new DataImportJob(stack, 'J', { importJobId: id, location: 'us-central1', view });
    new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: id, location: 'global', optionsRequestedPolicyVersion: version });
    expect(reads(Testing.synth(stack)).map((r) => r.url)).toEqual([
      expect.stringContaining('importJobs/${var.id}?view=${var.view}'),
      expect.stringContaining('addressGroups/${var.id}:getIamPolicy?options.requestedPolicyVersion=${var.version}'),
    ]);
  });
});
