/** Wire JSON → typed results: numbers as strings, values of the wrong type, unknown fields. */
import { importJobFromWire } from '../../../lib/api/import-job-result-wire';
import { iamPolicyFromWire } from '../../../lib/api/policy-result-wire';

test("Google's empty policy reads as what Google sent: an etag", () => {
  expect(iamPolicyFromWire({ etag: 'ACAB' })).toStrictEqual({
    auditConfigs: undefined,
    bindings: undefined,
    etag: 'ACAB',
    version: undefined,
  });
});

test('a policy keeps every binding and condition field it was sent, and ignores unknown fields', () => {
  const policy = iamPolicyFromWire({
    version: 3,
    etag: 'BwX=',
    kind: 'new-field',
    bindings: [
      { role: 'roles/networksecurity.admin', members: ['user:a@example.com'], futureField: true },
      { role: 'roles/networksecurity.editor', members: ['group:g@example.com'], condition: { expression: 'true', title: 't' } },
      { role: 'roles/networksecurity.viewer' },
    ],
  });
  expect(policy.bindings).toEqual([
    { role: 'roles/networksecurity.admin', members: ['user:a@example.com'] },
    { role: 'roles/networksecurity.editor', members: ['group:g@example.com'], condition: { expression: 'true', title: 't' } },
    { role: 'roles/networksecurity.viewer' },
  ]);
  expect(policy.bindings![1].condition).toStrictEqual({ expression: 'true', title: 't', description: undefined, location: undefined });
});

test('a value of the wrong type reads as absent; a list keeps its strings', () => {
  expect(importJobFromWire({ displayName: 7, labels: 'x', executionReport: [], validationReport: { jobErrors: {} } })).toEqual({
    validationReport: {},
  });
  expect(importJobFromWire(null)).toEqual({});
  expect(iamPolicyFromWire({ etag: 'e', bindings: [{ role: 'r', members: ['user:a@example.com', 3, null] }] }).bindings).toEqual([
    { role: 'r', members: ['user:a@example.com'] },
  ]);
});

test('64-bit numbers sent as strings read as numbers; labels keep their string values; unknown fields are ignored', () => {
  const job = importJobFromWire({
    name: 'projects/p/locations/l/importJobs/j',
    labels: { team: 'migration', bad: 3 },
    executionReport: { framesReported: '3', totalRowsCount: 'four' },
    somethingNew: { deep: true },
  });
  expect(job).toEqual({
    name: 'projects/p/locations/l/importJobs/j',
    labels: { team: 'migration' },
    executionReport: { framesReported: 3 },
  });
  expect('somethingNew' in job).toBe(false);
});
