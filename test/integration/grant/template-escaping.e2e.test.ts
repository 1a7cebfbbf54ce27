/**
 * Terraform reads every configuration string as a template. Literal text
 * around values only Terraform knows must reach Google exactly, including a
 * `$` or `%` right before such a value (which would otherwise join the
 * value's `${` into the escape `$${`) and a literal `${` elsewhere.
 */
import { TerraformVariable } from 'cdktf';
import { AuthorizationPolicyIamMember } from '../../../lib';
import { GoogleApiEmulator } from '../../../lib/testing';
import { grantEnv } from '../../support/grant-env';
import { workspacesOfThisFile } from '../../support/terraform';

jest.setTimeout(120_000);

const AP = 'projects/demo-project/locations/global/authorizationPolicies/escaping';
const VIEWER = 'roles/networksecurity.viewer';
let emulator: GoogleApiEmulator;
const workspace = workspacesOfThisFile();

beforeAll(async () => {
  emulator = await GoogleApiEmulator.start();
});
afterAll(() => emulator.close());

test('a $, $$ or % right before a Terraform value, and a literal ${ elsewhere, reach Google as written', async () => {
  emulator.addResource(AP);
  const expressionOf = (value: string) =>
    `resource.name.endsWith("$${value}") || resource.name.endsWith("$$${value}") || resource.name.endsWith("%${value}") || resource.name == "\${x}"`;
  const ws = await workspace((s) => {
    const suffix = new TerraformVariable(s, 'suffix', { type: 'string', default: 'abc' });
    const title = new TerraformVariable(s, 'title', { type: 'string', default: 'dollar' });
    new AuthorizationPolicyIamMember(s, 'Escaped', {
      name: AP,
      role: VIEWER,
      member: 'user:escaped@example.com',
      condition: { title: `cost-$${title.stringValue}`, expression: expressionOf(suffix.stringValue) },
    });
  });
  const applied = await ws.apply(grantEnv(emulator));
  expect(applied.code).toBe(0);
  expect(emulator.policy(AP).bindings).toEqual([
    {
      role: VIEWER,
      members: ['user:escaped@example.com'],
      condition: { title: 'cost-$dollar', expression: expressionOf('abc') },
    },
  ]);
});
