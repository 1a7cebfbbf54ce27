/**
 * The provider's L1 classes are generated from its schema (the one source)
 * by scripts/generate-provider-bindings.js. The generator runs in a child
 * process (it bundles the schema with esbuild and formats with Prettier) and
 * writes nothing here: it generates into memory and compares.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { TerraformStack, Testing } from 'cdktf';
import { GoogleiamAuthorizationPolicyIamMember } from '../../../lib/provider-bindings/authorization-policy-iam-member.generated';
import { GoogleiamAuthorizationPolicyIamPolicy } from '../../../lib/provider-bindings/authorization-policy-iam-policy.generated';
import { DataGoogleiamImportJob } from '../../../lib/provider-bindings/data-import-job.generated';
import { resolveIn } from '../../support/resolve';

const ROOT = path.join(__dirname, '..', '..', '..');
const GENERATOR = path.join(ROOT, 'scripts', 'generate-provider-bindings.js');

jest.setTimeout(60_000);

test('the generated L1 classes are what the provider schema generates (npm run generate:provider-bindings)', () => {
  const result = spawnSync(process.execPath, [GENERATOR, '--check'], { cwd: ROOT, encoding: 'utf8', timeout: 55_000 });
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
});

test('one class per type: its Terraform type, camelCase config as snake_case attributes, nested attributes as objects', () => {
  const stack = new TerraformStack(Testing.app(), 'stack');
  const policy = new GoogleiamAuthorizationPolicyIamPolicy(stack, 'P', {
    name: 'projects/p-123456/locations/global/authorizationPolicies/ap',
    bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'], condition: { title: 't', expression: 'true' } }],
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:b@example.com'] }] }],
  });
  const job = new DataGoogleiamImportJob(stack, 'J', { importJobId: 'job', location: 'us-central1' });
  const json = JSON.parse(Testing.synth(stack));
  expect(json.resource.googleiam_authorization_policy_iam_policy.P).toEqual({
    name: 'projects/p-123456/locations/global/authorizationPolicies/ap',
    bindings: [{ role: 'roles/viewer', members: ['user:a@example.com'], condition: { title: 't', expression: 'true' } }],
    audit_configs: [{ service: 'allServices', audit_log_configs: [{ log_type: 'DATA_READ', exempted_members: ['user:b@example.com'] }] }],
  });
  expect(json.data.googleiam_import_job.J).toEqual({ import_job_id: 'job', location: 'us-central1' });
  expect(GoogleiamAuthorizationPolicyIamPolicy.tfResourceType).toBe('googleiam_authorization_policy_iam_policy');
  // Computed attributes are references; nested ones are resolvable objects.
  expect(resolveIn(stack, policy.etag)).toBe('${googleiam_authorization_policy_iam_policy.P.etag}');
  expect(resolveIn(stack, policy.bindings)).toBe('${googleiam_authorization_policy_iam_policy.P.bindings}');
  expect(resolveIn(stack, job.labels)).toBe('${data.googleiam_import_job.J.labels}');
  expect(resolveIn(stack, job.executionReportJson)).toBe('${data.googleiam_import_job.J.execution_report_json}');
});

test('each nested shape is written once: no two generated structs have the same fields, and the shared ones are imported', () => {
  const dir = path.join(ROOT, 'lib', 'provider-bindings');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.generated.ts'));
  const structs = files.flatMap((file) =>
    [...fs.readFileSync(path.join(dir, file), 'utf8').matchAll(/^export interface (\w+) \{\n([\s\S]*?)^\}/gm)].map(([, name, body]) => ({
      file,
      name,
      body,
    })),
  );
  const bodies = new Map<string, string[]>();
  for (const { file, name, body } of structs) bodies.set(body, [...(bodies.get(body) ?? []), `${file}: ${name}`]);
  expect([...bodies.values()].filter((names) => names.length > 1)).toEqual([]);
  // The IAM types' condition, bindings and audit configs, shared by the five families' member, binding and policy types.
  const shared = structs.filter((s) => s.file === 'structs.generated.ts').map((s) => s.name);
  expect(shared.length).toBeGreaterThan(0);
  const importers = files.filter((f) => fs.readFileSync(path.join(dir, f), 'utf8').includes("from './structs.generated'"));
  expect(importers.length).toBeGreaterThanOrEqual(2);
});

test("a member's condition, a block of the schema: the same JSON as before for cdktf, a `condition { … }` block in cdktf's HCL", () => {
  const stack = new TerraformStack(Testing.app(), 'stack');
  new GoogleiamAuthorizationPolicyIamMember(stack, 'M', {
    name: 'projects/p-123456/locations/global/authorizationPolicies/ap',
    role: 'roles/networksecurity.viewer',
    member: 'user:a@example.com',
    condition: { title: 'until-2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' },
  });
  const json = JSON.parse(Testing.synth(stack));
  expect(json.resource.googleiam_authorization_policy_iam_member.M.condition).toEqual({
    title: 'until-2030',
    expression: 'request.time < timestamp("2030-01-01T00:00:00Z")',
  });
  const hcl = String(Testing.synthHcl(stack));
  // (The expression, a literal string, is written so that Terraform cannot read it as a template.)
  expect(hcl).toMatch(/\n\s*condition \{\n\s*expression = .+\n\s*title = "until-2030"\n\s*\}/);
  expect(hcl).not.toMatch(/condition = \{/);
});
