/**
 * The constructs (at synth), the provider's ValidateResourceConfig (at plan, for values Terraform learns late)
 * and the Direct-form lookup's query parser refuse the same service names, API versions and resource names,
 * with the same reason: the rules live in one place (lib/api/resource-validation.ts).
 */
import { Testing, TerraformStack } from 'cdktf';
import { GoogleIamMember } from '../../../lib';
import { ContractError } from '../../../lib/contract/contract-error';
import { parseReadQuery } from '../../../lib/contract/read-query';
import { Diagnostics } from '../../../lib/provider/framework/diagnostics';
import { googleIamProvider } from '../../../lib/provider/google-iam-provider';
import { ConstructValidationError } from '../../../lib/synth/errors';

const GOOD = { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p-123456/secrets/s' };

/** The construct's refusal (field and reason), or undefined when it accepts. */
function atSynth(resource: typeof GOOD): { field: string; reason: string } | undefined {
  try {
    new GoogleIamMember(new TerraformStack(Testing.app(), 'stack'), 'G', {
      resource,
      role: 'roles/secretmanager.secretAccessor',
      member: 'user:a@example.com',
    });
    return undefined;
  } catch (error) {
    if (!(error instanceof ConstructValidationError)) throw error;
    return { field: error.field, reason: error.reason };
  }
}

function refusedBy(parse: () => unknown): { field: string; reason: string } | undefined {
  try {
    parse();
    return undefined;
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    return { field: error.field, reason: error.reason };
  }
}

const GENERIC_MEMBER = googleIamProvider({}).resources.find((r) => r.typeName === 'googleiam_iam_member')!;

/** The provider's refusal at plan: the attribute (camelCase, as the construct names it) and the detail. */
function atPlan(resource: typeof GOOD): { field: string; detail: string } | undefined {
  const diagnostics = new Diagnostics();
  GENERIC_MEMBER.validate!(
    {
      service: resource.service,
      api_version: resource.apiVersion,
      name: resource.name,
      get_iam_policy_method: null,
      role: 'roles/secretmanager.secretAccessor',
      member: 'user:a@example.com',
      condition: null,
      id: null,
      etag: null,
      project: null,
    },
    diagnostics,
    { providerConfigured: false },
  );
  const error = diagnostics.all.find((d) => d.severity === 'ERROR');
  if (!error) return undefined;
  const field = String(error.attribute?.[0] ?? '').replace(/_(\w)/g, (_m, c: string) => c.toUpperCase());
  return { field, detail: error.detail };
}
const atLookup = (resource: typeof GOOD) =>
  refusedBy(() => parseReadQuery(JSON.stringify({ kind: 'iamPolicy', ...resource, version: '3' })));

test.each([
  ['a good resource', {}, true],
  ['a service with capitals', { service: 'SecretManager' }, false],
  ['a service with .googleapis.com', { service: 'secretmanager.googleapis.com' }, false],
  ['a service with a dash', { service: 'secret-manager' }, false],
  ['a service of 64 characters', { service: `s${'a'.repeat(63)}` }, false],
  ['a service with a slash', { service: 'evil.example.com/x' }, false],
  ['an unknown service', { service: 'nosuchapi' }, false],
  ['a bucket (Cloud Storage serves IAM at b/{bucket}/iam)', { service: 'storage', apiVersion: 'v1', name: 'b/bucket' }, true],
  ["a bucket by Google's full resource name", { service: 'storage', apiVersion: 'v1', name: 'projects/_/buckets/bucket' }, true],
  ['a bucket in a project', { service: 'storage', apiVersion: 'v1', name: 'projects/p-123456/buckets/bucket' }, false],
  ['a Compute Engine instance', { service: 'compute', apiVersion: 'v1', name: 'projects/p-123456/zones/z/instances/vm' }, true],
  ['API version v1beta1', { service: 'pubsub', apiVersion: 'v1', name: 'projects/p-123456/topics/t' }, true],
  ['API version 1', { apiVersion: '1' }, false],
  ['API version v1main', { apiVersion: 'v1main' }, false],
  ['API version v1/../v2', { apiVersion: 'v1/../v2' }, false],
  ['a version the API lacks', { apiVersion: 'v9' }, false],
  ['a name with %', { name: 'projects/p-123456/secrets/s%2F..' }, false],
  ['a name with ?', { name: 'projects/p-123456/secrets/s?alt=media' }, false],
  ['a name with #', { name: 'projects/p-123456/secrets/s#x' }, false],
  ['a name with a space', { name: 'projects/p-123456/secrets/s x' }, false],
  ['a name with ..', { name: 'projects/p-123456/secrets/../x' }, false],
  ['a name with //', { name: 'projects//secrets/s' }, false],
  ['a name with a trailing slash', { name: 'projects/p-123456/secrets/s/' }, false],
  ['a name with a verb', { name: 'projects/p-123456/secrets/s:getIamPolicy' }, false],
  ['a domain-scoped project', { name: 'projects/example.com:p/secrets/s' }, true],
  ['a name in no collection', { name: 'projects/p-123456/nothings/s' }, false],
])('%s: synth, plan and the lookup agree', (_what, change, accepted) => {
  const resource = { ...GOOD, ...change };
  const synth = atSynth(resource);
  expect(synth === undefined).toBe(accepted);
  const prefixless = synth && { field: synth.field.replace(/^resource\./, ''), reason: synth.reason };
  const plan = atPlan(resource);
  expect(plan === undefined).toBe(accepted);
  if (plan) {
    expect(plan.field).toBe(prefixless!.field);
    // Each names its own setting in a hint: the construct's prop, the provider's attribute.
    expect(plan.detail).toContain(synth!.reason.replace('policyReadMethod', 'get_iam_policy_method'));
  }
  expect(atLookup(resource)).toEqual(prefixless);
});
