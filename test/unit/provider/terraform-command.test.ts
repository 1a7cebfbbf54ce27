/**
 * What the terraform command line says a provider needs to know (lib/provider/terraform-command.ts): whether it destroys.
 */
import { terraformCommandOf, terraformCommandOfParent } from '../../../lib/provider/terraform-command';

test.each<[string[], boolean]>([
  [['destroy', '-auto-approve'], true],
  [['-chdir=stack', 'destroy'], true],
  [['apply', '-destroy', '-auto-approve'], true],
  [['plan', '-destroy', '-out=p'], true],
  [['plan', '-destroy=true'], true],
  [['apply', '-auto-approve'], false],
  [['plan', '-destroy=false'], false],
  [['plan', '-detailed-exitcode'], false],
  [['apply', 'destroy.tfplan'], false],
  [['-chdir=destroy', 'plan'], false],
  [['validate'], false],
])('terraform %j: destroys %s', (args, destroys) => {
  expect(terraformCommandOf(args)).toEqual({ destroys });
});

test('no subcommand: nothing known', () => {
  expect(terraformCommandOf([])).toEqual({});
});

test('a parent that cannot be read tells nothing (the real one is read under terraform destroy: test/integration/provider/overlaps.e2e.test.ts)', () => {
  expect(terraformCommandOfParent(2 ** 22 + 12345)).toEqual({});
});
