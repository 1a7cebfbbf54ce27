/**
 * What the terraform command line says a provider needs to know (lib/provider/protocol/terraform-command.ts): whether it
 * destroys, and which saved plan an apply applies.
 */
import { terraformCommandOf, terraformCommandOfParent } from '../../../lib/provider/protocol/terraform-command';

test.each<[string[], boolean]>([
  [['destroy', '-auto-approve'], true],
  [['-chdir=stack', 'destroy'], true],
  [['apply', '-destroy', '-auto-approve'], true],
  [['plan', '-destroy', '-out=p'], true],
  [['plan', '-destroy=true'], true],
  [['apply', '-auto-approve'], false],
  [['plan', '-destroy=false'], false],
  [['plan', '-detailed-exitcode'], false],
  [['-chdir=destroy', 'plan'], false],
  [['validate'], false],
])('terraform %j: destroys %s', (args, destroys) => {
  expect(terraformCommandOf(args)).toEqual({ destroys });
});

test.each<[string[], string | undefined]>([
  [['apply', 'plan.tfplan'], 'plan.tfplan'],
  [['apply', '-input=false', '-auto-approve', 'out/plan'], 'out/plan'],
  [['-chdir=stack', 'apply', 'plan'], 'plan'],
  [['apply', '-state', 'old.tfstate', '-parallelism', '5', 'plan.tfplan'], 'plan.tfplan'],
  [['apply', '-lock-timeout=30s', '--', '-odd-name'], '-odd-name'],
  [['apply', '-auto-approve'], undefined],
  [['apply', '-state', 'old.tfstate'], undefined],
  [['plan', '-out', 'plan.tfplan'], undefined],
])('terraform %j: applies the saved plan %s', (args, savedPlan) => {
  expect(terraformCommandOf(args).savedPlan).toBe(savedPlan);
  expect(terraformCommandOf(args).destroys).toBe(false);
});

test('no subcommand: nothing known', () => {
  expect(terraformCommandOf([])).toEqual({});
});

test('a parent that cannot be read tells nothing (the real one is read under terraform destroy: test/integration/provider/overlaps.e2e.test.ts)', () => {
  expect(terraformCommandOfParent(2 ** 22 + 12345)).toEqual({});
});
