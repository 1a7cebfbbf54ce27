/**
 * A grant's importFrom writes Terraform's `import` block for the grant's own resource, with the
 * google provider's import ID as given (the provider's ImportResourceState parses it).
 */
import { App, TerraformStack, Testing } from 'cdktf';
import { AuthorizationPolicyIamMember, GoogleIamBinding } from '../../../lib';

const AP = 'projects/p-123456/locations/global/authorizationPolicies/ap';

function synthesized(build: (stack: TerraformStack) => void): {
  import?: Array<{ to: string; id: string }>;
  resource: Record<string, Record<string, unknown>>;
} {
  const stack = new TerraformStack(Testing.app() as App, 'stack');
  build(stack);
  return JSON.parse(Testing.synth(stack));
}

test('a typed member grant: the import block targets its resource with the ID given', () => {
  const id = `${AP} roles/networksecurity.viewer user:bob@example.com`;
  const config = synthesized((stack) => {
    new AuthorizationPolicyIamMember(stack, 'Bob', {
      name: AP,
      role: 'roles/networksecurity.viewer',
      member: 'user:bob@example.com',
    }).importFrom(id);
  });
  const [name] = Object.keys(config.resource.googleiam_authorization_policy_iam_member);
  expect(config.import).toEqual([expect.objectContaining({ to: `googleiam_authorization_policy_iam_member.${name}`, id })]);
});

test('a generic conditional binding: Google full resource name and the condition title', () => {
  const id = '//secretmanager.googleapis.com/projects/p-123456/secrets/s roles/secretmanager.secretAccessor until 2030';
  const config = synthesized((stack) => {
    new GoogleIamBinding(stack, 'Readers', {
      resource: { service: 'secretmanager', apiVersion: 'v1', name: 'projects/p-123456/secrets/s' },
      role: 'roles/secretmanager.secretAccessor',
      members: ['user:a@example.com'],
      condition: { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' },
    }).importFrom(id);
  });
  const [name] = Object.keys(config.resource.googleiam_iam_binding);
  expect(config.import).toEqual([expect.objectContaining({ to: `googleiam_iam_binding.${name}`, id })]);
});
