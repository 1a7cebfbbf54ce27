/**
 * The typed resource types' constructs and lookups are generated from their
 * table (lib/resource-types/typed-resource-types.ts) by
 * scripts/generate-resource-types.js. The generator runs in a child process
 * (it formats with Prettier, whose module loading Jest does not host) and
 * writes nothing here: it generates into memory and compares.
 */
import { spawnSync } from 'child_process';
import * as path from 'path';
import { TYPED_RESOURCE_TYPE_ROWS } from '../../../lib/resource-types/typed-resource-types';
import { TYPED_RESOURCE_TYPES } from '../../../lib/grant/resource-type';

const ROOT = path.join(__dirname, '..', '..', '..');
const GENERATOR = path.join(ROOT, 'scripts', 'generate-resource-types.js');

jest.setTimeout(60_000);

function node(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 55_000 });
}

test('the generated files are what the table generates (npm run generate:resource-types)', () => {
  const result = node([GENERATOR, '--check']);
  expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
});

test('every row is an IAM-enabled collection Google publishes, by its stem', () => {
  expect(Object.keys(TYPED_RESOURCE_TYPES).sort()).toEqual(TYPED_RESOURCE_TYPE_ROWS.map((row) => row.stem).sort());
  for (const row of TYPED_RESOURCE_TYPE_ROWS) {
    expect(TYPED_RESOURCE_TYPES[row.stem]).toMatchObject({ service: row.service, apiVersion: row.apiVersion });
    expect(TYPED_RESOURCE_TYPES[row.stem].nameFormat).toEqual({ collection: row.collection, label: row.label });
  }
});

test("a row's lookalikes are rows that name it back (Google's two authorization-policy collections)", () => {
  const rowOf = (stem: string) => TYPED_RESOURCE_TYPE_ROWS.find((row) => row.stem === stem);
  const pairs = TYPED_RESOURCE_TYPE_ROWS.flatMap((row) => (row.lookalikes ?? []).map((other) => [row.stem, other]));
  expect(pairs).toEqual([
    ['AuthorizationPolicy', 'NetworkSecurityAuthzPolicy'],
    ['NetworkSecurityAuthzPolicy', 'AuthorizationPolicy'],
  ]);
  for (const [stem, other] of pairs) expect(rowOf(other)?.lookalikes).toContain(stem);
});

test('one more row is one more construct file, one more lookup and one more export, and nothing else', () => {
  const script = `
    const generator = require(${JSON.stringify(GENERATOR)});
    const fs = require('fs');
    const row = { stem: 'ServerTlsPolicy', module: 'networksecurity', service: 'networksecurity', apiVersion: 'v1',
      collection: 'serverTlsPolicies', idField: 'serverTlsPolicyId', label: 'server TLS policy',
      noun: 'network-security server TLS policy', exampleLocation: 'global' };
    generator.generate([...generator.readRows(), row]).then((files) => {
      const changed = [...files].filter(([file, text]) => !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text);
      console.log(JSON.stringify(changed.map(([file, text]) => [require('path').relative(${JSON.stringify(ROOT)}, file), text])));
    });`;
  const result = node(['-e', script]);
  expect(result.stderr).toBe('');
  const changed = new Map<string, string>(JSON.parse(result.stdout));
  expect([...changed.keys()].sort()).toEqual([
    'lib/index.ts',
    'lib/lookups/google-lookups.ts',
    'lib/networksecurity/server-tls-policy-iam.generated.ts',
  ]);
  const constructs = changed.get('lib/networksecurity/server-tls-policy-iam.generated.ts')!;
  for (const name of [
    'ServerTlsPolicyIamMember',
    'ServerTlsPolicyIamBinding',
    'ServerTlsPolicyIamPolicy',
    'DataServerTlsPolicyIamPolicy',
  ]) {
    expect(constructs).toContain(`export class ${name} extends`);
    expect(constructs).toContain(`export interface ${name}Props`);
  }
  expect(changed.get('lib/lookups/google-lookups.ts')).toContain(
    'public getServerTlsPolicyIamPolicy(args: GetServerTlsPolicyIamPolicyArgs): IamPolicy {',
  );
  expect(changed.get('lib/index.ts')).toContain("export * from './networksecurity/server-tls-policy-iam.generated';");
});
