import { snakeCase, styleFieldPath, styleName, styleShapes } from '../../../lib/iam/name-style';
import { counted } from '../../../lib/iam/format';

test.each([
  ['member', 'member', 'member', 'Member'],
  ['optionsRequestedPolicyVersion', 'optionsRequestedPolicyVersion', 'options_requested_policy_version', 'OptionsRequestedPolicyVersion'],
  ['apiVersion', 'apiVersion', 'api_version', 'ApiVersion'],
  ['v3Name', 'v3Name', 'v3_name', 'V3Name'],
  ['getImportJob', 'getImportJob', 'get_import_job', 'GetImportJob'],
])('%s: camel %s, snake %s, pascal %s', (name, camel, snake, pascal) => {
  expect([styleName(name, 'camel'), styleName(name, 'snake'), styleName(name, 'pascal')]).toEqual([camel, snake, pascal]);
  expect(snakeCase(name)).toBe(snake);
});

test.each([
  ['grants[2].condition.expression', 'grants[2].condition.expression', 'Grants[2].Condition.Expression'],
  [
    'auditConfigs[0].auditLogConfigs[1].logType',
    'audit_configs[0].audit_log_configs[1].log_type',
    'AuditConfigs[0].AuditLogConfigs[1].LogType',
  ],
  ['rules["GoogleIam-BasicRole"]', 'rules["GoogleIam-BasicRole"]', 'Rules["GoogleIam-BasicRole"]'],
  ['rules["a.b\\"cD"].level', 'rules["a.b\\"cD"].level', 'Rules["a.b\\"cD"].Level'],
  ['resource.apiVersion', 'resource.api_version', 'Resource.ApiVersion'],
])('the field path %s: snake %s, pascal %s (indexes and quoted keys kept)', (path, snake, pascal) => {
  expect(styleFieldPath(path, 'camel')).toBe(path);
  expect(styleFieldPath(path, 'snake')).toBe(snake);
  expect(styleFieldPath(path, 'pascal')).toBe(pascal);
});

describe('counted (lib/iam/format.ts)', () => {
  test.each([
    [0, 'grant', undefined, '0 grants'],
    [1, 'grant', undefined, '1 grant'],
    [2, 'principal', undefined, '2 principals'],
    [1501, 'resource', undefined, '1,501 resources'],
    [1, 'grant holds', 'grants hold', '1 grant holds'],
    [3, 'grant holds', 'grants hold', '3 grants hold'],
  ])('%s %s', (n, singular, plural, expected) => {
    expect(counted(n, singular, plural)).toBe(expected);
  });
});

test('struct shapes in a message: each field styled, the optional mark kept, the rest of the text untouched', () => {
  const text = 'expected { service, apiVersion, name, policyReadMethod? } (see {docs})';
  expect(styleShapes(text, 'camel')).toBe(text);
  expect(styleShapes(text, 'snake')).toBe('expected { service, api_version, name, policy_read_method? } (see {docs})');
  expect(styleShapes(text, 'pascal')).toBe('expected { Service, ApiVersion, Name, PolicyReadMethod? } (see {docs})');
  expect(styleShapes('a list of { role, members, condition? }', 'snake')).toBe('a list of { role, members, condition? }');
});
