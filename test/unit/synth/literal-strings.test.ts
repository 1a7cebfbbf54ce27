/**
 * How the L1 classes write strings: literal text reaches the provider
 * exactly (Terraform would read `${` and `%{` as templates), and only cdktf
 * tokens are expressions. The real terraform reads both forms back in
 * test/integration/grant/grants.e2e.test.ts and template-escaping.e2e.test.ts.
 */
import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import { hclLiteral, jsonLiteral } from '../../../lib/synth/literal-strings';
import { resolveIn } from '../../support/resolve';

const stack = new TerraformStack(Testing.app(), 'stack');
const name = new TerraformVariable(stack, 'name', { type: 'string' }).stringValue;

test('JSON: template sequences in literal text are escaped; a $ or % right before a token stays literal', () => {
  expect(jsonLiteral('a ${b} %{c} "d" \\ e')).toBe('a $${b} %%{c} "d" \\ e');
  expect(resolveIn(stack, jsonLiteral(`cost-$${name} ${'${x}'}`))).toBe('cost-${"$"}${var.name} $${x}');
  expect(jsonLiteral(undefined)).toBeUndefined();
});

test('HCL: plain text is written as it is; other literal text travels base64-encoded around the tokens', () => {
  expect(hclLiteral('roles/networksecurity.viewer')).toBe('roles/networksecurity.viewer');
  expect(resolveIn(stack, hclLiteral('quote " and ${x}'))).toBe(
    `\${base64decode("${Buffer.from('quote " and ${x}').toString('base64')}")}`,
  );
  expect(resolveIn(stack, hclLiteral(`user:${name}`))).toBe(
    `\${join("", [base64decode("${Buffer.from('user:').toString('base64')}"), var.name])}`,
  );
  expect(resolveIn(stack, hclLiteral(name))).toBe('${var.name}');
});
