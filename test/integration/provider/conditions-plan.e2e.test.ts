/**
 * Conditions under the real `terraform`, in HCL: a condition Google's IAM
 * environment refuses (an attribute it does not declare, operands no CEL
 * overload takes, a date that does not exist) fails `terraform plan` at the
 * resource, with the expression, a caret at its line and column, what is wrong
 * and what would be right, before anything is written; one Google may refuse
 * (an `api.getAttribute` key its reference does not document) is a warning.
 */
import * as fs from 'fs';
import * as path from 'path';
import { hclConfigurationsOfThisFile, unwrapped } from '../../support/hcl-configurations';

jest.setTimeout(300_000);

const AP = 'projects/my-project/locations/global/authorizationPolicies/internal-apis';

const hcl = hclConfigurationsOfThisFile('conditions-plan', [AP]);
const { configuration, terraform } = hcl;

const member = (label: string, expression: string) => `
resource "googleiam_authorization_policy_iam_member" "${label}" {
  name   = "${AP}"
  role   = "roles/networksecurity.viewer"
  member = "group:api-readers@example.com"
  condition {
    title      = "${label}"
    expression = ${JSON.stringify(expression)}
  }
}
`;

test("conditions Google's IAM environment refuses fail terraform plan at the resource, with a caret and the fix", async () => {
  const dir = await configuration(
    'refused',
    member('attribute', 'request.tme < timestamp("2027-01-01T00:00:00Z")') +
      member('overload', 'request.time < "2027-01-01"') +
      member('date', 'request.time < timestamp("2027-13-01T00:00:00Z")'),
  );
  const plan = await terraform(dir, 'plan', '-input=false');
  expect(plan.code).toBe(1);
  const stderr = unwrapped(plan.stderr);
  expect(stderr).toContain('Error: Invalid IAM grant with googleiam_authorization_policy_iam_member.overload, on main.tf line ');
  expect(stderr).toContain(
    'condition.expression: not a valid IAM condition: `request.time` is a timestamp: compare it with `timestamp("2027-01-01T00:00:00Z")`, ' +
      'not a string (CEL has no `<` for a timestamp and a string) at line 1, column 16: request.time < "2027-01-01" ^',
  );
  expect(stderr).toContain('Error: Invalid IAM grant with googleiam_authorization_policy_iam_member.attribute');
  expect(stderr).toContain(
    'condition.expression: not a valid IAM condition: `request` has no attribute `tme` (did you mean `request.time`?)',
  );
  expect(stderr).toContain('Error: Invalid IAM grant with googleiam_authorization_policy_iam_member.date');
  expect(stderr).toContain(
    'condition.expression: not a valid IAM condition: `timestamp("2027-13-01T00:00:00Z")` is not a valid timestamp: month 13 does not exist',
  );
  expect(hcl.emulator.writes()).toEqual([]);
  // The plan's output, for the record of what a user sees.
  fs.writeFileSync(path.join(hcl.scratch, 'refused.txt'), plan.stderr);
});

test("an api.getAttribute key Google's reference does not document: a warning at plan", async () => {
  const dir = await configuration('warned', member('undocumented', "api.getAttribute('example.googleapis.com/key', '') == 'x'"));
  const plan = await terraform(dir, 'plan', '-input=false');
  expect(plan.code).toBe(0);
  expect(unwrapped(plan.output)).toContain(
    'Warning: IAM condition Google may refuse with googleiam_authorization_policy_iam_member.undocumented',
  );
  expect(unwrapped(plan.output)).toContain(
    'not `example.googleapis.com/key`: a service may provide it, or Google may refuse the condition',
  );
  fs.writeFileSync(path.join(hcl.scratch, 'warned.txt'), plan.output);
});
