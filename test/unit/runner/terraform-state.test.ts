import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { appliedInstances } from '../../../lib/runner/terraform-state';

/** A stand-in `terraform` that answers `state pull` with `state` (or fails), as TERRAFORM_BINARY_NAME names it. */
function fakeTerraform(state: unknown, exitCode = 0): NodeJS.ProcessEnv {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-terraform-'));
  const script = path.join(dir, 'terraform');
  const output = typeof state === 'string' ? state : JSON.stringify(state);
  fs.writeFileSync(
    script,
    `#!/bin/sh\n[ "$1 $2 $#" = "state pull 2" ] || { echo "unexpected arguments: $*" >&2; exit 2; }\n` +
      `[ -z "$TF_CLI_ARGS" ] || { echo "TF_CLI_ARGS leaked" >&2; exit 3; }\n` +
      `cat <<'JSON'\n${output}\nJSON\n${exitCode ? `echo "Error: backend unreachable" >&2\n` : ''}exit ${exitCode}\n`,
    { mode: 0o755 },
  );
  return { PATH: process.env.PATH, TERRAFORM_BINARY_NAME: script, TF_CLI_ARGS: '-no-color' };
}

const instance = (key: string, grant: string, extra: object = {}) => ({
  index_key: key,
  attributes: { id: 'x', triggers_replace: { value: grant, type: 'string' } },
  ...extra,
});

test("the grants resource's instances as the last apply left them: tainted ones, modules and other resources left out", () => {
  const env = fakeTerraform({
    version: 4,
    resources: [
      {
        mode: 'managed',
        type: 'terraform_data',
        name: 'google_iam_grants',
        instances: [instance('a', '{"a":1}'), instance('b', '{"b":1}', { status: 'tainted' })],
      },
      { mode: 'managed', type: 'terraform_data', name: 'google_iam_grants', module: 'module.m', instances: [instance('c', '{}')] },
      { mode: 'managed', type: 'terraform_data', name: 'google_iam_repair', instances: [{ attributes: { id: 'r' } }] },
      { mode: 'data', type: 'terraform_data', name: 'google_iam_grants', instances: [instance('d', '{}')] },
    ],
  });
  expect([...appliedInstances('terraform_data.google_iam_grants', env)]).toEqual([['a', { grant: '{"a":1}' }]]);
});

test('with the resource that applies the grants: a grant whose apply is missing or tainted (pending) is left out', () => {
  const env = fakeTerraform({
    version: 4,
    resources: [
      {
        mode: 'managed',
        type: 'terraform_data',
        name: 'google_iam_grants',
        instances: [instance('applied', '{"a":1}'), instance('failed', '{"b":1}'), instance('new', '{"c":1}')],
      },
      {
        mode: 'managed',
        type: 'terraform_data',
        name: 'google_iam_grants_applied',
        instances: [instance('applied', 'id-a'), instance('failed', 'id-b', { status: 'tainted' })],
      },
    ],
  });
  expect([...appliedInstances('terraform_data.google_iam_grants', env, 'terraform_data.google_iam_grants_applied').keys()]).toEqual([
    'applied',
  ]);
  expect([...appliedInstances('terraform_data.google_iam_grants', env).keys()]).toEqual(['applied', 'failed', 'new']);
});

test("an instance's input, the grant's label, comes with it", () => {
  const env = fakeTerraform({
    version: 4,
    resources: [
      {
        mode: 'managed',
        type: 'terraform_data',
        name: 'google_iam_grants',
        instances: [
          { index_key: 'a', attributes: { triggers_replace: { value: '{"a":1}' }, input: { value: 'grants/Alice', type: 'string' } } },
        ],
      },
    ],
  });
  expect([...appliedInstances('terraform_data.google_iam_grants', env)]).toEqual([['a', { grant: '{"a":1}', input: 'grants/Alice' }]]);
});

test('no state yet: nothing is applied', () => {
  expect(appliedInstances('terraform_data.google_iam_grants', fakeTerraform('')).size).toBe(0);
});

test('a state that cannot be read is an error saying what failed', () => {
  expect(() => appliedInstances('terraform_data.google_iam_grants', fakeTerraform('', 1))).toThrow(
    /terraform state pull failed: Error: backend unreachable/,
  );
});
