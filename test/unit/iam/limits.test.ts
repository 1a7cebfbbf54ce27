import { checkPolicyLimits, countPrincipals, MAX_GROUP_PRINCIPALS, MAX_PRINCIPALS } from '../../../lib/iam/limits';
import type { Policy } from '../../../lib/iam/types';
import { validationError } from './expect-error';

const users = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `user:u${from + i}@example.com`);
const groups = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => (i % 2 ? `group:g${i}@example.com` : `domain:d${i}.example.com`));

/** A policy with the given binding members and audit exemptions. */
function policy(members: readonly string[], exempted: readonly string[] = []): Policy {
  return {
    bindings: [{ role: 'roles/viewer', members }],
    auditConfigs: [{ service: 'allServices', auditLogConfigs: [{ logType: 'DATA_READ', exemptedMembers: exempted }] }],
  };
}

describe('countPrincipals counts every occurrence', () => {
  test.each<[string, Policy, number, number]>([
    ['empty policy', {}, 0, 0],
    ['one binding', policy(['user:a@example.com', 'group:g@example.com']), 2, 1],
    [
      'same member in two bindings counts twice',
      {
        bindings: [
          { role: 'roles/networksecurity.admin', members: ['user:a@example.com'] },
          { role: 'roles/networksecurity.viewer', members: ['user:a@example.com'] },
        ],
      },
      2,
      0,
    ],
    ['audit exemptions count', policy(['domain:example.com'], ['user:a@example.com', 'group:g@example.com']), 3, 2],
    ['deleted groups still count as groups', policy(['deleted:group:g@example.com?uid=1']), 1, 1],
    ['bindings without members', { bindings: [{ role: 'roles/networksecurity.admin' }], auditConfigs: [{ service: 's' }] }, 0, 0],
  ])('%s', (_name, input, principals, groupCount) => {
    expect(countPrincipals(input)).toEqual({ principals, groups: groupCount });
  });
});

describe('checkPolicyLimits', () => {
  test.each<[string, Policy]>([
    ['1,500 principals', policy(users(MAX_PRINCIPALS))],
    ['1,500 with exemptions', policy(users(1400), users(100, 1400))],
    ['250 groups', policy(groups(MAX_GROUP_PRINCIPALS))],
    ['250 groups across bindings and exemptions', policy(groups(200), groups(50))],
  ])('allows %s', (_name, input) => {
    expect(() => checkPolicyLimits(input)).not.toThrow();
  });

  test.each<[string, Policy, number, string]>([
    ['1,501 principals', policy(users(1501)), 1501, 'policy would hold 1,501 principals; Google allows at most 1,500'],
    [
      '1,501 with one exemption',
      policy(users(1500), ['user:x@example.com']),
      1501,
      'policy would hold 1,501 principals; Google allows at most 1,500',
    ],
    ['2,000 principals', policy(users(2000)), 2000, 'policy would hold 2,000 principals; Google allows at most 1,500'],
    ['251 groups', policy(groups(251)), 251, 'policy would hold 251 groups and domains; Google allows at most 250'],
    [
      '251 groups with one exempted',
      policy(groups(250), ['group:extra@example.com']),
      251,
      'policy would hold 251 groups and domains; Google allows at most 250',
    ],
  ])('refuses %s', (_name, input, count, reason) => {
    const error = validationError(() => checkPolicyLimits(input, 'grants'));
    expect(error.field).toBe('grants');
    // The value is the principals that count against the limit; messages show only the first few.
    expect((error.value as readonly string[]).length).toBe(count);
    expect(error.reason).toBe(reason);
  });
});
