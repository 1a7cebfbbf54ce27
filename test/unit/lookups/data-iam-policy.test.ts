/**
 * The Output form at synth level: which `external` data sources Terraform
 * will read, with which queries (never a credential), and what fails at
 * synth. plan-time.e2e.test.ts runs them under the real terraform.
 */
import { Testing, TerraformStack, TerraformVariable, Tokenization } from 'cdktf';
import {
  AuthorizationPolicyIamMember,
  DataAddressGroupIamPolicy,
  DataAuthorizationPolicyIamPolicy,
  DataGoogleIamPolicy,
  DataImportJob,
  DataMigrationJobIamPolicy,
  GetIamPolicyMethod,
} from '../../../lib';
import { resolveIn } from '../../support/resolve';

interface ExternalRead {
  program: string[];
  query: Record<string, string>;
  depends_on?: string[];
}

function reads(stack: TerraformStack): Record<string, ExternalRead> {
  return (JSON.parse(Testing.synth(stack)) as { data: { external: Record<string, ExternalRead> } }).data.external;
}

const newStack = () => new TerraformStack(Testing.app(), 'stack');

test('every read runs the runner through hashicorp/external, required once per stack; no other provider is needed', () => {
  const stack = newStack();
  new DataAddressGroupIamPolicy(stack, 'A', { addressGroupId: 'ag-1', location: 'global', project: 'my-project' });
  new DataAddressGroupIamPolicy(stack, 'B', { addressGroupId: 'ag-2', location: 'global' });
  new DataImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1' });
  const json = JSON.parse(Testing.synth(stack));
  expect(json.terraform.required_providers).toEqual({ external: { source: 'hashicorp/external', version: '>= 2.2.0' } });
  expect(Object.keys(json.provider)).toEqual(['external']);
  const all = Object.values(reads(stack));
  expect(all).toHaveLength(3);
  for (const read of all)
    expect(read.program).toEqual(['node', expect.stringMatching(/^assets\/CdktfGoogleIamRunner\/[0-9A-F]+\/runner\.js$/), 'read']);
});

test('the queries carry the resource, the version and the view; a missing project is left to the runner', () => {
  const stack = newStack();
  new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: 'ag', location: 'global', optionsRequestedPolicyVersion: 1 });
  new DataImportJob(stack, 'Full', { importJobId: 'job', location: 'us-central1', project: 'my-project', view: 'IMPORT_JOB_VIEW_FULL' });
  new DataImportJob(stack, 'Default', { importJobId: 'job', location: 'us-central1', project: 'my-project' });
  expect(
    Object.values(reads(stack))
      .map((r) => r.query)
      .sort((a, b) => a.label.localeCompare(b.label)),
  ).toEqual([
    { kind: 'importJob', collection: 'importJobs', project: 'my-project', location: 'us-central1', id: 'job', label: 'stack/Default' },
    {
      kind: 'importJob',
      collection: 'importJobs',
      project: 'my-project',
      location: 'us-central1',
      id: 'job',
      view: 'IMPORT_JOB_VIEW_FULL',
      label: 'stack/Full',
    },
    {
      kind: 'iamPolicy',
      service: 'networksecurity',
      apiVersion: 'v1',
      collection: 'addressGroups',
      location: 'global',
      id: 'ag',
      version: '1',
      label: 'stack/P',
    },
  ]);
});

test('no credential or endpoint is ever written: the runner reads them from its environment at plan time', () => {
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

test("attributes are Terraform expressions over the runner's answer; lists and objects travel as JSON", () => {
  const stack = newStack();
  const policy = new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: 'ag', location: 'global', project: 'my-project' });
  const job = new DataImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1' });
  const result = (id: string, key: string) => `data.external.${id}.result["${key}"]`;
  expect(resolveIn(stack, policy.etag)).toBe(`\${${result('P_Policy_Read_605534FC', 'etag')}}`);
  expect(resolveIn(stack, policy.version)).toBe(`\${tonumber(${result('P_Policy_Read_605534FC', 'version')})}`);
  expect(resolveIn(stack, policy.bindings)).toBe(`\${jsondecode(${result('P_Policy_Read_605534FC', 'bindings')})}`);
  expect(resolveIn(stack, policy.project)).toBe('my-project');
  expect(resolveIn(stack, job.project)).toMatch(/^\$\{data\.external\.J_ImportJob_Read_[0-9A-F]+\.result\["project"\]\}$/);
  expect(resolveIn(stack, job.state)).toMatch(/\.result\["state"\]\}$/);
  expect(resolveIn(stack, job.executionReport)).toMatch(
    /^\$\{jsondecode\(data\.external\.J_ImportJob_Read_[0-9A-F]+\.result\["executionReport"\]\)\}$/,
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
    expect(resolveIn(stack, attribute)).toMatch(/^\$\{jsondecode\(data\.external\.[A-Za-z_]+_[0-9A-F]+\.result\["[a-zA-Z]+"\]\)\}$/);
  }
});

test("a grant's etag is read after the grant, at version 3, by the grant's full resource name", () => {
  const stack = newStack();
  const grant = new AuthorizationPolicyIamMember(stack, 'G', {
    name: 'projects/my-project/locations/global/authorizationPolicies/ap',
    role: 'roles/networksecurity.authorizationPolicyViewer',
    member: 'user:a@example.com',
  });
  expect(grant.etag).toMatch(/\$\{TfToken/);
  const [read] = Object.values(reads(stack));
  expect(read.query).toEqual({
    kind: 'iamPolicy',
    service: 'networksecurity',
    apiVersion: 'v1',
    name: 'projects/my-project/locations/global/authorizationPolicies/ap',
    version: '3',
    label: 'stack/G',
  });
  expect(read.depends_on).toEqual([
    'terraform_data.google_iam_grants_applied["networksecurity:projects/my-project/locations/global/authorizationPolicies/ap|roles/networksecurity.authorizationPolicyViewer|user:a@example.com"]',
  ]);
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

  test('tokens are left for the runner to check at plan time', () => {
    const stack = newStack();
    const id = new TerraformVariable(stack, 'id', { type: 'string' }).stringValue;
    const view = new TerraformVariable(stack, 'view', { type: 'string' }).stringValue;
    const version = new TerraformVariable(stack, 'version', { type: 'number' }).numberValue;
    new DataImportJob(stack, 'J', { importJobId: id, location: 'us-central1', view });
    new DataAddressGroupIamPolicy(stack, 'P', { addressGroupId: id, location: 'global', optionsRequestedPolicyVersion: version });
    expect(Object.values(reads(stack)).map((r) => r.query)).toEqual([
      expect.objectContaining({ id: '${var.id}', view: '${var.view}' }),
      expect.objectContaining({ id: '${var.id}', version: '${var.version}' }),
    ]);
  });
});

describe('the lookups of the new policies, and of any resource', () => {
  test("queries: the typed ones by collection and id, the generic one by full name with its API's method", () => {
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
    expect(
      Object.values(reads(stack))
        .map((r) => r.query)
        .sort((a, b) => a.label.localeCompare(b.label)),
    ).toEqual([
      {
        kind: 'iamPolicy',
        service: 'networksecurity',
        apiVersion: 'v1',
        collection: 'authorizationPolicies',
        project: 'my-project',
        location: 'global',
        id: 'ap',
        version: '3',
        label: 'stack/Ap',
      },
      {
        kind: 'iamPolicy',
        service: 'datamigration',
        apiVersion: 'v1',
        collection: 'migrationJobs',
        location: 'us-central1',
        id: 'mj',
        version: '1',
        label: 'stack/Mj',
      },
      {
        kind: 'iamPolicy',
        service: 'cloudresourcemanager',
        apiVersion: 'v3',
        getIamPolicyMethod: 'POST',
        name: 'projects/my-project',
        version: '1',
        label: 'stack/Project',
      },
      {
        kind: 'iamPolicy',
        service: 'secretmanager',
        apiVersion: 'v1',
        name: 'projects/my-project/secrets/s',
        version: '3',
        label: 'stack/Secret',
      },
    ]);
    expect(secret.resource.policyReadMethod).toBe(GetIamPolicyMethod.GET);
    expect(project.resource.policyReadMethod).toBe(GetIamPolicyMethod.POST);
    expect(resolveIn(stack, project.bindings)).toMatch(
      /^\$\{jsondecode\(data\.external\.Project_Policy_Read_[0-9A-F]+\.result\["bindings"\]\)\}$/,
    );
    expect(resolveIn(stack, project.project)).toMatch(/\.result\["project"\]\}$/);
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
      'an unreachable service',
      (s: TerraformStack) => new DataGoogleIamPolicy(s, 'Bad', { resource: { service: 'storage', apiVersion: 'v1', name: 'b/bucket' } }),
      'stack/Bad: resource.service: not reachable by a generic grant: storage serves IAM at other paths',
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

  test('a generic name only Terraform knows is left for the runner', () => {
    const stack = newStack();
    const name = new TerraformVariable(stack, 'topic', { type: 'string' }).stringValue;
    new DataGoogleIamPolicy(stack, 'P', { resource: { service: 'pubsub', apiVersion: 'v1', name } });
    expect(Object.values(reads(stack)).map((r) => r.query)).toEqual([expect.objectContaining({ service: 'pubsub', name: '${var.topic}' })]);
  });
});
