import { ContractError } from '../../../lib/contract/contract-error';
import { parseGooglePolicyData, parseMovedState } from '../../../lib/contract/moved-state';

test("the google provider's policy_data: bindings with conditions and audit configs, an empty description left out", () => {
  const policy = parseGooglePolicyData(
    JSON.stringify({
      etag: 'BwX=',
      bindings: [
        { role: 'roles/networksecurity.viewer', members: ['user:a@example.com'] },
        {
          role: 'roles/networksecurity.admin',
          members: ['group:g@example.com'],
          condition: { title: 't', expression: 'true', description: '' },
        },
      ],
      auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:q@example.com'] }] }],
    }),
  );
  expect(policy).toEqual({
    bindings: [
      { role: 'roles/networksecurity.viewer', members: ['user:a@example.com'] },
      { role: 'roles/networksecurity.admin', members: ['group:g@example.com'], condition: { title: 't', expression: 'true' } },
    ],
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: ['user:q@example.com'] }] }],
  });
  expect(parseGooglePolicyData('{}')).toEqual({ bindings: [] });
});

test.each([
  ['not json', ''],
  ['[]', 'policy_data'],
  ['{"bindings":[{"members":["user:a@example.com"]}]}', 'policy_data.bindings[0].role'],
  ['{"bindings":[{"role":"roles/networksecurity.viewer","members":[1]}]}', 'policy_data.bindings[0].members[0]'],
  ['{"bindings":[{"role":"roles/networksecurity.viewer","condition":{"title":"t"}}]}', 'policy_data.bindings[0].condition.expression'],
  ['{"auditConfigs":[{"auditLogConfigs":[]}]}', 'policy_data.auditConfigs[0].service'],
])('%s is refused at %s', (json, field) => {
  let error: unknown;
  try {
    parseGooglePolicyData(json);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ContractError);
  expect((error as ContractError).field).toBe(field);
});

test('a moved state is a JSON object', () => {
  expect(parseMovedState('{"name":"n"}')).toEqual({ name: 'n' });
  expect(() => parseMovedState('"n"')).toThrow(ContractError);
  expect(() => parseMovedState('{')).toThrow(/not JSON/);
});
