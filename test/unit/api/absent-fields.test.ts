/**
 * Both lookups' results hold every field of Google's Discovery schema, at
 * every level: Google's value where it sent one, absent (Direct form) or
 * null (the Output form's JSON) where it did not. Driven from the schema
 * (test/support/discovery-schema.ts), so no field can be left out; a policy
 * always has the fields without which it is not taken for Google's answer.
 */
import { importJobFromWire } from '../../../lib/api/import-job-result-wire';
import { iamPolicyFromWire } from '../../../lib/api/policy-result-wire';
import { jsonWithNulls } from '../../../lib/api/wire';
import { DiscoverySchema, POLICY_CHECKED_FIELDS } from '../../support/discovery-schema';

const LOOKUPS = [
  {
    lookup: 'getImportJob',
    schema: DiscoverySchema.of('migrationcenter', 'v1alpha1'),
    root: 'ImportJob',
    map: importJobFromWire,
    required: {},
    key: (schema: string, field: string) => (`${schema}.${field}` === 'ImportJob.gcsPayload' ? 'objectStoragePayload' : field),
  },
  {
    lookup: 'get…IamPolicy',
    schema: DiscoverySchema.of('networksecurity', 'v1'),
    root: 'GoogleIamV1Policy',
    map: iamPolicyFromWire,
    required: POLICY_CHECKED_FIELDS,
    key: (_schema: string, field: string) => field,
  },
];

describe.each(LOOKUPS)('$lookup', ({ schema, root, map, required, key }) => {
  const answers = [schema.full(root), ...schema.skeletons(root, required)];
  const cases = answers.map((answer, i) => [i === 0 ? 'with every field' : `with only the messages ${i - 1} deep`, answer] as const);

  test.each(cases)("Google's answer %s: each field as sent, or absent", (_case, answer) => {
    const result = map(answer);
    expect(result).toStrictEqual(schema.expected(root, answer, undefined, key));
    // The Output form's JSON: the same, with null for every field Google did not send.
    expect(JSON.parse(jsonWithNulls(result))).toStrictEqual(schema.expected(root, answer, null, key));
  });

  test('the answers above send every field of the schema, and leave out each that an answer may lack', () => {
    const presence = answers.map((answer) => schema.presence(root, answer));
    const sent = new Set(presence.flatMap((p) => p.sent));
    const absent = new Set(presence.flatMap((p) => p.absent));
    const fields = schema.allFields(root);
    expect(fields.length).toBeGreaterThan(root === 'ImportJob' ? 40 : 12);
    expect(fields.filter((f) => !sent.has(f) || (!absent.has(f) && !(f in required)))).toEqual([]);
  });
});

test("the issue's row error: Google sends only its errors, and no file's details are made up", () => {
  const job = importJobFromWire({
    validationReport: { fileValidations: [{ rowErrors: [{ errors: [{ errorDetails: 'bad', severity: 'ERROR' }] }] }] },
  });
  const row = job.validationReport!.fileValidations![0].rowErrors![0];
  expect(row.errors).toEqual([{ errorDetails: 'bad', severity: 'ERROR' }]);
  expect([row.archiveError, row.csvError, row.xlsxError]).toEqual([undefined, undefined, undefined]);
  expect(JSON.parse(jsonWithNulls(row))).toMatchObject({ archiveError: null, csvError: null, xlsxError: null });
});

test("the issue's audit log config: sent without exemptedMembers, it has none", () => {
  const policy = iamPolicyFromWire({
    etag: 'BwX=',
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ' }] }],
  });
  expect(policy.auditConfigs![0].auditLogConfigs![0]).toStrictEqual({ logType: 'DATA_READ', exemptedMembers: undefined });
  expect(policy.bindings).toBeUndefined();
});
