/**
 * The Output form at synth level: which data sources of the provider
 * Terraform will read, with which arguments (never a credential), and what
 * fails at synth. plan-time.e2e.test.ts runs them under the real terraform.
 */
import { Testing, TerraformStack, TerraformVariable, Tokenization } from 'cdktf';
import {
  DataAddressGroupIamPolicy,
  DataAuthorizationPolicyIamPolicy,
  DataGoogleIamPolicy,
  DataImportJob,
  DataMigrationJobIamPolicy,
  GetIamPolicyMethod,
} from '../../../lib';
import { resolveIn } from '../../support/resolve';
import { synthJson } from '../../support/synth-json';

const newStack = () => new TerraformStack(Testing.app(), 'stack');

test("every read is a data source of the googleiam provider, required once per stack, which gets the provider's default block", () => {
  const stack = newStack();
  new DataAddressGroupIamPolicy(stack, 'A', { addressGroupId: 'ag-1', location: 'global', project: 'my-project' });
  new DataAddressGroupIamPolicy(stack, 'B', { addressGroupId: 'ag-2', location: 'global' });
  new DataImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1' });
  const json = synthJson(stack);
  expect(json.terraform.required_providers).toEqual({ googleiam: { source: 'cdktf-google-iam/googleiam', version: '0.1.0' } });
  expect(json.provider).toEqual({ googleiam: [{}] });
  expect(Object.keys(json.data).sort()).toEqual(['googleiam_address_group_iam_policy', 'googleiam_import_job']);
});

test('the arguments carry the resource, the version and the view; a missing project is left to the provider', () => {
  const stack = newStack();
  new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: 'ag', location: 'global', optionsRequestedPolicyVersion: 1 });
  new DataImportJob(stack, 'Full', { importJobId: 'job', location: 'us-central1', project: 'my-project', view: 'IMPORT_JOB_VIEW_FULL' });
  new DataImportJob(stack, 'Basic', { importJobId: 'job', location: 'us-central1', project: 'my-project' });
  const { data } = synthJson(stack);
  expect(data.googleiam_import_job).toEqual({
    Basic: { import_job_id: 'job', location: 'us-central1', project: 'my-project' },
    Full: { import_job_id: 'job', location: 'us-central1', project: 'my-project', view: 'IMPORT_JOB_VIEW_FULL' },
  });
  expect(data.googleiam_address_group_iam_policy).toEqual({
    P: { address_group_id: 'ag', location: 'global', options_requested_policy_version: 1 },
  });
});

test('no credential or endpoint is ever written: the provider reads them from its configuration and environment', () => {
  process.env.GOOGLE_OAUTH_ACCESS_TOKEN = 'ya29.canary-synth';
  process.env.CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY = 'http://127.0.0.1:9/';
  try {
    const stack = newStack();
    new DataImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1' });
    new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: 'ag', location: 'global' });
    const synthesized = Testing.synth(stack);
    expect(synthesized).not.toContain('ya29.canary-synth');
    expect(synthesized).not.toContain('127.0.0.1');
  } finally {
    delete process.env.GOOGLE_OAUTH_ACCESS_TOKEN;
    delete process.env.CLOUDSDK_API_ENDPOINT_OVERRIDES_NETWORKSECURITY;
  }
});

test("attributes are Terraform expressions over the data source's; the import job's parts are decoded from their JSON text", () => {
  const stack = newStack();
  const policy = new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: 'ag', location: 'global', project: 'my-project' });
  const job = new DataImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1' });
  const ds = 'data.googleiam_address_group_iam_policy.P';
  expect(resolveIn(stack, policy.etag)).toBe(`\${${ds}.etag}`);
  expect(resolveIn(stack, policy.version)).toBe(`\${${ds}.version}`);
  expect(resolveIn(stack, policy.bindings)).toBe(`\${${ds}.bindings}`);
  expect(resolveIn(stack, policy.auditConfigs)).toBe(`\${${ds}.audit_configs}`);
  expect(resolveIn(stack, policy.body)).toBe(`\${${ds}.policy_data}`);
  expect(resolveIn(stack, policy.project)).toBe('my-project');
  expect(resolveIn(stack, job.project)).toBe('${data.googleiam_import_job.J.project}');
  expect(resolveIn(stack, job.state)).toBe('${data.googleiam_import_job.J.state}');
  expect(resolveIn(stack, job.labels)).toBe('${data.googleiam_import_job.J.labels}');
  // A part Google did not send is null text, which jsondecode refuses: the coalesce makes it a null value.
  expect(resolveIn(stack, job.executionReport)).toBe('${jsondecode(coalesce(data.googleiam_import_job.J.execution_report_json, "null"))}');
  expect(resolveIn(stack, job.objectStoragePayload)).toBe(
    '${jsondecode(coalesce(data.googleiam_import_job.J.object_storage_payload_json, "null"))}',
  );
});

test('list and object attributes are resolvable objects, not string tokens, so the jsii kernel can hand them to other languages', () => {
  const stack = newStack();
  const policies = [
    new DataAddressGroupIamPolicy(stack, 'AG', { addressGroupId: 'ag', location: 'global' }),
    new DataAuthorizationPolicyIamPolicy(stack, 'AP', { authorizationPolicyId: 'ap', location: 'global' }),
    new DataMigrationJobIamPolicy(stack, 'MJ', { migrationJobId: 'mj', location: 'us-central1' }),
    new DataGoogleIamPolicy(stack, 'Any', { resource: { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p/secrets/s' } }),
  ];
  const job = new DataImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1' });
  const attributes = [
    ...policies.flatMap((p) => [p.bindings, p.auditConfigs]),
    job.labels,
    job.executionReport,
    job.validationReport,
    job.objectStoragePayload,
    job.inlinePayload,
  ];
  for (const attribute of attributes) {
    expect(typeof attribute).toBe('object');
    expect(Tokenization.isResolvable(attribute)).toBe(true);
    expect(resolveIn(stack, attribute)).toMatch(
      /^\$\{(jsondecode\(coalesce\()?data\.googleiam_[a-z_]+\.[A-Za-z]+\.[a-z_]+(, "null"\)\))?\}$/,
    );
  }
});

describe('synth-time checks name the construct path and the field', () => {
  test.each([
    [
      'version 2',
      (s: TerraformStack) =>
        new DataAddressGroupIamPolicy(s, 'Bad', { addressGroupId: 'ag', location: 'global', optionsRequestedPolicyVersion: 2 }),
      'stack/Bad: optionsRequestedPolicyVersion: expected 0, 1 or 3',
    ],
    [
      'a bad address group id',
      (s: TerraformStack) => new DataAddressGroupIamPolicy(s, 'Bad', { addressGroupId: 'ag/../x', location: 'global' }),
      'stack/Bad: addressGroupId: expected',
    ],
    [
      'a bad location',
      (s: TerraformStack) => new DataImportJob(s, 'Bad', { importJobId: 'job', location: 'US Central' }),
      'stack/Bad: location: expected a location',
    ],
    [
      'a bad project',
      (s: TerraformStack) => new DataImportJob(s, 'Bad', { importJobId: 'job', location: 'us-central1', project: 'My_Project' }),
      'stack/Bad: project: expected a project ID',
    ],
    [
      'a bad view',
      (s: TerraformStack) => new DataImportJob(s, 'Bad', { importJobId: 'job', location: 'us-central1', view: 'full' }),
      'stack/Bad: view: expected one of IMPORT_JOB_VIEW_UNSPECIFIED, IMPORT_JOB_VIEW_BASIC, IMPORT_JOB_VIEW_FULL (got "full")',
    ],
  ])('%s', (_label, build, message) => {
    expect(() => build(newStack())).toThrow(message);
  });

  test('tokens are left for the provider to check at plan time', () => {
    const stack = newStack();
    const id = new TerraformVariable(stack, 'id', { type: 'string' }).stringValue;
    const view = new TerraformVariable(stack, 'view', { type: 'string' }).stringValue;
    const version = new TerraformVariable(stack, 'version', { type: 'number' }).numberValue;
    new DataImportJob(stack, 'J', { importJobId: id, location: 'us-central1', view });
    new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: id, location: 'global', optionsRequestedPolicyVersion: version });
    const { data } = synthJson(stack);
    expect(data.googleiam_import_job.J).toMatchObject({ import_job_id: '${var.id}', view: '${var.view}' });
    expect(data.googleiam_address_group_iam_policy.P).toMatchObject({
      address_group_id: '${var.id}',
      options_requested_policy_version: '${var.version}',
    });
  });
});

describe('the lookups of the new policies, and of any resource', () => {
  test("arguments: the typed ones by id, the generic one by full name with its API's method", () => {
    const stack = newStack();
    new DataAuthorizationPolicyIamPolicy(stack, 'Ap', { authorizationPolicyId: 'ap', location: 'global', project: 'my-project' });
    new DataMigrationJobIamPolicy(stack, 'Mj', { migrationJobId: 'mj', location: 'us-central1', optionsRequestedPolicyVersion: 1 });
    const secret = new DataGoogleIamPolicy(stack, 'Secret', {
      resource: { service: 'secretmanager', apiVersion: 'v1', name: 'projects/my-project/secrets/s' },
    });
    const project = new DataGoogleIamPolicy(stack, 'Project', {
      resource: { service: 'cloudresourcemanager', apiVersion: 'v3', name: 'projects/my-project' },
      optionsRequestedPolicyVersion: 1,
    });
    const { data } = synthJson(stack);
    expect(data.googleiam_authorization_policy_iam_policy.Ap).toEqual({
      authorization_policy_id: 'ap',
      location: 'global',
      project: 'my-project',
      options_requested_policy_version: 3,
    });
    expect(data.googleiam_migration_job_iam_policy.Mj).toEqual({
      migration_job_id: 'mj',
      location: 'us-central1',
      options_requested_policy_version: 1,
    });
    expect(data.googleiam_iam_policy).toEqual({
      Project: {
        service: 'cloudresourcemanager',
        api_version: 'v3',
        get_iam_policy_method: 'POST',
        name: 'projects/my-project',
        options_requested_policy_version: 1,
      },
      Secret: { service: 'secretmanager', api_version: 'v1', name: 'projects/my-project/secrets/s', options_requested_policy_version: 3 },
    });
    expect(secret.resource.policyReadMethod).toBe(GetIamPolicyMethod.GET);
    expect(project.resource.policyReadMethod).toBe(GetIamPolicyMethod.POST);
    expect(resolveIn(stack, project.bindings)).toBe('${data.googleiam_iam_policy.Project.bindings}');
    // The generic data source has no project: the name gives it.
    expect(project.project).toBe('my-project');
  });

  test.each([
    [
      'a bad authorization policy id',
      (s: TerraformStack) => new DataAuthorizationPolicyIamPolicy(s, 'Bad', { authorizationPolicyId: 'ap/x', location: 'global' }),
      'stack/Bad: authorizationPolicyId: expected',
    ],
    [
      'a bad migration job location',
      (s: TerraformStack) => new DataMigrationJobIamPolicy(s, 'Bad', { migrationJobId: 'mj', location: 'US' }),
      'stack/Bad: location: expected a location',
    ],
    [
      'version 2',
      (s: TerraformStack) =>
        new DataGoogleIamPolicy(s, 'Bad', {
          resource: { service: 'pubsub', apiVersion: 'v1', name: 'projects/p/topics/t' },
          optionsRequestedPolicyVersion: 2,
        }),
      'stack/Bad: optionsRequestedPolicyVersion: expected 0, 1 or 3',
    ],
    [
      'a bad service',
      (s: TerraformStack) =>
        new DataGoogleIamPolicy(s, 'Bad', { resource: { service: 'Pub/Sub', apiVersion: 'v1', name: 'projects/p/topics/t' } }),
      'stack/Bad: resource.service: expected a Google API name',
    ],
    [
      'a bucket in a project (a bucket is b/<bucket>, or projects/_/buckets/<bucket>)',
      (s: TerraformStack) =>
        new DataGoogleIamPolicy(s, 'Bad', { resource: { service: 'storage', apiVersion: 'v1', name: 'projects/p/buckets/bucket' } }),
      'stack/Bad: resource.name: not in any IAM-enabled collection of storage v1',
    ],
    [
      'a bad version',
      (s: TerraformStack) =>
        new DataGoogleIamPolicy(s, 'Bad', { resource: { service: 'pubsub', apiVersion: 'latest', name: 'projects/p/topics/t' } }),
      'stack/Bad: resource.apiVersion: expected a Google API version',
    ],
    [
      'a bad name',
      (s: TerraformStack) =>
        new DataGoogleIamPolicy(s, 'Bad', { resource: { service: 'pubsub', apiVersion: 'v1', name: 'projects/p/topics/t?x=1' } }),
      'stack/Bad: resource.name: contains "?"',
    ],
  ])('%s is refused at synth', (_label, build, message) => {
    expect(() => build(newStack())).toThrow(message);
  });

  test('a generic name only Terraform knows is left for the provider', () => {
    const stack = newStack();
    const name = new TerraformVariable(stack, 'topic', { type: 'string' }).stringValue;
    new DataGoogleIamPolicy(stack, 'P', { resource: { service: 'pubsub', apiVersion: 'v1', name } });
    expect(synthJson(stack).data.googleiam_iam_policy.P).toMatchObject({ service: 'pubsub', name: '${var.topic}' });
  });
});
