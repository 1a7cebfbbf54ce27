/**
 * Every stack that uses a construct of the library gets the googleiam
 * provider (required_providers and a default provider block) with no user
 * code; users may declare their own, default or aliased, before or after the
 * constructs, and never end up with two defaults.
 */
import { TerraformStack, Testing } from 'cdktf';
import { AuthorizationPolicyIamMember, DataImportJob, GoogleIamProvider } from '../../../lib';
import { resourceOf, synthJson } from '../../support/synth-json';

const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';
const ROLE = 'roles/networksecurity.viewer';
const newStack = () => new TerraformStack(Testing.app(), 'stack');
const grant = (stack: TerraformStack, id: string, provider?: GoogleIamProvider) =>
  new AuthorizationPolicyIamMember(stack, id, { name: AP, role: ROLE, member: `user:${id.toLowerCase()}@example.com`, provider });

test('a stack with a construct requires cdktf-google-iam/googleiam at the package version and gets a default provider block', () => {
  const stack = newStack();
  grant(stack, 'Alice');
  const json = synthJson(stack);
  expect(json.terraform.required_providers).toEqual({ googleiam: { source: 'cdktf-google-iam/googleiam', version: '0.1.0' } });
  expect(json.provider).toEqual({ googleiam: [{}] });
  // Nothing of the former engine: no terraform_data, no external data source, no check blocks.
  expect(Object.keys(json.resource)).toEqual(['googleiam_authorization_policy_iam_member']);
  expect(json).not.toHaveProperty('data');
  expect(json).not.toHaveProperty('check');
  expect(json).not.toHaveProperty('locals');
});

test('a stack without any construct of the library gets no provider', () => {
  const app = Testing.app();
  const used = new TerraformStack(app, 'used');
  new TerraformStack(app, 'unused');
  new DataImportJob(used, 'J', { importJobId: 'job', location: 'us-central1' });
  expect(synthJson(app.node.findChild('unused') as TerraformStack)).not.toHaveProperty('provider');
});

test.each(['before', 'after'])('a default provider the user declares %s the constructs is the only default', (when) => {
  const stack = newStack();
  if (when === 'before') new GoogleIamProvider(stack, 'Mine', { project: 'p-123456' });
  grant(stack, 'Alice');
  if (when === 'after') new GoogleIamProvider(stack, 'Mine', { project: 'p-123456' });
  expect(synthJson(stack).provider).toEqual({ googleiam: [{ project: 'p-123456' }] });
});

test('an aliased provider: the grants that name it use it, the others the default block, which is still added', () => {
  const stack = newStack();
  const admin = new GoogleIamProvider(stack, 'Admin', {
    alias: 'admin',
    impersonateServiceAccount: 'admin@p-123456.iam.gserviceaccount.com',
  });
  const alice = grant(stack, 'Alice', admin);
  const bob = grant(stack, 'Bob');
  expect(synthJson(stack).provider.googleiam).toEqual([
    { alias: 'admin', impersonate_service_account: 'admin@p-123456.iam.gserviceaccount.com' },
    {},
  ]);
  expect(resourceOf(stack, alice).provider).toBe('googleiam.admin');
  expect(resourceOf(stack, bob)).not.toHaveProperty('provider');
});

test('credentials given to the provider stay out of the resources and data sources', () => {
  const stack = newStack();
  const other = new GoogleIamProvider(stack, 'Other', { alias: 'other', accessToken: 'ya29.canary' });
  grant(stack, 'Alice', other);
  const json = synthJson(stack);
  expect(JSON.stringify(json.resource)).not.toContain('ya29.canary');
  expect(json.provider.googleiam[0]).toEqual({ alias: 'other', access_token: 'ya29.canary' });
});
